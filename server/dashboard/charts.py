"""The four charts' figures: winning fan, outcomes, most frequent patterns, deal durations.

Everything is counted in the database and only the counts come back, so the page stays
fast with a long history. Two figures need functions that differ between SQLite and
Postgres (unnesting the ``patterns`` JSON, subtracting timestamps); each has one small
function per dialect here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, case, cast, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.filters import OUTCOMES, DealFilters
from server.engine.deal_result import DealOutcome
from server.store.figures import DURATION_UPPER_BOUNDS
from server.store.schema import deals

TOP_PATTERNS = 12


def _duration_label(lower: float, upper: float | None) -> str:
    if upper is None:
        return f"{lower / 60:g} min +"
    return f"< {upper / 60:g} min" if lower == 0 else f"{lower / 60:g}-{upper / 60:g} min"


# Deal durations in seconds: (label, from, to), from the bounds the store's summaries
# count by (server/store/figures.py). The deal limit is 300 s by default, so the last
# buckets show how often tables run out of time.
DURATION_BUCKETS: tuple[tuple[str, float, float | None], ...] = tuple(
    (_duration_label(lower, upper), lower, upper)
    for lower, upper in zip(
        (0, *DURATION_UPPER_BOUNDS), (*DURATION_UPPER_BOUNDS, None), strict=True
    )
)


def seconds_between(conn: AsyncConnection, start: Any, end: Any) -> Any:
    """SQL for ``end - start`` in seconds, in this connection's dialect."""
    if conn.dialect.name == "postgresql":
        return func.extract("epoch", end - start)
    # julianday is a float of days: rounding to the millisecond keeps 180 s from reading
    # as 179.99999 and landing in the wrong bucket.
    return func.round((func.julianday(end) - func.julianday(start)) * 86400.0, 3)


def _pattern_ids(conn: AsyncConnection) -> tuple[Any, Any]:
    """(table-valued unnest of ``deals.patterns``, the pattern id column) for this dialect."""
    if conn.dialect.name == "postgresql":
        element = func.json_array_elements(deals.c.patterns).table_valued("value").alias("p")
        return element, element.c.value.op("->>")(literal_column("'id'"))
    element = func.json_each(deals.c.patterns).table_valued("value").alias("p")
    return element, func.json_extract(element.c.value, "$.id")


async def charts(conn: AsyncConnection, filters: DealFilters) -> dict[str, Any]:
    """All four charts for the deals the filters select."""
    terms = filters.on_deals(deals)
    outcome_counts = {outcome: 0 for outcome in OUTCOMES}
    for outcome, count in await conn.execute(
        select(deals.c.outcome, func.count()).where(*terms).group_by(deals.c.outcome)
    ):
        outcome_counts[str(outcome)] = int(count)

    fan_rows = await conn.execute(
        select(deals.c.fan, func.count())
        .where(*terms, deals.c.outcome == DealOutcome.WIN, deals.c.fan.is_not(None))
        .group_by(deals.c.fan)
        .order_by(deals.c.fan)
    )
    winning_fan = [{"fan": int(fan), "count": int(count)} for fan, count in fan_rows]

    element, pattern_id = _pattern_ids(conn)
    pattern_rows = await conn.execute(
        select(pattern_id.label("pattern"), func.count().label("count"))
        .select_from(deals)
        .join(element, literal_column("true"))
        .where(*terms, deals.c.outcome == DealOutcome.WIN)
        .group_by(pattern_id)
        .order_by(func.count().desc(), pattern_id)
        .limit(TOP_PATTERNS)
    )
    patterns = [{"id": str(pattern), "count": int(count)} for pattern, count in pattern_rows]

    seconds = cast(seconds_between(conn, deals.c.started_at, deals.c.ended_at), Float)
    bucket = case(
        *[
            (seconds < upper, index)
            for index, (_, _, upper) in enumerate(DURATION_BUCKETS)
            if upper is not None
        ],
        else_=len(DURATION_BUCKETS) - 1,
    )
    counts_by_bucket = {
        int(index): int(count)
        for index, count in await conn.execute(
            select(bucket.label("bucket"), func.count()).where(*terms).group_by(bucket)
        )
    }
    durations = [
        {"label": label, "from": lower, "to": upper, "count": counts_by_bucket.get(index, 0)}
        for index, (label, lower, upper) in enumerate(DURATION_BUCKETS)
    ]
    return {
        "outcomes": outcome_counts,
        "winning_fan": winning_fan,
        "patterns": patterns,
        "durations": durations,
    }
