"""SIGKILL a process mid-log: every action it was told was committed is still there."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from server.store import apply_migrations, open_store

REPO = Path(__file__).resolve().parents[2]

# The writer: four tables appending concurrently; a seq is printed only once
# `append_action` has returned, i.e. once the store says it is committed.
WRITER = """
import asyncio, sys
from datetime import UTC, datetime
from server.store import open_store

async def main(url):
    store = await open_store(url)
    now = datetime.now(UTC)
    await store.create_room("crash", "hk", {}, now)
    deal_ids = [await store.start_deal("crash", 1, n, "hk", {}, n, {"E": 0}, now, 300.0) for n in range(4)]
    print("ready", *deal_ids, flush=True)

    async def table(deal_id):
        seq = 0
        while True:
            await store.append_action(deal_id, seq, "E", {"type": "discard", "tile": "1p", "seq": seq},
                                      datetime.now(UTC), False, None, 300.0 - seq)
            print(deal_id, seq, flush=True)
            seq += 1

    await asyncio.gather(*(table(d) for d in deal_ids))

asyncio.run(main(sys.argv[1]))
"""


async def test_acknowledged_actions_survive_sigkill(database_url: str) -> None:
    apply_migrations(database_url)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, database_url],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    acknowledged: dict[int, int] = {}
    try:
        assert writer.stdout is not None
        first = await asyncio.to_thread(writer.stdout.readline)
        assert first.startswith("ready"), first
        deal_ids = [int(word) for word in first.split()[1:]]
        while sum(acknowledged.values()) < 200:
            line = await asyncio.to_thread(writer.stdout.readline)
            assert line, "the writer stopped early"
            deal_id, seq = map(int, line.split())
            acknowledged[deal_id] = seq + 1
        os.kill(writer.pid, signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait(timeout=30)
        if writer.stdout is not None:
            writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL

    store = await open_store(database_url)
    try:
        [room] = await store.load_open_rooms()
        assert room.open_deal is not None
        for deal_id in deal_ids:
            logged = await store.count_actions(deal_id)
            # Everything acknowledged is there; a few more may have committed unacknowledged.
            assert logged >= acknowledged.get(deal_id, 0)
        # The open deal's log (the latest deal) is whole: seqs 0..n-1 with nothing missing.
        actions = room.open_deal.actions
        assert [a.seq for a in actions] == list(range(len(actions)))
        assert all(a.action["seq"] == a.seq for a in actions)
    finally:
        await store.close()
