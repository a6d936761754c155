"""Several server processes behind HAProxy on one Postgres (docs/scaling.md): load and failover.

Load: the load benchmark's clients (bench/load_clients.py, every seat a real WebSocket
client answering at once) against one `serve` process directly, then through HAProxy in
front of 1 and 2 processes; prints actions/s and the action-to-last-update latency.

Failover: 3 processes behind HAProxy, tables with one scripted player each (bots in the
other seats), playing deal after deal; one process after another is killed with SIGKILL
(and restarted once its tables moved). For every table the killed process owned: the
time from the kill to the first `state` its player gets from the new owner. Prints p50,
p99 and max over every kill.

    .venv/bin/python bench/bench_scaling.py --tables 20 --seconds 10 --kills 20

Needs HAProxy (`apt-get install haproxy`) and a Postgres admin URL
(`MAHJONG_TEST_POSTGRES`, default postgresql+asyncpg://postgres@127.0.0.1:5432/postgres);
each run makes and drops its own database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import asyncpg
from load_clients import raise_fd_limit, worker
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_load import BENCH_LIMITS, free_port  # noqa: E402
from server.scaling.proxy import Backend, haproxy_config  # noqa: E402

ADMIN_URL = os.environ.get(
    "MAHJONG_TEST_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)
LEASE_SECONDS = "2"


# ----------------------------------------------------------------------------- the hall


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def new_database() -> str:
    name = f"mahjong_bench_{secrets.token_hex(4)}"

    async def create() -> None:
        connection = await asyncpg.connect(_dsn(ADMIN_URL))
        await connection.execute(f'CREATE DATABASE "{name}"')
        await connection.close()

    asyncio.run(create())
    return make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    name = make_url(url).database

    async def drop() -> None:
        connection = await asyncpg.connect(_dsn(ADMIN_URL))
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()

    asyncio.run(drop())


class Hall:
    """`processes` serve processes on `url`, and HAProxy in front unless `direct`."""

    def __init__(self, url: str, processes: int, direct: bool, logs: Path, **env: str) -> None:
        self.url, self.logs, self.env = url, logs, env
        self.ports = [free_port() for _ in range(processes)]
        self.servers: list[subprocess.Popen[bytes]] = [self.start(i) for i in range(processes)]
        for port in self.ports:
            wait_healthy(port)
        self.proxy: subprocess.Popen[bytes] | None = None
        self.port = self.ports[0]
        if not direct:
            self.port = free_port()
            backends = [
                Backend(f"hall{i}", f"127.0.0.1:{port}") for i, port in enumerate(self.ports)
            ]
            config = logs / f"haproxy-{self.port}.cfg"
            config.write_text(
                haproxy_config(f"127.0.0.1:{self.port}", backends, check_interval="300ms")
            )
            haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
            self.proxy = subprocess.Popen(
                [haproxy, "-db", "-f", str(config)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wait_healthy(self.port)

    def start(self, index: int) -> subprocess.Popen[bytes]:
        port = self.ports[index]
        log = open(self.logs / f"serve-{port}.log", "ab")  # noqa: SIM115 (the server's lifetime)
        command = [sys.executable, "-m", "server.cli.main", "serve", "--port", str(port)]
        return subprocess.Popen(
            [*command, "--database-url", self.url],
            cwd=REPO,
            env={**os.environ, **BENCH_LIMITS, "MAHJONG_LOG_LEVEL": "WARNING", **self.env},
            stdout=log,
            stderr=log,
        )

    def restart(self, index: int) -> None:
        self.servers[index] = self.start(index)
        wait_healthy(self.ports[index])

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
        for server in self.servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(timeout=10)


def wait_healthy(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"127.0.0.1:{port} did not answer /healthz")


# ----------------------------------------------------------------------------- load


def measure_load(
    label: str, processes: int, direct: bool, tables: int, seconds: float, logs: Path
) -> dict[str, Any]:
    url = new_database()
    hall = Hall(
        url,
        processes,
        direct,
        logs,
        MAHJONG_BOT_DELAY="0",
        MAHJONG_NEXT_DEAL_SECONDS="0",
        MAHJONG_WS_RATE_PER_SECOND="1000000",
        MAHJONG_WS_RATE_BURST="1000000",
        MAHJONG_LEASE_SECONDS=LEASE_SECONDS,
    )
    try:
        workers = 2
        per_worker = [
            tables // workers + (1 if i < tables % workers else 0) for i in range(workers)
        ]
        jobs = [("hall", hall.port, n, seconds, 0.0, 3.0 + tables * 0.05) for n in per_worker if n]
        with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
            parts = pool.map(worker, jobs)
    finally:
        hall.stop()
        drop_database(url)
    latencies = sorted(x for part in parts for x in part["latencies"])
    changes = sum(part["changes"] for part in parts)
    row = {
        "label": label,
        "tables": tables,
        "actions_per_s": changes / seconds,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "errors": {k: v for part in parts for k, v in part["errors"].items()},
    }
    print(
        f"load {label:16} tables={tables} actions/s={row['actions_per_s']:8.1f} "
        f"p50={row['p50_ms']:6.1f} ms p99={row['p99_ms']:6.1f} ms errors={row['errors']}",
        flush=True,
    )
    return row


# ----------------------------------------------------------------------------- failover


class Player:
    """One scripted seat that reconnects through the proxy whenever its link drops."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url
        self.first_states: list[float] = []  # when each link got its first state

    async def play(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        from bench.load_clients import quick_choice

        while True:
            try:
                async with connect(self.ws_url, max_size=None) as socket_:
                    first = True
                    answered: Any = None
                    async for text in socket_:
                        message = json.loads(text)
                        if message["type"] != "state":
                            continue
                        if first:
                            self.first_states.append(time.monotonic())
                            first = False
                        legal = message.get("legal") or []
                        key = (message.get("seq"), len(legal))
                        if legal and key != answered:
                            answered = key
                            choice = quick_choice(legal, message.get("drawn_tile"))
                            await socket_.send(json.dumps({"type": "action", "action": choice}))
            except (OSError, InvalidStatus, ConnectionClosed, TimeoutError):
                pass
            await asyncio.sleep(0.2)


async def owners_by_room(url: str) -> dict[str, str]:
    connection = await asyncpg.connect(_dsn(url))
    try:
        rows = await connection.fetch("SELECT room_id, owner FROM room_leases")
        return {row["room_id"]: row["owner"] for row in rows}
    finally:
        await connection.close()


async def failover_run(hall: Hall, url: str, tables: int, kills: int) -> list[float]:
    import httpx

    players: dict[str, Player] = {}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hall.port}", timeout=30) as http:
        for number in range(tables):
            created = (await http.post("/api/rooms", json={"variant": "hk", "rounds": 4})).json()
            room_id, invite = created["room_id"], created["invite"]
            seated = (
                await http.post(
                    f"/api/rooms/{room_id}/join", json={"name": f"p{number}", "invite": invite}
                )
            ).json()
            player = Player(
                f"ws://127.0.0.1:{hall.port}/ws/rooms/{room_id}?token={seated['token']}"
            )
            players[room_id] = player
            asyncio.get_running_loop().create_task(player.play())
            await http.post(f"/api/rooms/{room_id}/bots", json={"invite": invite})
    await asyncio.sleep(3)
    waits: list[float] = []
    for kill in range(kills):
        owners = await owners_by_room(url)
        index = kill % len(hall.servers)
        pid = hall.servers[index].pid
        moved = [room for room, owner in owners.items() if owner.split("-")[-2] == str(pid)]
        hall.servers[index].kill()
        killed_at = time.monotonic()
        hall.servers[index].wait()
        deadline = killed_at + 60
        pending = set(moved)
        while pending and time.monotonic() < deadline:
            for room in list(pending):
                after = [t for t in players[room].first_states if t > killed_at]
                if after:
                    waits.append(after[0] - killed_at)
                    pending.discard(room)
            await asyncio.sleep(0.02)
        print(
            f"kill {kill + 1}: {len(moved)} tables moved, {len(pending)} not back within 60 s",
            flush=True,
        )
        hall.restart(index)  # its rooms hash back to it: wait for the handovers to settle
        await asyncio.sleep(4)
    return waits


def measure_failover(tables: int, kills: int, logs: Path) -> list[float]:
    url = new_database()
    hall = Hall(
        url,
        3,
        False,
        logs,
        MAHJONG_BOT_DELAY="0.1",
        MAHJONG_NEXT_DEAL_SECONDS="1",
        MAHJONG_LEASE_SECONDS=LEASE_SECONDS,
    )
    try:
        return asyncio.run(failover_run(hall, url, tables, kills))
    finally:
        hall.stop()
        drop_database(url)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=20, help="tables of the load runs")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per load run")
    parser.add_argument("--kills", type=int, default=20, help="processes killed, one at a time")
    parser.add_argument("--failover-tables", type=int, default=9)
    parser.add_argument("--skip-load", action="store_true")
    args = parser.parse_args()
    raise_fd_limit()
    with tempfile.TemporaryDirectory() as folder:
        logs = Path(folder)
        if not args.skip_load:
            for label, processes, direct in (
                ("direct, 1 process", 1, True),
                ("proxy, 1 process", 1, False),
                ("proxy, 2 processes", 2, False),
            ):
                measure_load(label, processes, direct, args.tables, args.seconds, logs)
        if args.kills:
            waits = measure_failover(args.failover_tables, args.kills, logs)
            print(
                f"failover over {args.kills} kills, {len(waits)} tables moved (lease "
                f"{LEASE_SECONDS} s): first state under the new owner after "
                f"p50 {statistics.median(waits):.2f} s, p99 {percentile(waits, 0.99):.2f} s, "
                f"max {max(waits):.2f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
