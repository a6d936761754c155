"""Standings, charts and bot cover read from the store's summary tables.

``player_totals`` and ``chart_counts`` hold all-time sums per variant, maintained by
``finish_deal`` in the deal's own transaction (``server/store/summaries.py``). They answer
the dashboard's default views (no filter, a variant, a player) in a few milliseconds from the first call after a start. Any other
filter (room, dates, outcome) goes to the exact SQL over the stored deals instead;
``answered_by_summaries`` decides. Tests check both give the same answers.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.charts import DURATION_BUCKETS, TOP_PATTERNS
from server.dashboard.filters import OUTCOMES, DealFilters
from server.engine.deal_result import DealOutcome
from server.store.figures import EVERY_DEAL
from server.store.schema import chart_counts, player_totals

# The filters the summaries keep apart; any other (room, dates, outcome, and any filter
# added later) is answered by the exact SQL.
KEPT_APART = frozenset({"variant", "player"})


def answered_by_summaries(filters: DealFilters) -> bool:
    """Whether the per-variant summaries answer these filters exactly."""
    return filters.chosen() <= KEPT_APART


def _player_terms(filters: DealFilters) -> list[Any]:
    return list(filters.terms_on(player_totals))


async def standings(
    conn: AsyncConnection, filters: DealFilters, include_bots: bool, limit: int
) -> dict[str, Any]:
    """The same answer as ``standings.standings``, from the player totals."""
    terms = _player_terms(filters)
    if not include_bots:
        terms.append(player_totals.c.is_bot.is_(False))
    columns = ("deals", "points", "wins", "self_draws", "dealt_in", "rooms", "fan_sum")
    query = (
        select(
            player_totals.c.player_name,
            player_totals.c.is_bot,
            func.sum(player_totals.c.fan_count).label("fan_count"),
            *(func.sum(player_totals.c[name]).label(name) for name in columns),
        )
        .where(*terms)
        .group_by(player_totals.c.player_name, player_totals.c.is_bot)
        .having(func.sum(player_totals.c.deals) > 0)
        .order_by(func.sum(player_totals.c.points).desc(), player_totals.c.player_name)
        .limit(limit)
    )
    return {
        "players": [
            {
                "name": row.player_name,
                "is_bot": bool(row.is_bot),
                "deals": int(row.deals),
                "points": int(row.points),
                "wins": int(row.wins),
                "self_draws": int(row.self_draws),
                "dealt_in": int(row.dealt_in),
                "rooms": int(row.rooms),
                "average_winning_fan": (
                    round(int(row.fan_sum) / int(row.fan_count), 2) if row.fan_count else None
                ),
            }
            for row in await conn.execute(query)
        ]
    }


async def bot_cover(conn: AsyncConnection, filters: DealFilters) -> list[dict[str, Any]]:
    """The same answer as ``operations.bot_cover``, from the player totals."""
    timed_out = func.sum(player_totals.c.timed_out)
    away = func.sum(player_totals.c.disconnected)
    query = (
        select(player_totals.c.player_name, timed_out, away)
        .where(*_player_terms(filters), player_totals.c.is_bot.is_(False))
        .group_by(player_totals.c.player_name)
        .having(timed_out + away > 0)
        .order_by(timed_out.desc(), player_totals.c.player_name)
        .limit(100)
    )
    return [
        {"name": name, "timed_out": int(timed), "disconnected": int(gone)}
        for name, timed, gone in await conn.execute(query)
    ]


async def _counts(conn: AsyncConnection, filters: DealFilters) -> dict[tuple[str, str], int]:
    """(figure, label) -> deals, summed over the selected variants."""
    terms = filters.terms_on(chart_counts)
    if filters.player is None:
        terms.append(chart_counts.c.player_name == EVERY_DEAL)
    rows = await conn.execute(
        select(chart_counts.c.figure, chart_counts.c.label, func.sum(chart_counts.c.deals))
        .where(*terms)
        .group_by(chart_counts.c.figure, chart_counts.c.label)
    )
    return {(figure, label): int(count) for figure, label, count in rows if count}


async def charts(conn: AsyncConnection, filters: DealFilters) -> dict[str, Any]:
    """The same answer as ``charts.charts``, from the chart counts."""
    counts = await _counts(conn, filters)
    fans = sorted((int(label), n) for (figure, label), n in counts.items() if figure == "fan")
    patterns = sorted(
        ((label, n) for (figure, label), n in counts.items() if figure == "pattern"),
        key=lambda item: (-item[1], item[0]),
    )
    return {
        "outcomes": {outcome: counts.get(("outcome", outcome), 0) for outcome in OUTCOMES},
        "winning_fan": [{"fan": fan, "count": n} for fan, n in fans],
        "patterns": [{"id": label, "count": n} for label, n in patterns[:TOP_PATTERNS]],
        "durations": [
            {
                "label": label,
                "from": lower,
                "to": upper,
                "count": counts.get(("duration", str(index)), 0),
            }
            for index, (label, lower, upper) in enumerate(DURATION_BUCKETS)
        ],
    }


async def timeout_count(conn: AsyncConnection, filters: DealFilters) -> int:
    """How many selected deals ended at the deal time limit."""
    counts = await _counts(conn, filters)
    return counts.get(("outcome", DealOutcome.TIMEOUT), 0)
