"""The table log: a room's time banks, kept in its record's settings JSON.

They are not deal actions (replays and recovery must not see them), and they outlive a
deal (a bank lasts the whole game), so they live with the room:
`rooms.settings["table_log"]` (docs/persistence.md, "The table log"). Each save writes
the whole log, a few numbers per seat, so writing it twice is harmless. The host events,
which grow with every request, are rows of their own (`host_events.py`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.errors import UnknownRoomError
from server.store.schema import rooms

TABLE_LOG_KEY = "table_log"


async def save_table_log(conn: AsyncConnection, room_id: str, table_log: dict[str, Any]) -> None:
    """Replace the room's table log (inside the caller's write transaction)."""
    settings = (
        await conn.execute(select(rooms.c.settings).where(rooms.c.room_id == room_id))
    ).scalar_one_or_none()
    if settings is None:
        raise UnknownRoomError(f"no room {room_id!r}")
    await conn.execute(
        rooms.update()
        .where(rooms.c.room_id == room_id)
        .values(settings={**settings, TABLE_LOG_KEY: table_log})
    )


def without_table_log(settings: dict[str, Any]) -> dict[str, Any]:
    """A room's settings as listed, without its table log."""
    return {key: value for key, value in settings.items() if key != TABLE_LOG_KEY}
