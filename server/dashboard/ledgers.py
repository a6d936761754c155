"""Real-table nights on the dashboard: the ledgers listed beside the online games, and
their figures in the standings when the host chose so (docs/ledger.md, "The dashboard").

| route | answer |
|---|---|
| ``GET /api/dashboard/ledgers`` | the ledgers, newest first: table, players, hands, scores |

A ledger's figures are the ones its last change wrote (``ledger_figures``, one row per
hand and player). They join the standings (`join_standings`) only for ledgers whose host
turned ``in_standings`` on; the same filters apply to them as to deals: the table, the
player, the outcome (win or draw) and the dates of the hands. A room filter names an
online table, so it leaves the ledgers out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from fastapi import APIRouter, Depends, Request
from sqlalchemy import Integer, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.api.query_values import whole_number
from server.dashboard import summaries
from server.dashboard.access import require_admin, sees_every_table
from server.dashboard.filters import DealFilters
from server.dashboard.standings import standings as exact_standings
from server.store.ledger_schema import ledger_figures, ledgers
from server.store.schema import deal_players, deals, player_totals

api = APIRouter(prefix="/api/dashboard", dependencies=[Depends(require_admin)])


def _millis(moment: Any) -> int:
    return int(moment.timestamp() * 1000)


@api.get("/ledgers")
async def list_ledgers(
    request: Request,
    filters: DealFilters = Depends(DealFilters.from_query),  # noqa: B008 - FastAPI's way
    limit: str = "50",
) -> dict[str, Any]:
    """The ledgers, newest first, marked as real-table nights, with each one's scores."""
    size = whole_number(limit, "limit", 1, 200)
    if not sees_every_table(request):
        # Every ledger is private, reached by its invite; without the admin token the
        # dashboard shows public tables alone (docs/operations.md, "Access").
        return {"ledgers": []}
    terms = [] if filters.variant is None else [ledgers.c.variant == filters.variant]
    if filters.since is not None:
        terms.append(ledgers.c.updated_at >= filters.since)
    if filters.until is not None:
        terms.append(ledgers.c.created_at < filters.until)
    async with request.app.state.store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(ledgers).where(*terms).order_by(ledgers.c.created_at.desc()).limit(size)
            )
        ).all()
        scores = await _scores(conn, [row.ledger_id for row in rows])
    nights = []
    for row in rows:
        players = list(row.players)
        if filters.player is not None and filters.player not in players:
            continue
        points, hands = scores.get(row.ledger_id, ({}, 0))
        nights.append(
            {
                "ledger_id": row.ledger_id,
                "real_table": True,
                "name": row.name,
                "variant": row.variant,
                "players": players,
                "hands": hands,
                "scores": {name: points.get(name, 0) for name in players},
                "in_standings": bool(row.in_standings),
                "created_at": _millis(row.created_at),
                "updated_at": _millis(row.updated_at),
            }
        )
    return {"ledgers": nights}


async def _scores(
    conn: AsyncConnection, ledger_ids: list[str]
) -> dict[str, tuple[dict[str, int], int]]:
    """(points by player, hands) of each ledger, from its figures."""
    if not ledger_ids:
        return {}
    found: dict[str, tuple[dict[str, int], int]] = {}
    rows = await conn.execute(
        select(
            ledger_figures.c.ledger_id,
            ledger_figures.c.player_name,
            func.sum(ledger_figures.c.net_points),
            func.count(),
        )
        .where(ledger_figures.c.ledger_id.in_(ledger_ids))
        .group_by(ledger_figures.c.ledger_id, ledger_figures.c.player_name)
    )
    for ledger_id, name, points, hands in rows:
        scores, most = found.get(ledger_id, ({}, 0))
        scores[name] = int(points)
        found[ledger_id] = (scores, max(most, int(hands)))
    return found


@dataclass
class _Figures:
    """A player's standings figures, summed."""

    deals: int = 0
    points: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    rooms: int = 0
    fan_sum: int = 0
    fan_count: int = 0


def _count_true(column: Any) -> Any:
    return func.sum(cast(case((column, 1), else_=0), Integer))


async def _ledger_figures(conn: AsyncConnection, filters: DealFilters) -> dict[str, _Figures]:
    """The figures of the ledgers that joined the standings, per player."""
    if filters.room_id is not None:
        return {}
    rows = await conn.execute(
        select(
            ledger_figures.c.player_name,
            func.count(),
            func.coalesce(func.sum(ledger_figures.c.net_points), 0),
            _count_true(ledger_figures.c.won),
            _count_true(ledger_figures.c.self_drawn),
            _count_true(ledger_figures.c.dealt_in),
            func.count(func.distinct(ledger_figures.c.ledger_id)),
            func.coalesce(func.sum(ledger_figures.c.fan), 0),
            func.count(ledger_figures.c.fan),
        )
        .join(ledgers, ledgers.c.ledger_id == ledger_figures.c.ledger_id)
        .where(ledgers.c.in_standings.is_(True), *filters.terms_on(ledger_figures))
        .group_by(ledger_figures.c.player_name)
    )
    return {row[0]: _Figures(*(int(value or 0) for value in row[1:])) for row in rows}


async def _online_fans(
    conn: AsyncConnection, filters: DealFilters, names: list[str]
) -> dict[str, tuple[int, int]]:
    """(sum of winning fan, wins counted) per listed human, over the online deals."""
    if summaries.answered_by_summaries(filters):
        query = (
            select(
                player_totals.c.player_name,
                func.sum(player_totals.c.fan_sum),
                func.sum(player_totals.c.fan_count),
            )
            .where(*filters.terms_on(player_totals), player_totals.c.is_bot.is_(False))
            .where(player_totals.c.player_name.in_(names))
            .group_by(player_totals.c.player_name)
        )
    else:
        query = (
            select(deal_players.c.player_name, func.sum(deals.c.fan), func.count(deals.c.fan))
            .join(deals, deals.c.deal_id == deal_players.c.deal_id)
            .where(*filters.on_deal_players(), deal_players.c.is_bot.is_(False))
            .where(deal_players.c.won.is_(True), deal_players.c.player_name.in_(names))
            .group_by(deal_players.c.player_name)
        )
    return {
        name: (int(total or 0), int(count or 0)) for name, total, count in await conn.execute(query)
    }


async def _online_row(
    conn: AsyncConnection, filters: DealFilters, name: str
) -> dict[str, Any] | None:
    """One human's online standings row, as the standings answer it."""
    alone = replace(filters, player=name)
    if summaries.answered_by_summaries(alone):
        answer = await summaries.standings(conn, alone, False, 1)
    else:
        answer = await exact_standings(conn, alone, False, 1)
    rows = [row for row in answer["players"] if row["name"] == name and not row["is_bot"]]
    return rows[0] if rows else None


async def join_standings(
    conn: AsyncConnection, filters: DealFilters, limit: int, answer: dict[str, Any]
) -> dict[str, Any]:
    """The standings with the figures of the ledgers that joined them added in.

    A real-table night counts as a room; each of its hands as a deal.
    """
    joined = await _ledger_figures(conn, filters)
    if not joined:
        return answer
    rows = {row["name"]: dict(row) for row in answer["players"] if not row["is_bot"]}
    for name in joined:
        if name not in rows:
            online = await _online_row(conn, filters, name)
            rows[name] = online or {
                "name": name, "is_bot": False, "deals": 0, "points": 0, "wins": 0,
                "self_draws": 0, "dealt_in": 0, "rooms": 0, "average_winning_fan": None,
            }  # fmt: skip
    fans = await _online_fans(conn, filters, sorted(joined))
    for name, figures in joined.items():
        row = rows[name]
        for field in ("deals", "points", "wins", "self_draws", "dealt_in", "rooms"):
            row[field] += getattr(figures, field)
        online_sum, online_count = fans.get(name, (0, 0))
        count = online_count + figures.fan_count
        total = online_sum + figures.fan_sum
        row["average_winning_fan"] = round(total / count, 2) if count else None
    players = [*rows.values(), *(row for row in answer["players"] if row["is_bot"])]
    players.sort(key=lambda row: (-row["points"], row["name"]))
    ledger_count = await conn.scalar(
        select(func.count(func.distinct(ledger_figures.c.ledger_id)))
        .join(ledgers, ledgers.c.ledger_id == ledger_figures.c.ledger_id)
        .where(ledgers.c.in_standings.is_(True), *filters.terms_on(ledger_figures))
    )
    return {**answer, "players": players[:limit], "ledgers_joined": int(ledger_count or 0)}
