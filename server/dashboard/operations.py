"""The operations view: live tables and connected players, bot cover per player, and deals
ended by the deal time limit.

Live figures come from the snapshots of the room manager in this process; the
history comes from the database. Bot cover is counted from the action log, whose
``bot_reason`` says why a bot moved for a seat: ``timeout`` (the turn timer ran out),
``disconnected`` (no live connection) or ``bot_seat`` (a seat that is a bot, not counted);
``finish_deal`` writes each player's counts onto their ``deal_players`` row.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.filters import DealFilters
from server.engine.deal_result import DealOutcome
from server.rooms.snapshot import RoomSnapshot, RoomStatus
from server.store.schema import deal_players, deals

RECENT_LIMITED = 20


def live_tables(snapshots: list[RoomSnapshot]) -> dict[str, Any]:
    """Open rooms of this process with their players' connection state, from the room
    manager's snapshots (none when the app runs without rooms, e.g. a dashboard-only test)."""
    rooms = [
        {
            "room_id": room.room_id,
            "name": room.name,
            "variant": room.variant,
            "status": room.status.value,
            "deal_no": room.deal_no,
            "deal_id": room.deal_id,
            "spectators": room.spectators,
            "players": [
                {
                    "name": player.name,
                    "seat": player.seat,
                    "is_bot": player.is_bot,
                    "connected": player.connected,
                    "bot_covered": player.bot_covered,
                }
                for player in room.players
            ],
        }
        for room in snapshots
        if room.status is not RoomStatus.CLOSED
    ]
    return {
        "rooms": rooms,
        "tables": sum(1 for room in snapshots if room.status is RoomStatus.PLAYING),
        "connected_players": sum(room.connected_players for room in snapshots),
        "spectators": sum(room.spectators for room in snapshots),
    }


async def bot_cover(conn: AsyncConnection, filters: DealFilters) -> list[dict[str, Any]]:
    """Per human player: turns their bot played because the timer ran out, or they were away.

    With a player filter, only that player's own row. Each ``deal_players`` row carries
    its deal's cover (counted from the log when the deal finished), so this reads the
    selected rows only, never the action log.
    """
    timed_out = func.sum(deal_players.c.timed_out)
    away = func.sum(deal_players.c.disconnected)
    query = (
        select(deal_players.c.player_name, timed_out, away)
        .where(*filters.on_deal_players(), deal_players.c.is_bot.is_(False))
        .group_by(deal_players.c.player_name)
        .having(timed_out + away > 0)
        .order_by(timed_out.desc(), deal_players.c.player_name)
        .limit(100)
    )
    return [
        {"name": name, "timed_out": int(timed or 0), "disconnected": int(gone or 0)}
        for name, timed, gone in await conn.execute(query)
    ]


async def recent_deal_limit_endings(
    conn: AsyncConnection, filters: DealFilters
) -> list[dict[str, Any]]:
    """The latest selected deals that ended at the deal time limit, newest first."""
    if filters.player is None:
        table, terms = deals, filters.on_deals(deals)
    else:
        # A player's deals straight from their deal_players rows (which repeat the deal's
        # room, variant, outcome and end): the planner turns the deals table's "exists a
        # row of this player" into a scan of the whole history.
        table, terms = deal_players, filters.on_deal_players()
    recent = await conn.execute(
        select(table.c.deal_id, table.c.room_id, table.c.variant, table.c.ended_at)
        .where(*terms, table.c.outcome == DealOutcome.TIMEOUT)
        .distinct()
        .order_by(table.c.ended_at.desc(), table.c.deal_id.desc())
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
    terms = [*filters.on_deals(deals), deals.c.outcome == DealOutcome.TIMEOUT]
    count = await conn.scalar(select(func.count()).select_from(deals).where(*terms))
    return {"count": int(count or 0), "recent": await recent_deal_limit_endings(conn, filters)}
