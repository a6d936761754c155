"""The store under real outages: a private Postgres stopped, a SQLite disk full. Every
method says `StoreUnavailable` (whatever the driver said), every caller of a failed
shared commit learns of it (none hangs), `ping` is False, and once the database is back
the same calls work, with no row written twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from server.store import Store, StoreUnavailable, apply_migrations, open_store
from tests.faults.disk import FileSizeLimit, small_disk
from tests.faults.private_postgres import private_postgres_or_skip

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
TABLES = 5


class Outage:
    """A database of either kind, with a way to take it away and bring it back."""

    def __init__(self, store: Store, url: str, cut: Callable[[], None], mend: Callable[[], None]):
        self.store, self.url, self.cut, self.mend = store, url, cut, mend


@pytest.fixture(params=["postgres", "sqlite"])
async def outage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Outage]:
    if request.param == "postgres":
        cluster = private_postgres_or_skip()
        try:
            apply_migrations(cluster.url)
            store = await open_store(cluster.url)
            yield Outage(store, cluster.url, cluster.stop, cluster.start)
            await store.close()
        finally:
            cluster.remove()
        return
    folder = tmp_path / "disk"
    with small_disk(folder) as disk:
        url = f"sqlite+aiosqlite:///{folder / 'store.sqlite3'}"
        apply_migrations(url)
        store = await open_store(url)
        fault: Any = disk if disk is not None else FileSizeLimit(folder)
        try:
            yield Outage(store, url, fault.fill, fault.free)
        finally:
            fault.free()
            await store.close()


async def open_deals(store: Store) -> list[int]:
    await store.create_room("r1", "kaki3", {}, NOW)
    for index in range(3):
        await store.add_player("r1", index, f"P{index}", None, True, NOW)
    return [
        await store.start_deal("r1", 1, deal_no, "kaki3", {}, deal_no, {"E": 0}, NOW, 300.0)
        for deal_no in range(1, TABLES + 1)
    ]


async def append_first_actions(store: Store, deal_ids: list[int]) -> list[Any]:
    """Seq 1 of every deal at once, so the rows share one commit."""
    return await asyncio.wait_for(
        asyncio.gather(
            *(
                store.append_action(
                    deal_id, 1, "E", {"type": "discard", "tile": "1p"}, NOW, True, "bot_seat", 299.0
                )
                for deal_id in deal_ids
            ),
            return_exceptions=True,
        ),
        timeout=60,
    )


async def test_an_outage_is_store_unavailable_everywhere_and_nothing_is_doubled(
    outage: Outage,
) -> None:
    store = outage.store
    deal_ids = await open_deals(store)
    assert await store.ping() is True
    outage.cut()
    failures = await append_first_actions(store, deal_ids)
    assert all(isinstance(failure, StoreUnavailable) for failure in failures), failures
    assert await store.ping() is False
    with pytest.raises(StoreUnavailable):
        await store.start_deal("r1", 1, 99, "kaki3", {}, 99, {"E": 0}, NOW, 300.0)
    with pytest.raises(StoreUnavailable):
        await store.set_room_status("r1", "playing")

    outage.mend()
    deadline = asyncio.get_running_loop().time() + 30
    while not await store.ping():  # the pool's broken connections are replaced
        assert asyncio.get_running_loop().time() < deadline, "the store did not come back"
        await asyncio.sleep(0.1)
    for deal_id in deal_ids:
        assert await store.action_logged(deal_id, 1) is None, "a failed commit left a row"
    assert await append_first_actions(store, deal_ids) == [None] * TABLES
    for deal_id in deal_ids:
        assert await store.count_actions(deal_id) == 1
        assert await store.action_logged(deal_id, 1) == ("E", {"type": "discard", "tile": "1p"})
    assert await store.find_deal("r1", 1, 2) == (deal_ids[1], 2)
    assert await store.find_deal("r1", 1, 99) is None
