"""Three real `serve` processes behind a real HAProxy on one real Postgres (default lease),
30 tables each with a scripted player and bots; one process is killed with SIGKILL
mid-deal. Every table finishes its deal with its players in their seats, nothing is lost
or applied twice, and every moved table's player has a state from its new owner within
the failover bound."""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import time
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.faults.consistency import check_consistency
from tests.pg import drop_database, postgres_url_or_skip
from tests.scaling.cluster import Cluster, lease_owners, owned_by
from tests.scaling.seats import Seat, open_tables

TABLES = 30
# Slow enough bots that the deals are still in play when the process dies.
BOT_DELAY = "0.25"
# Kill to first state under the new owner: the target is p99 < 1.5 s with the default
# lease (docs/benchmarks.md has the figures); the margin is for a loaded machine.
FAILOVER_BOUND_SECONDS = 3.0


async def until_every_table_has_played(seats: list[Seat], states: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while any(seat.states < states and not finished(seat) for seat in seats):
        assert time.monotonic() < deadline, "the tables did not get going"
        await asyncio.sleep(0.05)


def finished(seat: Seat) -> bool:
    """Whether the seat's deal is over (an early win can beat the fault)."""
    return seat.playing is not None and seat.playing.done()


async def seated(database_url: str, room_ids: list[str]) -> dict[str, list[tuple[str, bool]]]:
    """Each room's players (name, is_bot) in player order, from the database."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT room_id, name, is_bot FROM room_players ORDER BY room_id, player_index"
                )
            )
            players: dict[str, list[tuple[str, bool]]] = {room: [] for room in room_ids}
            for row in rows:
                if row.room_id in players:
                    players[row.room_id].append((row.name, row.is_bot))
            return players
    finally:
        await engine.dispose()


def test_thirty_tables_play_on_when_one_of_three_processes_is_killed(tmp_path: Path) -> None:
    url = postgres_url_or_skip()
    cluster = Cluster(url, tmp_path / "cluster.log", MAHJONG_BOT_DELAY=BOT_DELAY)
    try:
        asyncio.run(kill_one_mid_deal(cluster, url))
    finally:
        output = cluster.stop()
        drop_database(url)
    assert "Traceback" not in output, output[-6000:]


async def kill_one_mid_deal(cluster: Cluster, url: str) -> None:
    seats = await open_tables(cluster.base, cluster.ws_base, TABLES)
    room_ids = [seat.room_id for seat in seats]
    before = await seated(url, room_ids)
    await until_every_table_has_played(seats, states=6, timeout=60)
    owners = await lease_owners(url)
    assert set(owners) == set(room_ids), "every table is owned by one process"
    in_play = {seat.room_id for seat in seats if not finished(seat)}
    victim = max(cluster.members, key=lambda member: len(owned_by(owners, member) & in_play))
    moved = owned_by(owners, victim) & in_play
    survivors = [member for member in cluster.members if member != victim]
    assert len(moved) >= 3 and all(owned_by(owners, member) for member in survivors), owners

    os.kill(victim.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    results = await asyncio.wait_for(
        asyncio.gather(*(seat.playing for seat in seats if seat.playing is not None)), 180
    )

    # Every table finished its deal, with its players where they sat.
    for seat, result in zip(seats, results, strict=True):
        assert seat.name in result["seat_players"].values()
    assert await seated(url, room_ids) == before
    # The moved tables' players came back through the proxy to the new owner.
    after = await lease_owners(url)
    for seat in seats:
        if seat.room_id in moved:
            assert len(seat.links) >= 2, f"{seat.name} never lost their link"
            assert after[seat.room_id] != owners[seat.room_id]
            assert not owned_by({seat.room_id: after[seat.room_id]}, victim)
    # A reconnection refused on the way (1013 while the lease was the dead owner's) only
    # delays it; whether one happens depends on timing, so it is not asserted here
    # (test_lobby.py checks the "try again" answer itself).
    assert all(set(seat.refusals) <= {1013, 1012} for seat in seats), [s.refusals for s in seats]
    # Within one connection, no state was skipped after its first.
    for seat in seats:
        for link in seat.links:
            seqs = link.state_seqs()
            assert seqs, f"{seat.name}: a link without a state"
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (seat.name, seqs)
    # The database holds every result, each deal once, seqs without gap, payments to zero.
    checked = await check_consistency(url, room_ids)
    for seat, result in zip(seats, results, strict=True):
        # The deal the player saw end is the room's last. A moved table whose deal ended
        # just before the kill, its result not yet sent, reopens between deals and deals
        # the next one at once, as after any restart: its first deal is stored all the same.
        assert result["deal_no"] == checked[seat.room_id], (seat.name, checked)
        assert checked[seat.room_id] == 1 or (
            seat.room_id in moved and checked[seat.room_id] == 2
        ), (seat.name, checked)

    # Every moved table's player had a state from the new owner soon after the kill: its
    # liveness lock went with the process, so the lease did not have to run out.
    waits = sorted(
        next(
            link.first_state_at - killed_at
            for link in seat.links
            if link.opened_at > killed_at and link.first_state_at is not None
        )
        for seat in seats
        if seat.room_id in moved
    )
    print(
        f"\nfailover of {len(moved)} tables: first state under the new owner after "
        f"p50 {statistics.median(waits):.2f} s, max {waits[-1]:.2f} s"
    )
    assert waits[-1] < FAILOVER_BOUND_SECONDS, waits
