"""Reads for settling up a night: the points each player won or lost, summed over every
finished deal of the rooms a client holds a seat in, between two times."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.schema import deal_players, room_players


async def night_points(
    conn: AsyncConnection, token_hashes: list[str], since: datetime, until: datetime
) -> tuple[list[str], dict[str, int]]:
    """(room ids, points by player name) over the deals that ended in [since, until] in
    the rooms where one of `token_hashes` holds a seat.

    Every deal's nets sum to zero, so the balances do too (bots included: they are
    seated players like any other, and leaving them out would unbalance the night).
    """
    if not token_hashes:
        return [], {}
    seated = select(room_players.c.room_id).where(room_players.c.token_hash.in_(token_hashes))
    rooms = sorted({row.room_id for row in await conn.execute(seated.distinct())})
    if not rooms:
        return [], {}
    totals = await conn.execute(
        select(deal_players.c.player_name, func.sum(deal_players.c.net_points))
        .where(deal_players.c.room_id.in_(rooms))
        .where(deal_players.c.ended_at >= since, deal_players.c.ended_at <= until)
        .group_by(deal_players.c.player_name)
        .order_by(deal_players.c.player_name)
    )
    return rooms, {str(name): int(points) for name, points in totals.all()}
