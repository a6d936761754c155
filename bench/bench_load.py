"""Load benchmark of the table server, with a bare `websockets` fan-out server as the baseline.

For each table count it starts a fresh server process (`mahjong-hall serve` on a temporary
SQLite file, or the bare baseline below), opens the tables from client worker processes
(every seat a real WebSocket client answering its `legal` at once, or at a set pace), and
reports table changes per second, the latency from an action to the last player's update
(p50/p99, measured on discards, the single-actor moves), and the server's memory per table.

The bare baseline receives an action and sends each of the four seats a personalised
message of the same size as the hall's, and does nothing else.

    .venv/bin/python bench/bench_load.py --tables 10,50,100 --seconds 15
    .venv/bin/python bench/bench_load.py --tables 100,300 --pace 1   # human pace: 1 action/table/s
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

REPO = Path(__file__).resolve().parent.parent
SEATS = 4  # Hong Kong tables: four WebSocket clients each
BARE_PAD = (
    1600  # filler so the bare server's messages match the hall's size (checked in the report)
)


# ----------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(mode: str, port: int, workdir: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "MAHJONG_BOT_DELAY": "0",
        "MAHJONG_NEXT_DEAL_SECONDS": "0",
        "MAHJONG_LOG_LEVEL": "WARNING",
    }
    if mode == "hall":
        database = workdir / f"bench-{port}.sqlite3"
        command = [sys.executable, "-m", "server.cli.main", "serve", "--port", str(port)]
        command += ["--database-url", f"sqlite+aiosqlite:///{database}"]
    else:
        command = [sys.executable, str(Path(__file__).resolve()), "--bare-server", str(port)]
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(0.3)
                return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{mode} server did not start")


def run_bare_server(port: int) -> None:
    """The baseline: receive an action, send four personalised messages, nothing else."""
    from websockets.asyncio.server import serve

    rooms: dict[str, dict[str, Any]] = {}

    async def broadcast(room: dict[str, Any]) -> None:
        room["seq"] += 1
        for seat, connection in enumerate(room["clients"]):
            message = {
                "type": "state",
                "seq": room["seq"],
                "me": seat,
                "phase": "discard",
                "wall_remaining": 1000 - room["seq"],
                "hand": [
                    "1p",
                    "2p",
                    "3p",
                    "4p",
                    "5p",
                    "6p",
                    "7p",
                    "8p",
                    "9p",
                    "1z",
                    "1z",
                    "2z",
                    "2z",
                ],
                "legal": [{"type": "discard", "seat": seat, "tile": "1p"}]
                if seat == room["turn"]
                else [],
                "pad": "x" * BARE_PAD,
            }
            await connection.send(json.dumps(message))

    async def handler(connection: Any) -> None:
        query = parse_qs(urlparse(connection.request.path).query)
        room_id = connection.request.path.split("?")[0].rsplit("/", 1)[-1]
        seat = int(query["token"][0][1:])
        room = rooms.setdefault(room_id, {"clients": [None] * SEATS, "seq": 0, "turn": 0})
        room["clients"][seat] = connection
        if all(room["clients"]):
            await broadcast(room)
        async for text in connection:
            message = json.loads(text)
            if message.get("type") == "action":
                room["turn"] = (room["turn"] + 1) % SEATS
                await broadcast(room)

    async def main() -> None:
        async with serve(handler, "127.0.0.1", port, max_size=2**20, compression=None):
            await asyncio.Future()

    asyncio.run(main())


# ----------------------------------------------------------------------------- clients


def quick_choice(legal: list[dict[str, Any]], drawn: str | None) -> dict[str, Any]:
    by_type = {action["type"]: action for action in reversed(legal)}
    for kind in ("win", "pass"):
        if kind in by_type:
            return by_type[kind]
    discards = [action for action in legal if action["type"] == "discard"]
    for action in discards:
        if action.get("tile") == drawn:
            return action
    return discards[0] if discards else legal[0]


class Table:
    """The four clients of one table, with the measurements of their actions."""

    def __init__(self) -> None:
        self.seen = [0] * SEATS
        self.pending: list[tuple[int, float]] = []  # (seq the discard answered, sent at)
        self.latencies: list[float] = []
        self.changes = 0
        self.bytes = 0
        self.messages = 0
        self.next_action_at = 0.0


async def drive(
    mode: str, port: int, tables: int, seconds: float, pace: float, warmup: float
) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    seats: list[tuple[Table, int, str]] = []
    boards: list[Table] = []
    pid = os.getpid()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        for index in range(tables):
            table = Table()
            boards.append(table)
            if mode == "hall":
                room = (
                    await http.post(
                        "/api/rooms", json={"variant": "hk", "rounds": 4, "deal_seconds": 36000}
                    )
                ).json()
                room_id = room["room_id"]
                tokens = [
                    (await http.post(f"/api/rooms/{room_id}/join", json={"name": f"p{s}"})).json()[
                        "token"
                    ]
                    for s in range(SEATS)
                ]
            else:
                room_id, tokens = f"r{pid}-{index}", [f"t{s}" for s in range(SEATS)]
            for seat, token in enumerate(tokens):
                seats.append(
                    (table, seat, f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={token}")
                )

    # Every socket is open before the clock starts, so setup never counts as load.
    sockets = await asyncio.gather(
        *(connect(url, max_size=None, compression=None, open_timeout=120) for _, _, url in seats)
    )
    measuring = {"on": False}
    stop_at = time.monotonic() + warmup + seconds

    async def play(table: Table, seat: int, socket_: Any) -> None:
        answered: tuple[Any, ...] | None = None
        while time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(
                    socket_.recv(), timeout=max(0.01, stop_at - time.monotonic())
                )
            except TimeoutError:
                break
            now = time.perf_counter()
            message = json.loads(text)
            if message.get("type") != "state":
                continue
            seq = message["seq"]
            if measuring["on"]:
                table.bytes += len(text)
                table.messages += 1
                if seat == 0:
                    table.changes += 1
            table.seen[seat] = seq
            if table.pending:
                lowest = min(table.seen)
                while table.pending and table.pending[0][0] < lowest:
                    _, sent = table.pending.pop(0)
                    if measuring["on"]:
                        table.latencies.append(now - sent)
            legal = message.get("legal") or []
            decision = (
                message.get("phase"),
                message.get("turn"),
                json.dumps(message.get("last_discard")),
                message.get("wall_remaining"),
                message.get("drawn_tile"),
                len(message.get("hand") or ()),
            )
            if legal and decision != answered:
                answered = decision
                action = quick_choice(legal, message.get("drawn_tile"))
                if pace > 0:
                    wait = table.next_action_at - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    table.next_action_at = time.monotonic() + pace
                if action["type"] == "discard":
                    table.pending.append((seq, time.perf_counter()))
                await socket_.send(json.dumps({"type": "action", "action": action}))

    async def start_measuring() -> None:
        await asyncio.sleep(warmup)
        measuring["on"] = True

    await asyncio.gather(
        start_measuring(),
        *(
            play(table, seat, socket_)
            for (table, seat, _), socket_ in zip(seats, sockets, strict=True)
        ),
        return_exceptions=True,
    )
    await asyncio.gather(*(socket_.close() for socket_ in sockets), return_exceptions=True)
    return {
        "changes": sum(t.changes for t in boards),
        "latencies": [x for t in boards for x in t.latencies],
        "bytes": sum(t.bytes for t in boards),
        "messages": sum(t.messages for t in boards),
    }


def worker(job: tuple[str, int, int, float, float, float]) -> dict[str, Any]:
    return asyncio.run(drive(*job))


# ----------------------------------------------------------------------------- the run


def measure(
    mode: str, tables: int, seconds: float, pace: float, workers: int, workdir: Path
) -> dict[str, Any]:
    port = free_port()
    server = start_server(mode, port, workdir)
    try:
        idle_rss = rss_kib(server.pid)
        warmup = 3.0 + tables * 0.02
        per_worker = [
            tables // workers + (1 if i < tables % workers else 0) for i in range(workers)
        ]
        jobs = [(mode, port, n, seconds, pace, warmup) for n in per_worker if n]
        with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
            pending = pool.map_async(worker, jobs)
            # The peak while the tables play (the tables all exist by then).
            busy_rss = idle_rss
            while not pending.ready():
                busy_rss = max(busy_rss, rss_kib(server.pid))
                pending.wait(0.5)
            parts = pending.get(timeout=60)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    latencies = sorted(x for part in parts for x in part["latencies"])
    changes = sum(part["changes"] for part in parts)
    messages = sum(part["messages"] for part in parts)
    return {
        "mode": mode,
        "tables": tables,
        "actions_per_s": changes / seconds,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "samples": len(latencies),
        "kib_per_table": (busy_rss - idle_rss) / tables,
        "mean_message_bytes": sum(part["bytes"] for part in parts) / max(1, messages),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", default="10,50,100", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per run")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between a table's actions (0: as fast as possible)",
    )
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--modes", default="hall,bare")
    parser.add_argument(
        "--database-dir",
        default=None,
        help="where the SQLite file goes (e.g. /dev/shm to take fsync out)",
    )
    parser.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_server:
        run_bare_server(args.bare_server)
        return 0
    rows = []
    with tempfile.TemporaryDirectory(dir=args.database_dir) as workdir:
        for tables in [int(n) for n in args.tables.split(",")]:
            for mode in args.modes.split(","):
                row = measure(mode, tables, args.seconds, args.pace, args.workers, Path(workdir))
                rows.append(row)
                print(
                    f"{mode:5} tables={tables:5} actions/s={row['actions_per_s']:8.1f} "
                    f"p50={row['p50_ms']:7.1f} ms p99={row['p99_ms']:7.1f} ms (n={row['samples']}) "
                    f"mem/table={row['kib_per_table']:7.1f} KiB msg={row['mean_message_bytes']:.0f} B",
                    flush=True,
                )
    by_tables: dict[int, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_tables.setdefault(row["tables"], {})[row["mode"]] = row
    for tables, modes in by_tables.items():
        if "hall" in modes and "bare" in modes and modes["bare"]["actions_per_s"]:
            ratio = modes["hall"]["actions_per_s"] / modes["bare"]["actions_per_s"]
            print(f"tables={tables}: hall/bare throughput ratio = {ratio:.2f}")
    crossing = [r["tables"] for r in rows if r["mode"] == "hall" and r["p99_ms"] > 100]
    print(
        f"first table count with hall p99 > 100 ms: {crossing[0] if crossing else 'none measured'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
