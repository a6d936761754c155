"""Host events as rows (issue 25, point 5): one row per event, appended once, never
rewritten or dropped; read back for a reopened room; migration 0006 moves the events of
rooms stored before it out of their table log and back again on a downgrade."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from server.store import (
    DuplicateRecordError,
    Store,
    UnknownRoomError,
    apply_migrations,
    downgrade_migrations,
    open_store,
)
from server.store.host_events import RECENT_HOST_EVENTS
from server.store.schema import host_events, rooms

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
AT = int(T0.timestamp() * 1000)


def event(number: int, kind: str = "pause_asked", by: int = 1) -> dict:
    return {"at": AT + number, "by": by, "kind": kind, "text": f"event {number}"}


async def test_each_event_is_one_row_and_the_room_settings_are_not_rewritten(
    store: Store,
) -> None:
    await store.create_room("r1", "hk", {"turn_seconds": 40}, T0)
    await store.save_table_log("r1", {"time_banks": {"left": {"0": 10.0}, "drawn": {}}})
    async with store.engine.connect() as conn:
        settings_before = await conn.scalar(select(rooms.c.settings))
    for number in range(3):
        await store.append_host_event("r1", number, event(number, by=number))
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(host_events).order_by(host_events.c.seq))).all()
        settings_after = await conn.scalar(select(rooms.c.settings))
    assert [(row.seq, row.by_player, row.kind) for row in rows] == [
        (0, 0, "pause_asked"),
        (1, 1, "pause_asked"),
        (2, 2, "pause_asked"),
    ]
    assert rows[1].event == event(1, by=1) and rows[1].at == T0.replace(microsecond=1000)
    assert settings_after == settings_before, "an event never rewrites the room's record"
    assert await store.host_event_logged("r1", 1) == event(1, by=1)
    assert await store.host_event_logged("r1", 3) is None


async def test_a_row_is_written_once_and_an_unknown_room_is_refused(store: Store) -> None:
    await store.create_room("r1", "hk", {}, T0)
    await store.append_host_event("r1", 0, event(0))
    with pytest.raises(DuplicateRecordError):
        await store.append_host_event("r1", 0, event(9, kind="end_game"))
    assert await store.host_event_logged("r1", 0) == event(0)
    with pytest.raises(UnknownRoomError):
        await store.append_host_event("nope", 0, event(0))
    with pytest.raises(ValueError):
        await store.append_host_event("r1", 1, {"at": AT, "by": 0, "kind": "x", "text": {1}})


async def test_a_reopened_room_reads_back_its_recent_events_and_how_many_there_are(
    store: Store,
) -> None:
    await store.create_room("r1", "hk", {}, T0)
    await store.create_room("r2", "hk", {}, T0)
    total = RECENT_HOST_EVENTS + 25
    for number in range(total):
        await store.append_host_event("r1", number, event(number))
    await store.append_host_event("r2", 0, event(0, kind="spectators"))
    records = {record.room_id: record for record in await store.load_open_rooms()}
    assert records["r1"].host_event_count == total
    assert records["r1"].host_events == [event(n) for n in range(25, total)]
    assert records["r2"].host_event_count == 1
    assert records["r2"].host_events == [event(0, kind="spectators")]


async def test_migration_0006_moves_stored_events_into_rows_and_back(database_url: str) -> None:
    apply_migrations(database_url)
    downgrade_migrations(database_url, "0005")
    legacy = {
        "turn_seconds": 40,
        "table_log": {
            "host_events": [event(0, kind="remove_player", by=0), event(1, kind="make_host", by=0)],
            "time_banks": {"left": {"0": 5.0}, "drawn": {}},
        },
    }
    engine = create_async_engine(database_url, poolclass=NullPool)
    try:
        async with engine.begin() as conn:
            # The rooms table is the same at 0005 as now.
            await conn.execute(
                rooms.insert().values(
                    room_id="old", variant="hk", status="playing", settings=legacy, created_at=T0
                )
            )
    finally:
        await engine.dispose()

    apply_migrations(database_url)
    store = await open_store(database_url)
    try:
        (record,) = await store.load_open_rooms()
        assert record.host_events == legacy["table_log"]["host_events"]
        assert record.host_event_count == 2
        assert record.settings["table_log"] == {"time_banks": {"left": {"0": 5.0}, "drawn": {}}}
        await store.append_host_event("old", 2, event(2, kind="spectators", by=0))
    finally:
        await store.close()

    downgrade_migrations(database_url, "0005")
    engine = create_async_engine(database_url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            stored = await conn.scalar(text("SELECT settings FROM rooms WHERE room_id = 'old'"))
    finally:
        await engine.dispose()
    settings = stored if isinstance(stored, dict) else json.loads(stored)
    assert settings["table_log"]["host_events"] == [
        *legacy["table_log"]["host_events"],
        event(2, kind="spectators", by=0),
    ]
    assert settings["table_log"]["time_banks"] == legacy["table_log"]["time_banks"]
    apply_migrations(database_url)
