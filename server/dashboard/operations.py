"""The operations view: live tables and connected players, bot cover per player, and deals
ended by the deal time limit.

Live figures come from the room manager in this process (``app.state.manager``); the
history comes from the database. Bot cover is counted from the action log, whose
``bot_reason`` says why a bot moved for a seat: ``timeout`` (the turn timer ran out),
``disconnected`` (no live connection) or ``bot_seat`` (a seat that is a bot, not counted).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.filters import DealFilters
from server.store.schema import deal_actions, deal_players, deals

RECENT_LIMITED = 20


def live_tables(manager: Any) -> dict[str, Any]:
    """Open rooms of this process with their players' connection state.

    ``manager`` is the room manager (its ``rooms`` map room ids to actors with
    ``public_room()``); None when the app runs without one, e.g. a dashboard-only test.
    """
    rooms = []
    rooms_by_id = dict(getattr(manager, "rooms", {}) or {}) if manager is not None else {}
    for room_id, actor in rooms_by_id.items():
        try:
            room = actor.public_room()
        except Exception:  # a room closing under our feet must not break the page
            continue
        if room.get("status") == "closed":
            continue
        deal = getattr(actor, "deal", None)
        rooms.append(
            {
                "room_id": room_id,
                "name": room.get("name"),
                "variant": room.get("variant"),
                "status": room.get("status"),
                "deal_no": room.get("deal_no"),
                "deal_id": getattr(deal, "deal_id", None),
                "spectators": room.get("spectators", 0),
                "players": [
                    {
                        "name": player.get("name"),
                        "seat": player.get("seat"),
                        "is_bot": bool(player.get("is_bot")),
                        "connected": bool(player.get("connected")),
                        "bot_covered": bool(player.get("bot_covered")),
                    }
                    for player in room.get("players", [])
                ],
            }
        )
    return {
        "rooms": rooms,
        "tables": sum(1 for room in rooms if room["status"] == "playing"),
        "connected_players": sum(
            1 for room in rooms for player in room["players"] if player["connected"]
        ),
        "spectators": sum(int(room["spectators"] or 0) for room in rooms),
    }


async def bot_cover(conn: AsyncConnection, filters: DealFilters) -> list[dict[str, Any]]:
    """Per human player: turns their bot played because the timer ran out, or they were away.

    With a player filter, only that player's own row.

    The filters' date range applies to the deals' end; the log is reached through its
    primary key (deal_id, seq), so only the selected deals' actions are read.
    """
    selected = select(deals.c.deal_id).where(*filters.on_deals(deals)).scalar_subquery()
    per_seat = (
        select(
            deal_actions.c.deal_id,
            deal_actions.c.seat,
            func.sum(
                cast(case((deal_actions.c.bot_reason == "timeout", 1), else_=0), Integer)
            ).label("timed_out"),
            func.sum(
                cast(case((deal_actions.c.bot_reason == "disconnected", 1), else_=0), Integer)
            ).label("disconnected"),
        )
        .where(
            deal_actions.c.deal_id.in_(selected),
            deal_actions.c.by_bot.is_(True),
            deal_actions.c.bot_reason.in_(("timeout", "disconnected")),
        )
        .group_by(deal_actions.c.deal_id, deal_actions.c.seat)
        .subquery()
    )
    query = (
        select(
            deal_players.c.player_name,
            func.sum(per_seat.c.timed_out),
            func.sum(per_seat.c.disconnected),
        )
        .join(
            per_seat,
            (per_seat.c.deal_id == deal_players.c.deal_id)
            & (per_seat.c.seat == deal_players.c.seat),
        )
        .where(
            deal_players.c.is_bot.is_(False),
            *([deal_players.c.player_name == filters.player] if filters.player else []),
        )
        .group_by(deal_players.c.player_name)
        .order_by(func.sum(per_seat.c.timed_out).desc(), deal_players.c.player_name)
        .limit(100)
    )
    return [
        {"name": name, "timed_out": int(timed_out or 0), "disconnected": int(away or 0)}
        for name, timed_out, away in await conn.execute(query)
    ]


async def recent_deal_limit_endings(
    conn: AsyncConnection, filters: DealFilters
) -> list[dict[str, Any]]:
    """The latest selected deals that ended at the deal time limit, newest first."""
    recent = await conn.execute(
        select(deals.c.deal_id, deals.c.room_id, deals.c.variant, deals.c.ended_at)
        .where(*filters.on_deals(deals), deals.c.outcome == "timeout")
        .order_by(deals.c.ended_at.desc(), deals.c.deal_id.desc())
        .limit(RECENT_LIMITED)
    )
    return [
        {
            "deal_id": row.deal_id,
            "room_id": row.room_id,
            "variant": row.variant,
            "ended_at": row.ended_at.isoformat(),
        }
        for row in recent
    ]


async def deal_limit_endings(conn: AsyncConnection, filters: DealFilters) -> dict[str, Any]:
    """How many selected deals ended at the deal time limit, and the latest of them."""
    terms = [*filters.on_deals(deals), deals.c.outcome == "timeout"]
    count = await conn.scalar(select(func.count()).select_from(deals).where(*terms))
    return {"count": int(count or 0), "recent": await recent_deal_limit_endings(conn, filters)}
