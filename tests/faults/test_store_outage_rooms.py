"""A table over a SQLite store on a disk that fills up, then frees: the clocks pause, the
held action is saved once the disk is back, nothing is lost, nothing applied twice.

A hand-driven clock runs the turn timer, the retries and the deal timer; the disk is a
real tmpfs the test mounts and fills (or, where mounting is impossible, a real file-size
limit on this process: either way SQLite itself refuses the write).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store, StoreUnavailable, apply_migrations, open_store
from tests.faults.consistency import check_consistency
from tests.faults.disk import FileSizeLimit, TmpfsDisk, small_disk
from tests.rooms.conftest import RecordingConnection, ana_against_bots, quiet, until

SETTINGS = TableSettings(
    bot_delay=0,
    next_deal_seconds=5,
    bot_level="baseline",
    store_retry_seconds=0.5,
    store_retry_max_seconds=4,
)


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[tuple[str, Store, ManualClock, Any]]:
    folder = tmp_path / "disk"
    with small_disk(folder) as disk:
        url = f"sqlite+aiosqlite:///{folder / 'hall.sqlite3'}"
        apply_migrations(url)
        fault: TmpfsDisk | FileSizeLimit = disk if disk is not None else FileSizeLimit(folder)
        store = await open_store(url)
        try:
            yield url, store, ManualClock(), fault
        finally:
            fault.free()
            await store.close()


def notices(connection: RecordingConnection, code: str) -> list[dict[str, Any]]:
    return [m for m in connection.sent if m["type"] == "notice" and m["code"] == code]


async def logged_rows(url: str, deal_id: int) -> list[Any]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = text(
                "SELECT seq, seat, action, by_bot, bot_reason FROM deal_actions "
                "WHERE deal_id = :d ORDER BY seq"
            )
            return list((await conn.execute(query, {"d": deal_id})).all())
    finally:
        await engine.dispose()


async def test_a_full_disk_pauses_the_table_and_the_held_action_is_saved_once(
    hall: tuple[str, Store, ManualClock, Any],
) -> None:
    url, store, clock, disk = hall
    manager = RoomManager(store, clock, SETTINGS)
    try:
        room_id, actor, ana = await ana_against_bots(
            manager, RoomSettings(variant="kaki3", turn_seconds=40, deal_seconds=300)
        )
        before = ana.last_state
        assert actor.deal is not None
        deal_id, logged_before = actor.deal.deal_id, actor.deal.next_log_seq - 1
        discard = next(a for a in before["legal"] if a["type"] == "discard")

        disk.fill()
        decided_at = clock.now()
        actor.tell(cmd.PlayerAction(ana, discard, "held"))
        await until(lambda: bool(notices(ana, "store_unavailable")))
        paused = ana.last_state
        assert paused["turn_deadline"] is None and paused["deal_deadline"] is None
        assert paused["legal"] == [], "nothing can be saved, so nothing is offered"
        assert await store.ping() is False, "a full disk is not ready"

        actor.tell(cmd.PlayerAction(ana, discard, "again"))
        await until(lambda: any(m.get("id") == "again" for m in ana.sent))
        refusal = next(m for m in ana.sent if m.get("id") == "again")
        assert refusal["type"] == "error" and refusal["code"] == "store_unavailable"

        # Far past the 40 s turn timer: paused clocks let no timeout fire, and every retry fails.
        for _ in range(12):
            clock.advance(10)
            await quiet(actor)
        assert actor.store_down_since == decided_at
        assert notices(ana, "store_restored") == []
        assert len(await logged_rows(url, deal_id)) == logged_before

        disk.free()
        resumed_at = clock.now()
        clock.advance(4)
        await until(lambda: bool(notices(ana, "store_restored")))
        await quiet(actor)
        assert actor.store_down_since is None
        rows = await logged_rows(url, deal_id)
        held = rows[logged_before]
        assert (held.seat, held.by_bot, held.bot_reason) == ("E", False, None)
        assert json.loads(held.action) == discard, "the very action Ana sent, saved once"
        # The deal clock lost the paused time only: it moved on by exactly the pause.
        pause = clock.now() - decided_at
        after = next(
            s for s in ana.states if s["deal_deadline"] is not None and s["seq"] > paused["seq"]
        )
        assert after["deal_deadline"] == pytest.approx(
            before["deal_deadline"] + pause * 1000, abs=1
        )
        assert clock.now() >= resumed_at

        # The rest of the deal: Ana leaves, her bot plays; the deal ends and adds up.
        actor.tell(cmd.Disconnect(ana))
        await until(lambda: actor.deal is not None and actor.deal.ended)
        rows = await logged_rows(url, deal_id)
        assert not any(row.bot_reason == "timeout" for row in rows)
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        assert await check_consistency(url, [room_id]) == {room_id: 1}
        assert await store.ping() is True
    finally:
        await manager.shutdown()


async def test_joins_are_refused_and_a_shutdown_ends_a_paused_table(
    hall: tuple[str, Store, ManualClock, Any],
) -> None:
    url, store, clock, disk = hall
    manager = RoomManager(store, clock, SETTINGS)
    waiting = await manager.create_room(RoomSettings(variant="kaki3"))
    await manager.join(waiting, "Bo")
    room_id, actor, ana = await ana_against_bots(manager, RoomSettings(variant="kaki3"))
    assert actor.deal is not None
    deal_id, logged_before = actor.deal.deal_id, actor.deal.next_log_seq - 1

    disk.fill()
    with pytest.raises(StoreUnavailable):  # nothing is seated that could not be saved
        await manager.join(waiting, "Cy")
    assert [player.name for player in manager.get(waiting).players] == ["Bo"]
    discard = next(a for a in ana.last_state["legal"] if a["type"] == "discard")
    actor.tell(cmd.PlayerAction(ana, discard, "held"))
    await until(lambda: bool(notices(ana, "store_unavailable")))
    with pytest.raises(StoreUnavailable):  # the paused table refuses a seat for its waiting room
        await manager.add_bots(room_id)

    await asyncio.wait_for(manager.shutdown(), timeout=10)
    assert ana.closed_with is not None and ana.closed_with[0] == 1012
    disk.free()
    assert len(await logged_rows(url, deal_id)) == logged_before, "the held move was dropped"
    reopened = {record.room_id: record for record in await store.load_open_rooms()}
    assert reopened[room_id].status == "playing" and reopened[waiting].status == "waiting"
