"""Turning an engine result object into the columns and per-player rows the store keeps.

The result shape is documented in docs/engine.md ("The result"). Reading it defensively
(`.get` with defaults) keeps a draw or a timeout, which have no winners, on the same path.
"""

from __future__ import annotations

from typing import Any


def _winners(result: dict[str, Any]) -> list[dict[str, Any]]:
    return list(result.get("winners") or [])


def winners_fan(result: dict[str, Any]) -> int | None:
    """The highest fan among the winners; None when nobody won."""
    fans = [int(winner.get("fan", 0)) for winner in _winners(result)]
    return max(fans) if fans else None


def winners_patterns(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every winner's patterns, each tagged with the winner's seat, in winner order."""
    return [
        {"seat": winner.get("seat"), **pattern}
        for winner in _winners(result)
        for pattern in winner.get("patterns") or []
    ]


def player_deal_rows(
    result: dict[str, Any], seat_players: dict[str, int], players: dict[int, Any]
) -> list[dict[str, Any]]:
    """One row per seated player: name, seat, net points, won, self_drawn, dealt_in, is_bot.

    `players` maps player index to a row with `name` and `is_bot`. "dealt_in" means the
    player discarded the tile someone won on (a discard win, so they paid it).
    """
    net_by_seat = result.get("scores") or {}
    won_by_seat: dict[str, bool] = {}
    dealt_in_seats: set[str] = set()
    for winner in _winners(result):
        hand = winner.get("hand") or {}
        self_drawn = bool(hand.get("self_drawn", False))
        won_by_seat[str(winner.get("seat"))] = self_drawn
        if not self_drawn and hand.get("from"):
            dealt_in_seats.add(hand["from"])
    rows = []
    for seat, player_index in seat_players.items():
        player = players.get(player_index)
        if player is None:
            raise ValueError(f"seat {seat} names player {player_index}, who is not in the room")
        rows.append(
            {
                "player_index": player_index,
                "player_name": player.name,
                "seat": seat,
                "net_points": int(net_by_seat.get(seat, 0)),
                "won": seat in won_by_seat,
                "self_drawn": won_by_seat.get(seat, False),
                "dealt_in": seat in dealt_in_seats,
                "is_bot": bool(player.is_bot),
            }
        )
    return rows
