"""A process that comes back after its leases moved on must not write to its old rooms.

The process is frozen (SIGSTOP) mid-deal, long enough for the proxy to take it out and for
its leases to expire; its tables move to the others. Then it thaws (SIGCONT) with all its
old rooms still in memory and their timers overdue. Its first attempts to play on are
refused by the fence (or its renewal learns the rooms are gone), its copies stop, and the
tables finish on their new owners with a consistent log."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from tests.faults.consistency import check_consistency
from tests.pg import drop_database, postgres_url_or_skip
from tests.scaling.cluster import LEASE_SECONDS, Cluster, lease_owners, owned_by
from tests.scaling.seats import open_tables

TABLES = 9


def test_a_thawed_process_whose_leases_moved_on_writes_nothing(tmp_path: Path) -> None:
    url = postgres_url_or_skip()
    cluster = Cluster(url, tmp_path / "cluster.log", MAHJONG_BOT_DELAY="0.25")
    try:
        asyncio.run(freeze_and_thaw(cluster, url))
    finally:
        output = cluster.stop()
        drop_database(url)
    assert "Traceback" not in output, output[-6000:]


async def freeze_and_thaw(cluster: Cluster, url: str) -> None:
    seats = await open_tables(cluster.base, cluster.ws_base, TABLES)
    room_ids = [seat.room_id for seat in seats]
    deadline = time.monotonic() + 60
    # (A deal that ends at once, an early win, counts as going.)
    while any(seat.states < 4 and not (seat.playing and seat.playing.done()) for seat in seats):
        assert time.monotonic() < deadline, "the tables did not get going"
        await asyncio.sleep(0.05)
    owners = await lease_owners(url)
    frozen = max(cluster.members, key=lambda member: len(owned_by(owners, member)))
    its_rooms = owned_by(owners, frozen)
    assert its_rooms
    os.kill(frozen.pid, signal.SIGSTOP)
    try:
        # Its tables move: the leases expire and the players' reconnections reach the others.
        deadline = time.monotonic() + 30 + float(LEASE_SECONDS)
        while owned_by(await lease_owners(url), frozen) & its_rooms:
            assert time.monotonic() < deadline, "the frozen process's rooms did not move"
            await asyncio.sleep(0.2)
        await asyncio.sleep(1)  # the new owners play a few moves
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    results = await asyncio.wait_for(
        asyncio.gather(*(seat.playing for seat in seats if seat.playing is not None)), 180
    )
    checked = await check_consistency(url, room_ids)
    for seat, result in zip(seats, results, strict=True):
        # As in test_failover.py: a moved table whose result was not yet sent plays its
        # next deal at once; the player's result is the room's last deal either way.
        assert result["deal_no"] == checked[seat.room_id], (seat.name, checked)
        assert checked[seat.room_id] == 1 or seat.room_id in its_rooms, (seat.name, checked)
    # The thawed copies of its rooms stopped: refused by the fence, or told by the renewal.
    output = cluster.process.output
    for room_id in its_rooms:
        stopped = (
            f"room {room_id} stops here: this process no longer owns" in output
            or f"room {room_id}: another server took its lease" in output
        )
        assert stopped, f"room {room_id}: the thawed copy was never stopped"
