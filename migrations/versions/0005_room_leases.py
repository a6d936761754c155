"""Room leases: one owner process per open room, so several servers share one Postgres.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wanted_by", sa.String(length=100), nullable=True),
        sa.Column("live", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.room_id"],
            name=op.f("fk_room_leases_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_room_leases")),
    )
    op.create_index(op.f("ix_room_leases_owner"), "room_leases", ["owner"])


def downgrade() -> None:
    op.drop_index(op.f("ix_room_leases_owner"), table_name="room_leases")
    op.drop_table("room_leases")
