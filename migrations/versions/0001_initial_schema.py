"""Initial schema: rooms, players, deals, the action log, per-player deal rows.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", UTC_TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_rooms")),
    )
    op.create_index(op.f("ix_rooms_created_at"), "rooms", ["created_at"])
    op.create_index(op.f("ix_rooms_status"), "rooms", ["status"])
    op.create_index(op.f("ix_rooms_variant"), "rooms", ["variant"])

    op.create_table(
        "room_players",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("player_index", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("joined_at", UTC_TIMESTAMP, nullable=False),
        sa.Column("score", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.room_id"],
            name=op.f("fk_room_players_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "player_index", name=op.f("pk_room_players")),
    )
    op.create_index(op.f("ix_room_players_name"), "room_players", ["name"])

    op.create_table(
        "deals",
        sa.Column("deal_id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("seat_players", sa.JSON(), nullable=False),
        sa.Column("started_at", UTC_TIMESTAMP, nullable=False),
        sa.Column("start_seconds_left", sa.Float(), nullable=True),
        sa.Column("ended_at", UTC_TIMESTAMP, nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("winners", sa.JSON(), nullable=True),
        sa.Column("fan", sa.Integer(), nullable=True),
        sa.Column("patterns", sa.JSON(), nullable=True),
        sa.Column("payments", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.room_id"], name=op.f("fk_deals_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("deal_id", name=op.f("pk_deals")),
        sa.UniqueConstraint(
            "room_id", "game_no", "deal_no", name=op.f("uq_deals_room_id_game_no_deal_no")
        ),
    )
    op.create_index(op.f("ix_deals_ended_at"), "deals", ["ended_at"])
    op.create_index(op.f("ix_deals_outcome"), "deals", ["outcome"])
    op.create_index(op.f("ix_deals_room_id"), "deals", ["room_id"])
    op.create_index(op.f("ix_deals_variant"), "deals", ["variant"])

    op.create_table(
        "deal_actions",
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=2), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", UTC_TIMESTAMP, nullable=False),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
        sa.Column("bot_reason", sa.String(length=32), nullable=True),
        sa.Column("deal_seconds_left", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["deal_id"],
            ["deals.deal_id"],
            name=op.f("fk_deal_actions_deal_id_deals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("deal_id", "seq", name=op.f("pk_deal_actions")),
    )

    op.create_table(
        "deal_players",
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("player_index", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("player_name", sa.String(length=100), nullable=False),
        sa.Column("seat", sa.String(length=2), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("ended_at", UTC_TIMESTAMP, nullable=False),
        sa.Column("net_points", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("self_drawn", sa.Boolean(), nullable=False),
        sa.Column("dealt_in", sa.Boolean(), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"],
            ["deals.deal_id"],
            name=op.f("fk_deal_players_deal_id_deals"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.room_id"],
            name=op.f("fk_deal_players_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("deal_id", "player_index", name=op.f("pk_deal_players")),
    )
    op.create_index(op.f("ix_deal_players_ended_at"), "deal_players", ["ended_at"])
    op.create_index(op.f("ix_deal_players_outcome"), "deal_players", ["outcome"])
    op.create_index(op.f("ix_deal_players_player_name"), "deal_players", ["player_name"])
    op.create_index(op.f("ix_deal_players_room_id"), "deal_players", ["room_id"])
    op.create_index(
        op.f("ix_deal_players_variant_ended_at"), "deal_players", ["variant", "ended_at"]
    )


def downgrade() -> None:
    op.drop_table("deal_players")
    op.drop_table("deal_actions")
    op.drop_table("deals")
    op.drop_table("room_players")
    op.drop_table("rooms")
