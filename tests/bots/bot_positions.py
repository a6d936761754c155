"""Fixed positions for bot tests, built with the real engine (`tests/walls.py`)."""

from __future__ import annotations

from server.engine import Action, DealState, apply, legal_actions, pending_seats, view
from tests.walls import fixed_deal

__all__ = ["decision", "discard", "everyone_passes", "fixed_deal"]


def everyone_passes(state: DealState) -> DealState:
    """Close an open claim window by passing for every seat still deciding."""
    while state.phase in ("claim", "rob"):
        seat = pending_seats(state)[0]
        state, _ = apply(state, Action("pass", seat))
    return state


def discard(state: DealState, seat: str, tile: str) -> DealState:
    """`seat` throws `tile` (the claim window stays open)."""
    state, _ = apply(state, Action("discard", seat, tile))
    return state


def decision(state: DealState, seat: str) -> tuple[dict, list[Action]]:
    """What a bot at `seat` is given: its view and its legal actions."""
    return view(state, seat), legal_actions(state, seat)
