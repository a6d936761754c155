"""Dashboard summaries: bot cover per deal_players row, all-time player totals and chart
counts per variant, filled from the rows already stored; an index for a player's latest
deals.

From here on `finish_deal` keeps them up to date in its own transaction. The backfill
below reads the stored deals and their players' rows and adds them up with the same
definitions `finish_deal` uses (`server/store/figures.py`, plain values in and counts out),
so the result is exactly what `finish_deal` would have written deal by deal (a test
compares both). The rows are read with this revision's own column lists, so later schema
changes leave the migration as it is; only the bot cover (a per-row UPDATE) stays in SQL.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.engine import Connection

from server.store.figures import (
    COVER_REASONS,
    DISCONNECTED,
    TIMED_OUT,
    FinishedDeal,
    SeatLine,
    Summaries,
)

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The counters of `player_totals` at this revision. The figures module may define more
# later; a later migration adds and fills those, so this one writes only its own.
PLAYER_COUNTERS = (
    "deals",
    "points",
    "wins",
    "self_draws",
    "dealt_in",
    "rooms",
    "fan_sum",
    "fan_count",
    "timed_out",
    "disconnected",
)
PLAYER_COLUMNS = ("player_name", "is_bot", "variant", *PLAYER_COUNTERS)
CHART_COLUMNS = ("variant", "player_name", "figure", "label", "deals")

# Rows are read and written in batches of this many, so a long history is never held
# in memory at once (only the totals are, and they are per player and per label).
BATCH = 5000


def upgrade() -> None:
    with op.batch_alter_table("deal_players") as batch:
        batch.add_column(sa.Column("timed_out", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(
            sa.Column("disconnected", sa.Integer(), server_default="0", nullable=False)
        )
    op.create_table(
        "player_totals",
        sa.Column("player_name", sa.String(length=100), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        *(
            sa.Column(counter, sa.Integer(), server_default="0", nullable=False)
            for counter in PLAYER_COUNTERS
        ),
        sa.PrimaryKeyConstraint("player_name", "is_bot", "variant", name=op.f("pk_player_totals")),
    )
    op.create_table(
        "chart_counts",
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("player_name", sa.String(length=100), nullable=False),
        sa.Column("figure", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("deals", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint(
            "variant", "player_name", "figure", "label", name=op.f("pk_chart_counts")
        ),
    )
    op.create_index(
        op.f("ix_deal_players_player_name_ended_at"), "deal_players", ["player_name", "ended_at"]
    )
    backfill(op.get_bind().dialect.name)


def backfill(dialect: str) -> None:
    """Sum the stored history into the new columns and tables."""
    if op.get_context().as_sql:
        # The figures are added up in Python over the stored rows, which a script of SQL
        # written ahead (`alembic upgrade --sql`) cannot read.
        raise RuntimeError("revision 0002 fills its summaries from the rows: run it online")
    op.execute(
        sa.text(
            """
            UPDATE deal_players SET timed_out = cover.timed_out, disconnected = cover.away
            FROM (
                SELECT deal_id, seat,
                       SUM(CASE WHEN bot_reason = :timed_out THEN 1 ELSE 0 END) AS timed_out,
                       SUM(CASE WHEN bot_reason = :away THEN 1 ELSE 0 END) AS away
                FROM deal_actions
                WHERE by_bot = TRUE AND bot_reason IN :reasons
                GROUP BY deal_id, seat
            ) AS cover
            WHERE deal_players.deal_id = cover.deal_id AND deal_players.seat = cover.seat
            """
        )
        .bindparams(sa.bindparam("reasons", expanding=True))
        .bindparams(timed_out=TIMED_OUT, away=DISCONNECTED, reasons=list(COVER_REASONS))
    )
    summaries = Summaries.empty()
    for deal in finished_deals(op.get_bind()):
        summaries.add(deal)
    for name, columns, rows in (
        ("player_totals", PLAYER_COLUMNS, summaries.player_rows()),
        ("chart_counts", CHART_COLUMNS, summaries.chart_rows()),
    ):
        table = sa.table(name, *(sa.column(column) for column in columns))
        kept = [{column: row[column] for column in columns} for row in rows]
        for start in range(0, len(kept), BATCH):
            op.get_bind().execute(table.insert(), kept[start : start + BATCH])
    if dialect == "postgresql":
        # Every deal_players row was rewritten: fresh statistics keep the planner on the
        # indexes from the first query after the upgrade.
        op.execute("ANALYZE deal_players")


# The columns as they stand at this revision.
_deals = sa.table(
    "deals",
    sa.column("deal_id", sa.Integer),
    sa.column("variant", sa.String),
    sa.column("room_id", sa.String),
    sa.column("outcome", sa.String),
    sa.column("fan", sa.Integer),
    sa.column("patterns", sa.JSON),
    sa.column("started_at", sa.DateTime(timezone=True)),
    sa.column("ended_at", sa.DateTime(timezone=True)),
)
_deal_players = sa.table(
    "deal_players",
    *(
        sa.column(name, kind)
        for name, kind in (
            ("deal_id", sa.Integer),
            ("seat", sa.String),
            ("player_name", sa.String),
            ("is_bot", sa.Boolean),
            ("net_points", sa.Integer),
            ("won", sa.Boolean),
            ("self_drawn", sa.Boolean),
            ("dealt_in", sa.Boolean),
            ("timed_out", sa.Integer),
            ("disconnected", sa.Integer),
        )
    ),
)


def finished_deals(conn: Connection) -> Iterator[FinishedDeal]:
    """Every finished deal with its seats, by deal id, a batch of deals at a time. (The
    order changes no total: sums, and a room counted at a player's first deal in it.)"""
    after = 0
    while True:
        batch = conn.execute(
            sa.select(_deals)
            .where(_deals.c.ended_at.is_not(None), _deals.c.deal_id > after)
            .order_by(_deals.c.deal_id)
            .limit(BATCH)
        ).all()
        if not batch:
            return
        seats: dict[int, list[SeatLine]] = {row.deal_id: [] for row in batch}
        for row in conn.execute(
            sa.select(_deal_players)
            .where(_deal_players.c.deal_id.in_(list(seats)))
            .order_by(_deal_players.c.deal_id, _deal_players.c.seat)
        ):
            seats[row.deal_id].append(
                SeatLine(
                    player_name=row.player_name,
                    is_bot=bool(row.is_bot),
                    net_points=int(row.net_points),
                    won=bool(row.won),
                    self_drawn=bool(row.self_drawn),
                    dealt_in=bool(row.dealt_in),
                    timed_out=int(row.timed_out),
                    disconnected=int(row.disconnected),
                )
            )
        for row in batch:
            yield FinishedDeal(
                variant=row.variant,
                room_id=row.room_id,
                outcome=row.outcome,
                fan=row.fan,
                pattern_ids=tuple(str(p.get("id")) for p in row.patterns or []),
                seconds=(row.ended_at - row.started_at).total_seconds(),
                seats=tuple(seats[row.deal_id]),
            )
        after = batch[-1].deal_id


def downgrade() -> None:
    op.drop_index(op.f("ix_deal_players_player_name_ended_at"), table_name="deal_players")
    op.drop_table("chart_counts")
    op.drop_table("player_totals")
    with op.batch_alter_table("deal_players") as batch:
        batch.drop_column("disconnected")
        batch.drop_column("timed_out")
