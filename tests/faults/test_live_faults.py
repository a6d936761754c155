"""Real faults under a real server: Postgres stopped and started mid-deal, a SQLite disk
filled and freed mid-deal. Several tables play through it; afterwards every table
finishes its deal, the database passes the consistency check, no bot move is logged as a
`timeout` (the turn clock is shorter than the outage, but paused through it), and
`/readyz` said 503 while the store could not write.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.faults.consistency import bot_reasons, check_consistency
from tests.faults.disk import FileSizeLimit, small_disk
from tests.faults.live_tables import TURN_SECONDS, Tables, start_server
from tests.faults.private_postgres import private_postgres_or_skip

OUTAGE_SECONDS = TURN_SECONDS + 2.0


async def wait_ready(base: str, status: int, timeout: float = 30) -> httpx.Response:
    """Poll `/readyz` until it answers `status`."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while True:
            answer = await http.get("/readyz")
            if answer.status_code == status:
                return answer
            assert time.monotonic() < deadline, (
                f"/readyz stayed {answer.status_code}: {answer.text}"
            )
            await asyncio.sleep(0.1)


async def during_the_outage(base: str, tables: Tables) -> None:
    """What the host and the players see while the store is down."""
    await tables.until_every_table_noticed("store_unavailable")
    answer = await wait_ready(base, 503)
    assert answer.json()["status"] == "unavailable" and answer.json()["reason"]
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        refused = await http.post("/api/rooms", json={"variant": "hk"})
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "store_unavailable"


async def after_the_outage(base: str, tables: Tables, database_url: str) -> None:
    await wait_ready(base, 200)
    results = await tables.results()
    assert all(result["outcome"] in ("win", "draw") for result in results), results
    for client in tables.clients:
        notices = [m["code"] for m in client.messages if m["type"] == "notice"]
        assert notices[-1] == "store_restored", (client.name, notices)
    checked = await check_consistency(database_url, tables.room_ids)
    assert checked == {room_id: 1 for room_id in tables.room_ids}
    reasons = await bot_reasons(database_url, tables.room_ids)
    assert reasons["timeout"] == 0, f"an outage was logged as a timeout: {reasons}"
    assert reasons["bot_seat"] > 0 and reasons[None] > 0


async def test_postgres_stopped_and_started_mid_deal(tmp_path: Path) -> None:
    cluster = private_postgres_or_skip()
    server = None
    tables = None
    try:
        server, base = start_server(cluster.url, tmp_path / "server.log")
        tables = await Tables(base).open()
        await tables.until_each_has_played(6)
        cluster.stop()
        stopped_at = time.monotonic()
        await during_the_outage(base, tables)
        await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped_at)))
        cluster.start()
        await after_the_outage(base, tables, cluster.url)
        assert server.returncode is None, server.output
    finally:
        if tables is not None:
            await tables.close()
        if server is not None:
            server.stop()
        cluster.remove()


async def test_a_sqlite_disk_full_mid_deal_then_freed(tmp_path: Path) -> None:
    folder = tmp_path / "disk"
    with small_disk(folder) as disk:
        url = f"sqlite+aiosqlite:///{folder / 'hall.sqlite3'}"
        server, base = start_server(url, tmp_path / "server.log")
        fault = disk if disk is not None else FileSizeLimit(folder, pid=server.process.pid)
        tables = None
        try:
            tables = await Tables(base).open()
            await tables.until_each_has_played(6)
            fault.fill()
            filled_at = time.monotonic()
            await during_the_outage(base, tables)
            await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - filled_at)))
            fault.free()
            await after_the_outage(base, tables, url)
            assert server.returncode is None, server.output
        finally:
            fault.free()
            if tables is not None:
                await tables.close()
            server.stop()
