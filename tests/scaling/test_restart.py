"""One `serve` on Postgres, SIGKILLed mid-deal and started again: its old leases belong to
a dead process (their liveness lock went with it), so the new process takes them at once
and its players get their first state within a second of its readiness, not a lease later."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.faults.consistency import check_consistency
from tests.live import free_port
from tests.pg import drop_database, postgres_url_or_skip
from tests.scaling.cluster import CLUSTER_SETTINGS
from tests.scaling.seats import Seat, open_tables
from tests.serve import ServerProcess, serve_command, server_environment

TABLES = 4
# The target is 1 s; the margin is for a loaded machine (two cores, other test runs).
WITHIN_SECONDS = 2.0
# Players knock every 0.2 s while the server is down, so the wait measured is the
# server's, not a back-off's.
KNOCK = (0.2,)


def test_a_lone_server_restarted_after_sigkill_serves_its_tables_at_once(tmp_path: Path) -> None:
    url = postgres_url_or_skip()
    port = free_port()
    command = serve_command("--host", "127.0.0.1", "--port", str(port), "--database-url", url)
    env = server_environment(**{**CLUSTER_SETTINGS, "MAHJONG_BOT_DELAY": "0.25"})
    first = ServerProcess(command, env, tmp_path / "first.log")
    second: ServerProcess | None = None
    try:
        first.wait_for(f"http://127.0.0.1:{port}/healthz")
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"

        async def crash_and_restart() -> tuple[list[Seat], float, float]:
            nonlocal second
            seats = await open_tables(base, ws_base, TABLES, retries=KNOCK)
            deadline = time.monotonic() + 60
            while any(seat.states < 4 for seat in seats):
                assert time.monotonic() < deadline, "the tables did not get going"
                assert not any(seat.playing and seat.playing.done() for seat in seats)
                await asyncio.sleep(0.05)
            first.kill()
            killed_at = time.monotonic()
            second = ServerProcess(command, env, tmp_path / "second.log")
            await asyncio.to_thread(second.wait_for, f"{base}/healthz")
            ready_at = time.monotonic()
            await asyncio.wait_for(
                asyncio.gather(*(seat.playing for seat in seats if seat.playing)), 180
            )
            return seats, killed_at, ready_at

        seats, killed_at, ready_at = asyncio.run(crash_and_restart())
        waits = [
            next(link.first_state_at for link in seat.links if link.opened_at > killed_at)
            - ready_at
            for seat in seats
        ]
        print(f"\nrestart: first state {max(waits):.2f} s at most after readiness")
        assert max(waits) < WITHIN_SECONDS, waits
        output = second.output if second else ""
        for seat in seats:
            assert f"room {seat.room_id}: this server owns it now" in output
        checked = asyncio.run(check_consistency(url, [seat.room_id for seat in seats]))
        assert all(deals >= 1 for deals in checked.values()), checked
    finally:
        first.kill()
        if second is not None:
            assert "Traceback" not in second.stop(), second.output[-4000:]
        drop_database(url)
