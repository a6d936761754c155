"""Fixtures for deal tests: fixed deals built from a few named tiles, and checked play.

`deal(...)` builds a deal from the hands, the tiles drawn from the front (in order) and
the tiles taken from the back (first taken first); every other tile of the set fills the
middle of the wall. `play(state, "S", "pong", tiles="55p")` checks that the action is
listed by `legal_actions` before applying it, so each scenario also tests the listing.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from server.engine import Action, apply, legal_actions, parse_tiles
from server.engine.deal_state import DealState
from server.engine.tiles import sorted_tiles
from tests.walls import fixed_deal

# Fei, like the bonus tiles, comes last in the middle of the wall, so long scenarios draw
# plain tiles first; `first=` puts chosen tiles at the start of the middle.
build_deal = partial(fixed_deal, last="j")


def play(state: DealState, seat: str, kind: str, **fields: Any) -> DealState:
    """Apply one action after checking it is among the seat's legal actions."""
    state, _ = play_events(state, seat, kind, **fields)
    return state


def play_events(
    state: DealState, seat: str, kind: str, **fields: Any
) -> tuple[DealState, list[dict[str, Any]]]:
    """Like `play`, also returning the events."""
    tiles = fields.get("tiles")
    action = Action(
        kind,
        seat,
        tile=fields.get("tile"),
        tiles=tuple(sorted_tiles(parse_tiles(tiles))) if tiles is not None else None,
        fei_as=fields.get("fei_as"),
    )
    legal = legal_actions(state, seat)
    assert action in legal, f"{action} not in {legal}"
    return apply(state, action)


def kinds(state: DealState, seat: str) -> set[str]:
    """The action types `seat` may take now."""
    return {action.type for action in legal_actions(state, seat)}


@pytest.fixture
def fixed() -> Any:
    """The helpers above, as one fixture object."""

    class Helpers:
        deal = staticmethod(build_deal)
        play = staticmethod(play)
        play_events = staticmethod(play_events)
        kinds = staticmethod(kinds)

    return Helpers
