"""What one seat (or a spectator) may see of a deal, as the JSON of docs/engine.md.

Hidden information stays hidden: a seat sees its own concealed tiles and nothing of the
others' hands, of the wall, or of anyone else's claim options; a spectator sees only the
table. Concealed kongs lie on the table and show their tiles.
"""

from __future__ import annotations

from typing import Any

from server.engine.deal import pending_seats
from server.engine.deal_state import DISCARD_PHASE, DealState, SeatState, in_tile_order
from server.engine.errors import EngineError
from server.engine.turns import forbidden_now


def view(state: DealState, seat: str | None) -> dict[str, Any]:
    """The JSON-ready view of `state` for `seat`, or for a spectator when `seat` is None."""
    if seat is not None and seat not in state.seats:
        raise EngineError(f"seat {seat!r} does not play at this table")
    shown = public_view(state)
    shown["me"] = seat
    if seat is not None:
        shown.update(own_view(state, seat))
    return shown


def public_view(state: DealState) -> dict[str, Any]:
    """What every seat and spectator sees alike: `view` without `me` and a seat's own tiles.

    A server sends it to many connections, so it can build (and encode) it once.
    """
    shown = table_view(state)
    shown["players"] = {name: seat_public_view(player) for name, player in state.players.items()}
    return shown


def table_view(state: DealState) -> dict[str, Any]:
    """`public_view` without `players` (the part that changes with every move)."""
    last = state.last_discard
    return {
        "variant": state.variant.name,
        "seats": list(state.seats),
        "round_wind": state.settings.round_wind,
        "dealer": "E",
        "phase": state.phase,
        "turn": state.turn,
        "wall_remaining": max(state.wall_remaining, 0),
        "last_discard": {"seat": last[0], "tile": last[1]} if last is not None else None,
        "pending": pending_seats(state),
        "scores": state.net_scores(),
        "payments": [paid.to_json() for paid in state.payments],
        "result": state.result.to_json() if state.result is not None else None,
    }


def seat_public_view(player: SeatState) -> dict[str, Any]:
    """What everyone sees of one seat: how many tiles it hides, never which."""
    return {
        "hand_count": len(player.hand),
        "melds": [meld.to_json() for meld in player.melds],
        "discards": list(player.discards),
        "bonus": list(player.bonus),
        "drawn": player.drawn is not None,
    }


def own_view(state: DealState, seat: str) -> dict[str, Any]:
    """What only `seat` sees: its concealed tiles, its drawn tile, what it may not throw."""
    if seat not in state.seats:
        raise EngineError(f"seat {seat!r} does not play at this table")
    player = state.players[seat]
    hand = list(player.hand)
    if player.drawn is not None:
        hand.remove(player.drawn)
    its_turn = state.turn == seat and state.phase == DISCARD_PHASE
    return {
        "hand": in_tile_order(hand),
        "drawn_tile": player.drawn,
        "forbidden": list(forbidden_now(state)) if its_turn else [],
    }
