"""Private tables: a room's `public` flag, the hash of its invite secret, and its host.

Rooms opened before this revision had no secret and were listed to everyone, and their
links carry no secret: they become public tables (server_default true), with no invite
hash and no host until their first seated human is made host when the room reopens.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
        batch.add_column(sa.Column("invite_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("host_index", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_index")
        batch.drop_column("invite_hash")
        batch.drop_column("public")
