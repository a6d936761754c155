"""Fixtures for deal tests: fixed deals built from a few named tiles, and checked play.

`deal(...)` builds a deal from the hands, the tiles drawn from the front (in order) and
the tiles taken from the back (first taken first); every other tile of the set fills the
middle of the wall. `play(state, "S", "pong", tiles="55p")` checks that the action is
listed by `legal_actions` before applying it, so each scenario also tests the listing.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from server.engine import Action, DealSettings, apply, deal_from_wall, legal_actions, parse_tiles
from server.engine.deal_state import DealState
from server.engine.tiles import sort_key, sorted_tiles
from server.engine.variants import get_variant


def build_deal(
    variant: str,
    hands: dict[str, str],
    front: str = "",
    back: str = "",
    filler_first: str = "",
) -> DealState:
    """A fixed deal. `filler_first` puts these tiles at the start of the filler."""
    tile_set = get_variant(variant).tile_set
    hand_tiles = {seat: parse_tiles(tiles) for seat, tiles in hands.items()}
    front_tiles, back_tiles = parse_tiles(front), parse_tiles(back)
    used = Counter(front_tiles) + Counter(back_tiles)
    for tiles in hand_tiles.values():
        used += Counter(tiles)
    rest = Counter(tile_set)
    rest.subtract(used)
    assert all(count >= 0 for count in rest.values()), f"too many: {+(-rest)}"
    first = parse_tiles(filler_first)
    rest.subtract(Counter(first))
    # Bonus tiles and Fei last in the filler, so long scenarios draw plain tiles first.
    filler = first + sorted(rest.elements(), key=lambda t: (t[-1] in "fnacj", sort_key(t)))
    wall = front_tiles + filler + list(reversed(back_tiles))
    return deal_from_wall(DealSettings(variant), hand_tiles, wall)


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
