"""A store that hangs instead of failing: every Postgres process frozen (SIGSTOP) while a
player's move is being saved. The write times out, the table pauses; when Postgres thaws,
the frozen INSERT commits after all, and the retry finds that row rather than writing the
move a second time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store, apply_migrations, open_store
from tests.faults.consistency import check_consistency
from tests.faults.private_postgres import PrivatePostgres, freeze, private_postgres_or_skip
from tests.rooms.conftest import RecordingConnection, ana_against_bots, quiet, until

SETTINGS = TableSettings(
    bot_delay=0,
    bot_level="baseline",
    store_retry_seconds=0.5,
    store_retry_max_seconds=1,
    store_timeout_seconds=1.0,
)


@pytest.fixture
async def frozen_postgres() -> AsyncIterator[tuple[PrivatePostgres, Store]]:
    cluster = private_postgres_or_skip()
    try:
        apply_migrations(cluster.url)
        store = await open_store(cluster.url)
        yield cluster, store
        freeze(cluster, False)
        await store.close()
    finally:
        freeze(cluster, False)
        cluster.remove()


def sent_with(connection: RecordingConnection, kind: str, code: str) -> list[dict[str, Any]]:
    return [m for m in connection.sent if m["type"] == kind and m.get("code") == code]


async def rows_at(url: str, deal_id: int) -> list[Any]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = text(
                "SELECT seq, seat, action FROM deal_actions WHERE deal_id = :d ORDER BY seq"
            )
            return list((await conn.execute(query, {"d": deal_id})).all())
    finally:
        await engine.dispose()


async def test_a_hung_write_that_commits_late_is_saved_once(
    frozen_postgres: tuple[PrivatePostgres, Store], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.rooms.store_outage")
    cluster, store = frozen_postgres
    clock = ManualClock()
    manager = RoomManager(store, clock, SETTINGS)
    try:
        room_id, actor, ana = await ana_against_bots(
            manager, RoomSettings(variant="hk", turn_seconds=40)
        )
        assert actor.deal is not None
        deal_id, seq = actor.deal.deal_id, actor.deal.next_log_seq
        discard = next(a for a in ana.last_state["legal"] if a["type"] == "discard")

        freeze(cluster, True)
        actor.tell(cmd.PlayerAction(ana, discard, "held"))
        await until(lambda: bool(sent_with(ana, "notice", "store_unavailable")), timeout=20)
        clock.advance(1)  # a retry, which hangs too, and times out after a real second
        await asyncio.sleep(1.5)
        freeze(cluster, False)
        for _ in range(40):  # retries until the table is back (real seconds: the timeouts)
            if sent_with(ana, "notice", "store_restored"):
                break
            clock.advance(1)
            await quiet(actor, 0.25)
        assert sent_with(ana, "notice", "store_restored"), "the table did not come back"

        rows = await rows_at(cluster.url, deal_id)
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
        held = [row for row in rows if row.seq == seq]
        assert len(held) == 1 and held[0].action == discard
        assert f"action {seq} was saved by an earlier attempt" in caplog.text
        actor.tell(cmd.Disconnect(ana))
        await until(lambda: actor.deal is not None and actor.deal.ended, timeout=60)
        assert await check_consistency(cluster.url, [room_id]) == {room_id: 1}
    finally:
        await manager.shutdown()
