"""Ledgers: nights at a real table, their hands, their history and their figures.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _ledger_key(table: str) -> list[sa.SchemaItem]:
    return [
        sa.Column("ledger_id", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["ledger_id"],
            ["ledgers.ledger_id"],
            name=op.f(f"fk_{table}_ledger_id_ledgers"),
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "ledgers",
        sa.Column("ledger_id", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), server_default="", nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=True),
        sa.Column("round_wind", sa.String(length=2), server_default="E", nullable=False),
        sa.Column("point_value", sa.JSON(), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=False),
        sa.Column("host_hash", sa.String(length=64), nullable=False),
        sa.Column("in_standings", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("revision", sa.Integer(), server_default="0", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", name=op.f("pk_ledgers")),
    )
    op.create_index(op.f("ix_ledgers_variant"), "ledgers", ["variant"])
    op.create_index(op.f("ix_ledgers_created_at"), "ledgers", ["created_at"])
    op.create_table(
        "ledger_hands",
        *_ledger_key("ledger_hands"),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("entered_by", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("ledger_id", "hand_no", name=op.f("pk_ledger_hands")),
    )
    op.create_table(
        "ledger_changes",
        *_ledger_key("ledger_changes"),
        sa.Column("change_no", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=True),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("ledger_id", "change_no", name=op.f("pk_ledger_changes")),
    )
    op.create_table(
        "ledger_figures",
        *_ledger_key("ledger_figures"),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("player_index", sa.Integer(), nullable=False),
        sa.Column("player_name", sa.String(length=100), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("net_points", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("self_drawn", sa.Boolean(), nullable=False),
        sa.Column("dealt_in", sa.Boolean(), nullable=False),
        sa.Column("fan", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint(
            "ledger_id", "hand_no", "player_index", name=op.f("pk_ledger_figures")
        ),
    )
    op.create_index(op.f("ix_ledger_figures_player_name"), "ledger_figures", ["player_name"])
    op.create_index(op.f("ix_ledger_figures_ended_at"), "ledger_figures", ["ended_at"])
    op.create_index(
        op.f("ix_ledger_figures_variant_ended_at"), "ledger_figures", ["variant", "ended_at"]
    )


def downgrade() -> None:
    op.drop_table("ledger_figures")
    op.drop_table("ledger_changes")
    op.drop_table("ledger_hands")
    op.drop_index(op.f("ix_ledgers_created_at"), table_name="ledgers")
    op.drop_index(op.f("ix_ledgers_variant"), table_name="ledgers")
    op.drop_table("ledgers")
