"""A real cluster for the scaling tests: `mahjong-hall cluster` (three `serve` processes on
one throwaway Postgres database behind a real HAProxy), and what the tests read from it."""

from __future__ import annotations

import re
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.settings import LEASE_SECONDS as DEFAULT_LEASE_SECONDS
from tests.live import free_port
from tests.serve import MAHJONG_HALL, ServerProcess, server_environment

# The default lease: a dead owner's rooms move at once (its liveness lock is gone), so
# failover no longer waits for the lease; only a frozen owner's rooms do.
LEASE_SECONDS = f"{DEFAULT_LEASE_SECONDS:g}"
# Quick bots and a short turn clock keep 30 tables' deals within the test's minutes; the
# next deal waits (one deal per table is what the tests check).
CLUSTER_SETTINGS = {
    "MAHJONG_LEASE_SECONDS": LEASE_SECONDS,
    "MAHJONG_BOT_DELAY": "0.03",
    "MAHJONG_BOT_LEVEL": "baseline",
    "MAHJONG_NEXT_DEAL_SECONDS": "3600",
    "MAHJONG_WS_RATE_PER_SECOND": "200",
    "MAHJONG_WS_RATE_BURST": "400",
    "MAHJONG_ROOMS_PER_MINUTE": "1000",
    "MAHJONG_JOINS_PER_MINUTE": "1000",
    "MAHJONG_SOCKETS_PER_ADDRESS": "1000",
    "MAHJONG_LOG_LEVEL": "INFO",
}
SERVER_LINE = re.compile(r"cluster: server (\d+) pid (\d+) on 127\.0\.0\.1:(\d+)")


def free_run(count: int) -> int:
    """The first of `count` consecutive free ports (the cluster's servers take a run)."""
    for _ in range(50):
        first = free_port()
        try:
            for port in range(first, first + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise AssertionError(f"no run of {count} free ports")


@dataclass(frozen=True)
class Member:
    """One server process of the cluster."""

    number: int
    pid: int
    port: int


class Cluster:
    """`mahjong-hall cluster --processes N` on `database_url`, started and read."""

    def __init__(self, database_url: str, log: Path, processes: int = 3, **settings: str) -> None:
        self.database_url = database_url
        self.port = free_port()
        first = free_run(processes)
        command = [
            MAHJONG_HALL,
            "cluster",
            "--processes",
            str(processes),
            "--port",
            str(self.port),
            "--first-port",
            str(first),
            "--check-interval",
            "300ms",
            "--database-url",
            database_url,
        ]
        self.process = ServerProcess(
            command, server_environment(**{**CLUSTER_SETTINGS, **settings}), log
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.members = self._wait_until_ready(processes)

    def _wait_until_ready(self, processes: int, seconds: float = 120) -> list[Member]:
        deadline = time.monotonic() + seconds
        while "cluster: ready" not in self.process.output:
            if self.process.returncode is not None or time.monotonic() > deadline:
                self.process.kill()
                raise AssertionError(f"the cluster did not start:\n{self.process.output}")
            time.sleep(0.1)
        members = [
            Member(int(number), int(pid), int(port))
            for number, pid, port in SERVER_LINE.findall(self.process.output)
        ]
        assert len(members) == processes, self.process.output
        return members

    @property
    def ws_base(self) -> str:
        """The proxy's WebSocket address."""
        return self.base.replace("http", "ws", 1)

    def stop(self) -> str:
        """SIGTERM to the launcher (it stops the servers, then the proxy); its output."""
        return self.process.stop(seconds=60)


async def lease_owners(database_url: str) -> dict[str, str]:
    """Room id -> the owner id of its lease (live or not)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT room_id, owner FROM room_leases"))
            return {row.room_id: row.owner for row in rows}
    finally:
        await engine.dispose()


def owned_by(owners: dict[str, str], member: Member) -> set[str]:
    """The rooms whose lease names `member`'s pid (an owner id is host-pid-random)."""
    return {room for room, owner in owners.items() if owner.split("-")[-2] == str(member.pid)}
