"""Dashboard summaries: bot cover per deal_players row, all-time player totals and chart
counts per variant, filled from the rows already stored; an index for a player's latest
deals.

From here on `finish_deal` keeps them up to date in its own transaction. The backfill
below is plain INSERT ... SELECT (and one UPDATE ... FROM), so an existing history is
summed by the database itself, and the result is exactly what `finish_deal` would have
written deal by deal (a test compares both).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

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

# Upper bounds of the deal-duration buckets in seconds (server/store/summaries.py).
DURATION_UPPER_BOUNDS = (60, 120, 180, 240, 300)


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
    op.execute(
        """
        UPDATE deal_players SET timed_out = cover.timed_out, disconnected = cover.away
        FROM (
            SELECT deal_id, seat,
                   SUM(CASE WHEN bot_reason = 'timeout' THEN 1 ELSE 0 END) AS timed_out,
                   SUM(CASE WHEN bot_reason = 'disconnected' THEN 1 ELSE 0 END) AS away
            FROM deal_actions
            WHERE by_bot = TRUE AND bot_reason IN ('timeout', 'disconnected')
            GROUP BY deal_id, seat
        ) AS cover
        WHERE deal_players.deal_id = cover.deal_id AND deal_players.seat = cover.seat
        """
    )
    op.execute(
        """
        INSERT INTO player_totals (player_name, is_bot, variant, deals, points, wins,
            self_draws, dealt_in, rooms, fan_sum, fan_count, timed_out, disconnected)
        SELECT p.player_name, p.is_bot, p.variant, COUNT(*), SUM(p.net_points),
               SUM(CASE WHEN p.won THEN 1 ELSE 0 END),
               SUM(CASE WHEN p.self_drawn THEN 1 ELSE 0 END),
               SUM(CASE WHEN p.dealt_in THEN 1 ELSE 0 END),
               COUNT(DISTINCT p.room_id),
               SUM(CASE WHEN p.won AND d.fan IS NOT NULL THEN d.fan ELSE 0 END),
               SUM(CASE WHEN p.won AND d.fan IS NOT NULL THEN 1 ELSE 0 END),
               SUM(p.timed_out), SUM(p.disconnected)
        FROM deal_players AS p JOIN deals AS d ON d.deal_id = p.deal_id
        GROUP BY p.player_name, p.is_bot, p.variant
        """
    )
    if dialect == "postgresql":
        pattern_source = "json_array_elements(d.patterns) AS p"
        pattern_id = "p.value ->> 'id'"
        seconds = "EXTRACT(EPOCH FROM d.ended_at - d.started_at)"
    else:
        pattern_source = "json_each(d.patterns) AS p"
        pattern_id = "json_extract(p.value, '$.id')"
        seconds = "ROUND((julianday(d.ended_at) - julianday(d.started_at)) * 86400.0, 3)"
    bucket = (
        "CASE "
        + " ".join(
            f"WHEN {seconds} < {upper} THEN '{index}'"
            for index, upper in enumerate(DURATION_UPPER_BOUNDS)
        )
        + f" ELSE '{len(DURATION_UPPER_BOUNDS)}' END"
    )
    # Every deal under the player "", and each deal again under every name seated in it.
    everyone = ("''", "", "deals AS d")
    each_player = (
        "s.player_name",
        ", s.player_name",
        "deals AS d JOIN (SELECT DISTINCT deal_id, player_name FROM deal_players) AS s"
        " ON s.deal_id = d.deal_id",
    )
    figures = (
        ("'outcome'", "d.outcome", "", ""),
        ("'fan'", "CAST(d.fan AS VARCHAR(64))", "", "AND d.outcome = 'win' AND d.fan IS NOT NULL"),
        ("'pattern'", pattern_id, f", {pattern_source}", "AND d.outcome = 'win'"),
        ("'duration'", bucket, "", ""),
    )
    for who, grouped_by_who, deals_source in (everyone, each_player):
        for figure, label, extra_source, condition in figures:
            op.execute(
                f"""
                INSERT INTO chart_counts (variant, player_name, figure, label, deals)
                SELECT d.variant, {who}, {figure}, {label}, COUNT(*)
                FROM {deals_source}{extra_source}
                WHERE d.ended_at IS NOT NULL {condition}
                GROUP BY d.variant{grouped_by_who}, {label}
                """
            )
    if dialect == "postgresql":
        # Every deal_players row was rewritten: fresh statistics keep the planner on the
        # indexes from the first query after the upgrade.
        op.execute("ANALYZE deal_players")


def downgrade() -> None:
    op.drop_index(op.f("ix_deal_players_player_name_ended_at"), table_name="deal_players")
    op.drop_table("chart_counts")
    op.drop_table("player_totals")
    with op.batch_alter_table("deal_players") as batch:
        batch.drop_column("disconnected")
        batch.drop_column("timed_out")
