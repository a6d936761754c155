"""Host events: what a room's host did, and its players' pause and resume requests, one
row each in `host_events`, appended once and never rewritten (docs/persistence.md, "The
table log"). Each is numbered per room from 0 by the room, as a deal's actions are, so
a retried append recognises its own row (`logged_host_event`).

A reopened room needs only the last events, for its panel, and how many there are, to
number the next; the record itself is never cut short.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.errors import DuplicateRecordError, UnknownRoomError
from server.store.schema import host_events, rooms
from server.store.write_checks import check_action

# The events a reopened room reads back for its panel (the table shows this many).
RECENT_HOST_EVENTS = 50


def event_row(room_id: str, seq: int, event: dict[str, Any]) -> dict[str, Any]:
    """The row of `event`, refused (`ValueError`) unless it has an `at` in ms, a `by`
    player index, a `kind` and is JSON."""
    at, by, kind = event.get("at"), event.get("by"), event.get("kind")
    if not isinstance(at, int) or isinstance(at, bool):
        raise ValueError(f"a host event's 'at' is a whole number of ms, not {at!r}")
    if not isinstance(by, int) or isinstance(by, bool):
        raise ValueError(f"a host event's 'by' is a player index, not {by!r}")
    if not isinstance(kind, str) or not 0 < len(kind) <= 32:
        raise ValueError(f"a host event's 'kind' is a short name, not {kind!r}")
    moment = datetime.fromtimestamp(at / 1000, UTC)
    check_action(event, moment)  # the same check as an action's: JSON, an aware moment
    return {
        "room_id": room_id,
        "seq": seq,
        "at": moment,
        "by_player": by,
        "kind": kind,
        "event": event,
    }


async def append_host_event(
    conn: AsyncConnection, room_id: str, seq: int, event: dict[str, Any]
) -> None:
    """Insert one event (inside the caller's write transaction)."""
    row = event_row(room_id, seq, event)
    known = await conn.scalar(select(rooms.c.room_id).where(rooms.c.room_id == room_id))
    if known is None:
        raise UnknownRoomError(f"no room {room_id!r}")
    try:
        await conn.execute(host_events.insert().values(**row))
    except IntegrityError as error:
        raise DuplicateRecordError(f"room {room_id!r} already has host event {seq}") from error


async def logged_host_event(conn: AsyncConnection, room_id: str, seq: int) -> dict[str, Any] | None:
    """The room's event `seq` as stored, or None."""
    found: dict[str, Any] | None = await conn.scalar(
        select(host_events.c.event)
        .where(host_events.c.room_id == room_id)
        .where(host_events.c.seq == seq)
    )
    return found


async def recent_host_events(
    conn: AsyncConnection, room_ids: list[str]
) -> dict[str, tuple[int, list[dict[str, Any]]]]:
    """For each room that has events: how many, and the last `RECENT_HOST_EVENTS` in order."""
    if not room_ids:
        return {}
    counts = (
        select(host_events.c.room_id, func.max(host_events.c.seq).label("top"))
        .where(host_events.c.room_id.in_(room_ids))
        .group_by(host_events.c.room_id)
        .subquery()
    )
    recent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    tops: dict[str, int] = {}
    for row in await conn.execute(
        select(host_events.c.room_id, host_events.c.event, counts.c.top)
        .join(counts, counts.c.room_id == host_events.c.room_id)
        .where(host_events.c.seq > counts.c.top - RECENT_HOST_EVENTS)
        .order_by(host_events.c.room_id, host_events.c.seq)
    ):
        recent[row.room_id].append(row.event)
        tops[row.room_id] = int(row.top)
    return {room_id: (tops[room_id] + 1, events) for room_id, events in recent.items()}
