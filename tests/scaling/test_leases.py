"""Room leases and the fence, on a real Postgres: two owners (as two processes would be)
share one database; only the lease holder writes to a room, and a stale one never does."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text

from server.store import DuplicateRecordError, Store, apply_migrations, open_store
from server.store.leases import (
    LIVENESS_KEY,
    Claim,
    LeaseFence,
    LeaseLostError,
    RoomLeases,
    SequenceGapError,
)
from tests.pg import drop_database, postgres_url_or_skip

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SEATS = {"E": 0, "S": 1, "W": 2, "N": 3}


class Owner:
    """One process's view: its own store (fenced with its id) and its leases."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self.leases = RoomLeases(store.engine, name, seconds=30)
        store.use_fence(LeaseFence(name))

    async def append(self, deal_id: int, seq: int) -> None:
        await self.store.append_action(
            deal_id, seq, "E", {"type": "discard", "tile": "1m"}, NOW, False, None, 100.0
        )


@pytest.fixture
async def owners() -> AsyncIterator[tuple[Owner, Owner, str]]:
    url = postgres_url_or_skip()
    apply_migrations(url)
    first, second = await open_store(url), await open_store(url)
    try:
        await first.create_room("room1", "hk", {}, NOW)
        a, b = Owner(first, "server-a"), Owner(second, "server-b")
        await a.leases.hold_liveness()  # both alive, as two running processes
        await b.leases.hold_liveness()
        yield a, b, url
    finally:
        await a.leases.drop_liveness()
        await b.leases.drop_liveness()
        await first.close()
        await second.close()
        drop_database(url)


async def expire(store: Store, room_id: str) -> None:
    """The lease runs out, as it does when its owner stops renewing (frozen, cut off)."""
    async with store.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE room_id = :r"
            ),
            {"r": room_id},
        )


async def start_deal(owner: Owner) -> int:
    return await owner.store.start_deal("room1", 1, 1, "hk", {}, 7, SEATS, NOW, 300.0)


async def test_one_owner_at_a_time_and_the_other_may_take_it_once_it_expired(
    owners: tuple[Owner, Owner, str],
) -> None:
    a, b, _ = owners
    assert await a.leases.take("room1") is Claim.TAKEN
    assert await b.leases.take("room1") is Claim.ELSEWHERE
    assert await a.leases.take("room1") is Claim.TAKEN  # the owner may take it again
    assert await b.leases.take("no-such-room") is Claim.NO_ROOM
    await expire(a.store, "room1")
    assert await b.leases.take("room1") is Claim.TAKEN
    renewal = await a.leases.renew({"room1": {}})
    assert renewal.lost == {"room1"} and not renewal.kept


async def test_a_stale_owner_cannot_write_anything_to_the_room(
    owners: tuple[Owner, Owner, str],
) -> None:
    a, b, _ = owners
    await a.leases.take("room1")
    deal_id = await start_deal(a)
    await a.append(deal_id, 1)
    await expire(a.store, "room1")
    assert await b.leases.take("room1") is Claim.TAKEN

    refused: list[Any] = [
        a.append(deal_id, 2),
        a.store.finish_deal(deal_id, {"outcome": "draw", "scores": {}}, NOW, {}),
        a.store.set_room_status("room1", "closed"),
        a.store.start_deal("room1", 1, 2, "hk", {}, 8, SEATS, NOW, 300.0),
        a.store.add_player("room1", 0, "Late", None, True, NOW),
    ]
    for write in refused:
        with pytest.raises(LeaseLostError):
            await write
    assert await a.store.count_actions(deal_id) == 1
    assert (await b.leases.open_room("room1")) is not None  # still open, one deal
    # The new owner goes on from the log as it stands.
    await b.append(deal_id, 2)
    assert await b.store.count_actions(deal_id) == 2


async def test_an_action_is_written_only_as_the_next_seq(
    owners: tuple[Owner, Owner, str],
) -> None:
    a, _, _ = owners
    await a.leases.take("room1")
    deal_id = await start_deal(a)
    await a.append(deal_id, 1)
    with pytest.raises(DuplicateRecordError):
        await a.append(deal_id, 1)
    with pytest.raises(SequenceGapError):
        await a.append(deal_id, 3)
    await a.append(deal_id, 2)
    assert await a.store.count_actions(deal_id) == 2


async def test_a_handed_over_room_is_taken_at_once_and_the_old_owner_is_told(
    owners: tuple[Owner, Owner, str],
) -> None:
    a, b, _ = owners
    await a.leases.take("room1")
    assert await b.leases.take("room1") is Claim.ELSEWHERE
    await b.leases.ask_for("room1")
    renewal = await a.leases.renew({"room1": {"room_id": "room1"}})
    assert renewal.wanted == {"room1"} and renewal.kept == {"room1"}
    await a.leases.release(renewal.wanted)
    assert await b.leases.take("room1") is Claim.TAKEN
    with pytest.raises(LeaseLostError):
        await a.store.set_room_status("room1", "playing")


async def test_orphans_are_open_rooms_whose_owner_is_long_gone(
    owners: tuple[Owner, Owner, str],
) -> None:
    a, b, _ = owners
    await a.store.create_room("room2", "hk", {}, NOW)
    async with a.store.engine.begin() as conn:  # played before the whole hall restarted
        await conn.execute(text("UPDATE rooms SET status = 'playing' WHERE room_id = 'room2'"))
    await a.leases.take("room1")
    assert await b.leases.orphans() == ["room2"]
    await expire(a.store, "room1")
    assert await b.leases.orphans() == ["room2"]  # expired just now: its players may come
    async with a.store.engine.begin() as conn:
        await conn.execute(text("UPDATE room_leases SET expires_at = now() - interval '1 hour'"))
    assert sorted(await b.leases.orphans()) == ["room1", "room2"]


async def test_an_expired_lease_nobody_took_is_still_its_owners(
    owners: tuple[Owner, Owner, str],
) -> None:
    """A renewal that came late (a busy database) must not stop a table for nothing: the
    row decides, and only another process taking it ends the owner's writes."""
    a, b, _ = owners
    await a.leases.take("room1")
    deal_id = await start_deal(a)
    await expire(a.store, "room1")
    await a.append(deal_id, 1)
    renewal = await a.leases.renew({"room1": {}})
    assert renewal.kept == {"room1"} and not renewal.lost
    assert await b.leases.take("room1") is Claim.ELSEWHERE  # renewed: live again
    assert await a.store.count_actions(deal_id) == 1


async def test_an_owner_frozen_inside_a_write_does_not_block_the_takeover() -> None:
    """A process frozen mid-transaction holds its lease row's lock: the taker is told
    "elsewhere" rather than kept waiting, and Postgres ends the frozen transaction after a
    lease period, so the room can move."""
    url = postgres_url_or_skip()
    apply_migrations(url)
    frozen_store, taker_store = await open_store(url), await open_store(url)
    try:
        frozen = RoomLeases(frozen_store.engine, "server-a", seconds=1)  # before any connection
        taker = RoomLeases(taker_store.engine, "server-b", seconds=1)
        await frozen.hold_liveness()  # frozen, not dead: its session lives on
        await frozen_store.create_room("room1", "hk", {}, NOW)
        assert await frozen.take("room1") is Claim.TAKEN
        async with frozen_store.engine.connect() as conn:
            writing = await conn.begin()
            await LeaseFence("server-a").hold_room(conn, "room1")  # ... and freezes here
            asked = time.monotonic()
            assert await taker.take("room1") is Claim.ELSEWHERE
            assert time.monotonic() - asked < 5, "the taker waited for the frozen owner"
            await asyncio.sleep(2.5)  # past the idle limit and the lease
            assert await taker.take("room1") is Claim.TAKEN
            with pytest.raises(Exception):  # noqa: B017 (the session was ended by Postgres)
                await writing.commit()
    finally:
        await frozen.drop_liveness()
        await frozen_store.close()
        await taker_store.close()
        drop_database(url)


async def test_a_dead_owners_lease_is_taken_at_once_and_its_writes_refused(
    owners: tuple[Owner, Owner, str],
) -> None:
    """An owner whose liveness lock is free (its process died) keeps no room: its lease,
    though far from expiry (30 s), is taken at once, and its writes are refused."""
    a, b, _ = owners
    assert await a.leases.take("room1") is Claim.TAKEN
    deal_id = await start_deal(a)
    await a.append(deal_id, 1)
    assert await b.leases.take("room1") is Claim.ELSEWHERE  # alive: the lease stands
    await a.leases.drop_liveness()  # what Postgres does when the process dies
    assert await b.leases.take("room1") is Claim.TAKEN
    with pytest.raises(LeaseLostError):
        await a.append(deal_id, 2)
    await b.append(deal_id, 2)
    assert await b.store.count_actions(deal_id) == 2


async def test_a_lost_liveness_session_is_taken_anew(owners: tuple[Owner, Owner, str]) -> None:
    """Postgres ended the liveness session (a restart, an admin): the next check takes the
    lock again, and the owner's leases stand again."""
    a, b, _ = owners
    assert await a.leases.take("room1") is Claim.TAKEN
    async with b.store.engine.begin() as conn:
        ended = await conn.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_locks"
                " WHERE locktype = 'advisory' AND classid = :key AND objsubid = 2"
                " AND objid = CAST(hashtext('server-a') AS oid)"
            ),
            {"key": LIVENESS_KEY},
        )
    assert ended == 1
    await asyncio.sleep(0.2)  # the session ends
    await a.leases.hold_liveness()
    assert await b.leases.take("room1") is Claim.ELSEWHERE
