"""Finished deals for the dashboard: the filtered recent list, and one deal in full.

Both read the store's tables directly (``server.store.schema``) with SQLAlchemy Core.
Seats are per deal (the dealer is always East), so every seat is shown with the name of
the player who sat there in that deal, from ``deal_players``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.filters import DealFilters
from server.dashboard.settlements import deal_rules
from server.store.schema import deal_actions, deal_players, deals, room_players

MAX_PAGE = 200


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _duration(started: datetime | None, ended: datetime | None) -> float | None:
    if started is None or ended is None:
        return None
    return round((ended - started).total_seconds(), 3)


def _winner_summary(winner: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A winner without the hand: seat, name, fan, limit, points."""
    seat = winner.get("seat")
    return {
        "seat": seat,
        "name": names.get(str(seat)),
        "fan": winner.get("fan"),
        "limit": bool(winner.get("limit", False)),
        "points": winner.get("points"),
    }


async def recent_deals(
    conn: AsyncConnection, filters: DealFilters, limit: int = 50, offset: int = 0
) -> dict[str, Any]:
    """Finished deals, newest first, one page of them, with who sat where and who won."""
    limit = max(1, min(limit, MAX_PAGE))
    offset = max(0, offset)
    rows = (
        await conn.execute(
            select(
                deals.c.deal_id,
                deals.c.room_id,
                deals.c.game_no,
                deals.c.deal_no,
                deals.c.variant,
                deals.c.started_at,
                deals.c.ended_at,
                deals.c.outcome,
                deals.c.fan,
                deals.c.winners,
                deals.c.settings,
            )
            .where(*filters.on_deals(deals))
            .order_by(deals.c.ended_at.desc(), deals.c.deal_id.desc())
            .limit(limit + 1)
            .offset(offset)
        )
    ).all()
    has_more = len(rows) > limit
    rows = rows[:limit]
    seats = await _seat_rows(conn, [row.deal_id for row in rows])
    listed = []
    for row in rows:
        players = seats.get(row.deal_id, [])
        names = {player["seat"]: player["name"] for player in players}
        listed.append(
            {
                "deal_id": row.deal_id,
                "room_id": row.room_id,
                "game_no": row.game_no,
                "deal_no": row.deal_no,
                "variant": row.variant,
                "started_at": _iso(row.started_at),
                "ended_at": _iso(row.ended_at),
                "duration_seconds": _duration(row.started_at, row.ended_at),
                "outcome": row.outcome,
                "fan": row.fan,
                "winners": [_winner_summary(w, names) for w in row.winners or []],
                "players": players,
                **deal_rules(row.settings, row.variant),
            }
        )
    return {"deals": listed, "limit": limit, "offset": offset, "has_more": has_more}


async def _seat_rows(conn: AsyncConnection, deal_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each listed deal's players in seat order, in one query for the whole page."""
    if not deal_ids:
        return {}
    order = {"E": 0, "S": 1, "W": 2, "N": 3}
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = await conn.execute(
        select(
            deal_players.c.deal_id,
            deal_players.c.seat,
            deal_players.c.player_name,
            deal_players.c.net_points,
            deal_players.c.is_bot,
        ).where(deal_players.c.deal_id.in_(deal_ids))
    )
    for row in rows:
        found[row.deal_id].append(
            {
                "seat": row.seat,
                "name": row.player_name,
                "net_points": row.net_points,
                "is_bot": row.is_bot,
            }
        )
    for players in found.values():
        players.sort(key=lambda player: order.get(player["seat"], 9))
    return dict(found)


async def deal_breakdown(conn: AsyncConnection, deal_id: int) -> dict[str, Any] | None:
    """One deal in full: settings, seed, result (patterns, fan, every payment) and its log.

    Returns None for an unknown deal, and for a deal still in progress: its seed and log
    would let anyone rebuild the wall and every concealed hand while it is being played.
    """
    deal = (
        await conn.execute(
            select(deals).where(deals.c.deal_id == deal_id, deals.c.ended_at.is_not(None))
        )
    ).one_or_none()
    if deal is None:
        return None
    roster = {
        row.player_index: row
        for row in await conn.execute(
            select(room_players.c.player_index, room_players.c.name, room_players.c.is_bot).where(
                room_players.c.room_id == deal.room_id
            )
        )
    }
    seat_names = {
        seat: roster[index].name if index in roster else f"player {index}"
        for seat, index in (deal.seat_players or {}).items()
    }
    net = {
        row.seat: row.net_points
        for row in await conn.execute(
            select(deal_players.c.seat, deal_players.c.net_points).where(
                deal_players.c.deal_id == deal_id
            )
        )
    }
    players = [
        {
            "seat": seat,
            "player_index": index,
            "name": seat_names[seat],
            "is_bot": bool(roster[index].is_bot) if index in roster else False,
            "net_points": net.get(seat),
        }
        for seat, index in (deal.seat_players or {}).items()
    ]
    actions = [
        {
            "seq": row.seq,
            "seat": row.seat,
            "player": seat_names.get(row.seat) if row.seat else None,
            "action": row.action,
            "at": _iso(row.at),
            "by_bot": row.by_bot,
            "bot_reason": row.bot_reason,
        }
        for row in await conn.execute(
            select(deal_actions)
            .where(deal_actions.c.deal_id == deal_id)
            .order_by(deal_actions.c.seq)
        )
    ]
    result = deal.result or {}
    payments = [
        {
            **payment,
            "from_name": seat_names.get(str(payment.get("from"))),
            "to_name": seat_names.get(str(payment.get("to"))),
        }
        for payment in (deal.payments or result.get("payments") or [])
    ]
    winners = [
        {**winner, "name": seat_names.get(str(winner.get("seat")))}
        for winner in (deal.winners or result.get("winners") or [])
    ]
    return {
        "deal_id": deal.deal_id,
        "room_id": deal.room_id,
        "game_no": deal.game_no,
        "deal_no": deal.deal_no,
        "variant": deal.variant,
        "settings": deal.settings,
        **deal_rules(deal.settings, deal.variant),
        # A string: seeds run to 2^63, and a JSON number above 2^53 reaches a browser
        # rounded (…484222 read as …484000), which would replay another deal.
        "seed": str(deal.seed),
        "started_at": _iso(deal.started_at),
        "ended_at": _iso(deal.ended_at),
        "duration_seconds": _duration(deal.started_at, deal.ended_at),
        "outcome": deal.outcome,
        "fan": deal.fan,
        "winners": winners,
        "patterns": deal.patterns or [],
        "payments": payments,
        "scores": result.get("scores") or {},
        "players": players,
        "actions": actions,
    }
