"""Host events as rows: one per event, appended once, instead of the room's whole table
log rewritten for each (issue 25). The events rooms already keep in
`rooms.settings["table_log"]["host_events"]` move into the rows, numbered from 0 in
their order; a downgrade puts them back.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The columns this migration reads and writes, as they stand at this revision (not
# today's models, which may move on).
_rooms = sa.table("rooms", sa.column("room_id", sa.String), sa.column("settings", sa.JSON))
_host_events = sa.table(
    "host_events",
    sa.column("room_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("at", sa.DateTime(timezone=True)),
    sa.column("by_player", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("event", sa.JSON),
)


def upgrade() -> None:
    op.create_table(
        "host_events",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_player", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.room_id"],
            name=op.f("fk_host_events_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_id", "seq", name=op.f("pk_host_events")),
    )
    connection = op.get_bind()
    for room_id, settings in connection.execute(sa.select(_rooms.c.room_id, _rooms.c.settings)):
        table_log = (settings or {}).get("table_log")
        if not isinstance(table_log, dict) or "host_events" not in table_log:
            continue
        events = [event for event in table_log["host_events"] if isinstance(event, dict)]
        if events:
            connection.execute(
                _host_events.insert(),
                [_row(room_id, seq, event) for seq, event in enumerate(events)],
            )
        kept = {key: value for key, value in table_log.items() if key != "host_events"}
        connection.execute(
            _rooms.update()
            .where(_rooms.c.room_id == room_id)
            .values(settings={**settings, "table_log": kept})
        )


def downgrade() -> None:
    connection = op.get_bind()
    events: dict[str, list[Any]] = {}
    for room_id, event in connection.execute(
        sa.select(_host_events.c.room_id, _host_events.c.event).order_by(
            _host_events.c.room_id, _host_events.c.seq
        )
    ):
        events.setdefault(room_id, []).append(event)
    for room_id, kept in events.items():
        settings = connection.execute(
            sa.select(_rooms.c.settings).where(_rooms.c.room_id == room_id)
        ).scalar_one()
        table_log = dict((settings or {}).get("table_log") or {})
        table_log["host_events"] = kept
        connection.execute(
            _rooms.update()
            .where(_rooms.c.room_id == room_id)
            .values(settings={**(settings or {}), "table_log": table_log})
        )
    op.drop_table("host_events")


def _row(room_id: str, seq: int, event: dict[str, Any]) -> dict[str, Any]:
    at = event.get("at")
    moment = datetime.fromtimestamp(at / 1000, UTC) if isinstance(at, int | float) else None
    by = event.get("by")
    return {
        "room_id": room_id,
        "seq": seq,
        "at": moment or datetime(1970, 1, 1, tzinfo=UTC),
        "by_player": by if isinstance(by, int) else -1,
        "kind": str(event.get("kind", ""))[:32],
        "event": event,
    }
