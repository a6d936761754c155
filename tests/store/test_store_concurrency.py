"""Many tables writing at once: no log entry lost, none attributed to the wrong deal."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from server.store import Store
from server.store.schema import deal_actions

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TABLES = 50
ACTIONS_PER_TABLE = 100


async def play_table(store: Store, table: int) -> int:
    """Seat a room, start a deal and log its actions one after another, like a room actor."""
    room_id = f"room-{table}"
    await store.create_room(room_id, "kaki3", {}, T0)
    for index in range(3):
        await store.add_player(room_id, index, f"p{table}-{index}", None, index == 2, T0)
    deal_id = await store.start_deal(
        room_id, 1, 1, "kaki3", {}, table, {"E": 0, "S": 1, "W": 2}, T0, 300.0
    )
    jitter = random.Random(table)
    for seq in range(ACTIONS_PER_TABLE):
        await store.append_action(
            deal_id,
            seq,
            "ESW"[seq % 3],
            {"type": "discard", "tile": "1p", "table": table, "seq": seq},
            T0 + timedelta(milliseconds=seq),
            by_bot=seq % 3 == 2,
            bot_reason="bot_seat" if seq % 3 == 2 else None,
            deal_seconds_left=300.0 - seq / 10,
        )
        if jitter.random() < 0.1:
            await asyncio.sleep(0)  # let other tables overtake this one
    return deal_id


async def test_fifty_tables_writing_at_once_keep_every_log_whole_and_ordered(store: Store) -> None:
    deal_ids = await asyncio.gather(*(play_table(store, table) for table in range(TABLES)))
    assert len(set(deal_ids)) == TABLES

    async with store.engine.connect() as conn:
        total = await conn.scalar(select(func.count()).select_from(deal_actions))
    assert total == TABLES * ACTIONS_PER_TABLE

    rooms = await store.load_open_rooms()
    assert len(rooms) == TABLES
    for room in rooms:
        table = int(room.room_id.removeprefix("room-"))
        deal = room.open_deal
        assert deal is not None and deal.seed == table
        assert [a.seq for a in deal.actions] == list(range(ACTIONS_PER_TABLE))
        assert all(
            a.action == {"type": "discard", "tile": "1p", "table": table, "seq": a.seq}
            for a in deal.actions
        )
        assert [a.at for a in deal.actions] == sorted(a.at for a in deal.actions)
        assert deal.deal_seconds_left == 300.0 - (ACTIONS_PER_TABLE - 1) / 10


async def test_concurrent_duplicate_seq_keeps_exactly_one(store: Store) -> None:
    """Two writers racing for the same seq (a bug upstream): one wins, the other is refused."""
    await store.create_room("r", "hk", {}, T0)
    deal_id = await store.start_deal("r", 1, 1, "hk", {}, 1, {"E": 0}, T0, None)

    async def write(tile: str) -> bool:
        try:
            await store.append_action(
                deal_id, 0, "E", {"type": "discard", "tile": tile}, T0, False, None, None
            )
        except ValueError:
            return False
        return True

    outcomes = await asyncio.gather(*(write(tile) for tile in ["1p", "2p", "3p", "4p"]))
    assert sorted(outcomes) == [False, False, False, True]
    assert await store.count_actions(deal_id) == 1


async def test_cancelling_the_flushing_caller_does_not_lose_the_others(store: Store) -> None:
    """The first appender commits everybody's queued rows; cancelling it mid-commit must
    neither lose nor fail the rows of the tables queued behind it."""
    await store.create_room("r", "hk", {}, T0)
    deal_ids = [
        await store.start_deal("r", 1, n, "hk", {}, n, {"E": 0}, T0, None) for n in range(20)
    ]

    async def append(deal_id: int) -> None:
        await store.append_action(
            deal_id, 0, "E", {"type": "discard", "tile": "1p"}, T0, False, None, None
        )

    tasks = [asyncio.create_task(append(deal_id)) for deal_id in deal_ids]
    await asyncio.sleep(0)  # the first task now holds the flush lock and is committing
    tasks[0].cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)

    assert all(outcome is None for outcome in outcomes[1:]), outcomes
    for deal_id in deal_ids[1:]:
        assert await store.count_actions(deal_id) == 1
    # The cancelled caller's row was already in the batch being committed: it is kept,
    # never half-written.
    assert await store.count_actions(deal_ids[0]) in (0, 1)


async def test_one_bad_row_in_a_batch_fails_only_its_own_caller(store: Store) -> None:
    """Tables sharing a commit: a duplicate seq among them is refused alone."""
    await store.create_room("r", "hk", {}, T0)
    deal_ids = [
        await store.start_deal("r", 1, n, "hk", {}, n, {"E": 0}, T0, None) for n in range(10)
    ]
    await store.append_action(
        deal_ids[4], 0, "E", {"type": "discard", "tile": "9p"}, T0, False, None, None
    )

    async def append(deal_id: int) -> None:
        await store.append_action(
            deal_id, 0, "E", {"type": "discard", "tile": "1p"}, T0, False, None, None
        )

    outcomes = await asyncio.gather(*(append(d) for d in deal_ids), return_exceptions=True)
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 4 + ["DuplicateRecordError"] + [
        "NoneType"
    ] * 5
    for deal_id in deal_ids:
        assert await store.count_actions(deal_id) == 1
    [room] = await store.load_open_rooms()
    assert room.open_deal is not None
    assert [a.action["tile"] for a in room.open_deal.actions] == ["1p"]


async def test_unserialisable_action_or_naive_time_is_refused_up_front(store: Store) -> None:
    await store.create_room("r", "hk", {}, T0)
    deal_id = await store.start_deal("r", 1, 1, "hk", {}, 1, {"E": 0}, T0, None)
    with pytest.raises(ValueError, match="not JSON"):
        await store.append_action(deal_id, 0, "E", {"tile": object()}, T0, False, None, None)
    with pytest.raises(ValueError, match="naive"):
        await store.append_action(
            deal_id, 0, "E", {"tile": "1p"}, datetime(2026, 1, 1), False, None, None
        )
    assert await store.count_actions(deal_id) == 0


async def test_concurrent_appends_share_commits(store: Store) -> None:
    """Group commit: 40 tables appending at once need far fewer than 40 commits."""
    from sqlalchemy import event

    await store.create_room("r", "hk", {}, T0)
    deal_ids = [
        await store.start_deal("r", 1, n, "hk", {}, n, {"E": 0}, T0, None) for n in range(40)
    ]
    commits = 0

    def count_commit(_connection: object) -> None:
        nonlocal commits
        commits += 1

    event.listen(store.engine.sync_engine, "commit", count_commit)
    try:
        await asyncio.gather(
            *(
                store.append_action(
                    d, 0, "E", {"type": "discard", "tile": "1p"}, T0, False, None, None
                )
                for d in deal_ids
            )
        )
    finally:
        event.remove(store.engine.sync_engine, "commit", count_commit)
    assert sum([await store.count_actions(d) for d in deal_ids]) == 40
    # On SQLite the batches commit on the action log's own connection (store/sqlite_log.py).
    sqlite_log = store._sqlite_log
    commits += sqlite_log.commits if sqlite_log is not None else 0
    assert 1 <= commits <= 5
