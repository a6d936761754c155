"""The dashboard's summaries, kept up to date inside `finish_deal`'s transaction.

`player_totals` sums each player's `deal_players` rows per variant; `chart_counts` counts
finished deals per variant by outcome, winning fan, pattern and duration bucket, over
every deal and over each player's deals. Adding one deal is a handful of upserts on small
tables, so the dashboard's default views read a few hundred rows instead of the whole
history, with nothing to warm up after a restart. What a deal adds is defined once, in
`server/store/figures.py`; migration 0002 adds up an existing history with the same
functions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Integer, Table, bindparam, case, cast, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from server.store.figures import (
    COVER_REASONS,
    DISCONNECTED,
    EVERY_DEAL,
    TIMED_OUT,
    FinishedDeal,
    SeatLine,
    Summaries,
)
from server.store.schema import chart_counts, deal_actions, deal_players, player_totals

PLAYER_KEY = ("player_name", "is_bot", "variant")
CHART_KEY = ("variant", "player_name", "figure", "label")
__all__ = ["EVERY_DEAL", "bot_cover_by_seat", "count_finished_deal"]


_reason = deal_actions.c.bot_reason
# Built once (a statement per deal costs CPU and leaves reference cycles behind).
_BOT_COVER = (
    select(
        deal_actions.c.seat,
        func.sum(cast(case((_reason == TIMED_OUT, 1), else_=0), Integer)),
        func.sum(cast(case((_reason == DISCONNECTED, 1), else_=0), Integer)),
    )
    .where(
        deal_actions.c.deal_id == bindparam("match_deal_id"),
        deal_actions.c.by_bot.is_(True),
        _reason.in_(COVER_REASONS),
    )
    .group_by(deal_actions.c.seat)
)
_PLAYERS_SEEN_IN_ROOM = (
    select(deal_players.c.player_name, deal_players.c.is_bot)
    .where(deal_players.c.room_id == bindparam("match_room_id"))
    .distinct()
)


def bot_cover_by_seat(conn: Connection, deal_id: int) -> dict[str, tuple[int, int]]:
    """(turns timed out, turns while away) a bot played per seat in one deal's log."""
    rows = conn.execute(_BOT_COVER, {"match_deal_id": deal_id})
    return {str(seat): (int(timed_out or 0), int(away or 0)) for seat, timed_out, away in rows}


# Built once per table and dialect: an upsert's `excluded` alias is a web of reference
# cycles, which at one construction per finished deal kept the collector busy.
_upserts: dict[tuple[str, str, tuple[str, ...]], Any] = {}


def _upsert(
    dialect_name: str, table: Table, key: tuple[str, ...], counters: tuple[str, ...]
) -> Any:
    cached = _upserts.get((dialect_name, table.name, counters))
    if cached is None:
        dialect = postgresql if dialect_name == "postgresql" else sqlite
        statement = dialect.insert(table)
        cached = statement.on_conflict_do_update(
            index_elements=list(key),
            set_={name: table.c[name] + statement.excluded[name] for name in counters},
        )
        _upserts[(dialect_name, table.name, counters)] = cached
    return cached


def _add_to(
    conn: Connection, table: Table, key: tuple[str, ...], rows: list[dict[str, Any]]
) -> None:
    """Insert each row, or add its counters to the row already under its key."""
    if not rows:
        return
    counters = tuple(name for name in rows[0] if name not in key)
    statement = _upsert(conn.dialect.name, table, key, counters)
    # Always in key order, so two deals finishing at once lock rows in the same order.
    conn.execute(statement, sorted(rows, key=lambda row: tuple(row[k] for k in key)))


def count_finished_deal(
    conn: Connection,
    *,
    variant: str,
    room_id: str,
    outcome: str,
    fan: int | None,
    patterns: list[dict[str, Any]],
    started_at: datetime,
    ended_at: datetime,
    player_rows: list[dict[str, Any]],
) -> None:
    """Add one finished deal to the summaries. ``player_rows`` are its ``deal_players``
    rows as about to be inserted (with their bot cover); call before inserting them, so
    a player's first deal in the room is recognised."""
    earlier = conn.execute(_PLAYERS_SEEN_IN_ROOM, {"match_room_id": room_id})
    summaries = Summaries.empty((room_id, name, bool(is_bot)) for name, is_bot in earlier)
    summaries.add(
        FinishedDeal(
            variant=variant,
            room_id=room_id,
            outcome=outcome,
            fan=fan,
            pattern_ids=tuple(str(pattern.get("id")) for pattern in patterns),
            seconds=(ended_at - started_at).total_seconds(),
            seats=tuple(
                SeatLine(
                    player_name=row["player_name"],
                    is_bot=bool(row["is_bot"]),
                    net_points=int(row["net_points"]),
                    won=bool(row["won"]),
                    self_drawn=bool(row["self_drawn"]),
                    dealt_in=bool(row["dealt_in"]),
                    timed_out=int(row["timed_out"]),
                    disconnected=int(row["disconnected"]),
                )
                for row in player_rows
            ),
        )
    )
    _add_to(conn, player_totals, PLAYER_KEY, summaries.player_rows())
    _add_to(conn, chart_counts, CHART_KEY, summaries.chart_rows())
