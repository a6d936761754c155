"""The readiness check's heartbeat row: `/readyz` rewrites it, so it proves a real write.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "store_heartbeat",
        sa.Column("beat_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beats", sa.BigInteger(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("beat_id", name=op.f("pk_store_heartbeat")),
    )


def downgrade() -> None:
    op.drop_table("store_heartbeat")
