"""Standings: each player's points, wins, self-draws, deals dealt into and average winning fan.

A player is a name: the same name in different rooms is taken to be the same person,
which is how friends on a home server use it. Bots are listed apart (``is_bot``) and left
out unless asked for, because "Bot 2" in one room is not "Bot 2" in another.

The average winning fan is the mean of ``deals.fan`` over the deals the player won.
``deals.fan`` is the deal's highest winning fan, so in the rare Hong Kong deal with several
winners on one discard, each winner is credited with the highest of their fans.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.filters import DealFilters
from server.store.schema import deal_players, deals

MAX_ROWS = 500


def _count_true(column: Any) -> Any:
    return func.sum(cast(case((column, 1), else_=0), Integer))


async def standings(
    conn: AsyncConnection, filters: DealFilters, include_bots: bool = False, limit: int = 100
) -> dict[str, Any]:
    """One row per player, best total points first."""
    limit = max(1, min(limit, MAX_ROWS))
    terms = filters.on_deal_players()
    if not include_bots:
        terms.append(deal_players.c.is_bot.is_(False))
    totals = (
        select(
            deal_players.c.player_name.label("name"),
            deal_players.c.is_bot,
            func.count().label("deals"),
            func.coalesce(func.sum(deal_players.c.net_points), 0).label("points"),
            _count_true(deal_players.c.won).label("wins"),
            _count_true(deal_players.c.self_drawn).label("self_draws"),
            _count_true(deal_players.c.dealt_in).label("dealt_in"),
            func.count(func.distinct(deal_players.c.room_id)).label("rooms"),
        )
        .where(*terms)
        .group_by(deal_players.c.player_name, deal_players.c.is_bot)
        .order_by(func.sum(deal_players.c.net_points).desc(), deal_players.c.player_name)
        .limit(limit)
    )
    rows = (await conn.execute(totals)).all()
    fans = await _winning_fans(conn, terms, [row.name for row in rows])
    players = []
    for row in rows:
        fan_total, fan_count = fans.get((row.name, row.is_bot), (0, 0))
        players.append(
            {
                "name": row.name,
                "is_bot": bool(row.is_bot),
                "deals": int(row.deals),
                "points": int(row.points),
                "wins": int(row.wins or 0),
                "self_draws": int(row.self_draws or 0),
                "dealt_in": int(row.dealt_in or 0),
                "rooms": int(row.rooms),
                "average_winning_fan": round(fan_total / fan_count, 2) if fan_count else None,
            }
        )
    return {"players": players}


async def _winning_fans(
    conn: AsyncConnection, terms: list[Any], names: list[str]
) -> dict[tuple[str, bool], tuple[int, int]]:
    """(sum of fan, number of wins) per listed player, over the deals they won."""
    if not names:
        return {}
    query = (
        select(
            deal_players.c.player_name,
            deal_players.c.is_bot,
            func.coalesce(func.sum(deals.c.fan), 0),
            func.count(deals.c.fan),
        )
        .join(deals, deals.c.deal_id == deal_players.c.deal_id)
        .where(*terms, deal_players.c.won.is_(True), deal_players.c.player_name.in_(names))
        .group_by(deal_players.c.player_name, deal_players.c.is_bot)
    )
    return {
        (name, bool(is_bot)): (int(total), int(count))
        for name, is_bot, total, count in await conn.execute(query)
    }
