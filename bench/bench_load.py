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

from load_clients import SEATS, raise_fd_limit, worker

REPO = Path(__file__).resolve().parent.parent
PROFILE_DIR = os.environ.get("BENCH_PROFILE_DIR")  # set: the hall runs under cProfile
PROFILE_SERVER = """
import cProfile, sys, time
from server.cli.main import main
output, sys.argv = sys.argv[1], ["mahjong-hall", *sys.argv[2:]]
profile = cProfile.Profile(time.thread_time)
try:
    profile.runcall(main)
finally:
    profile.dump_stats(output)
"""
# Filler so the bare server's messages match the hall's size (checked in the report).
BARE_PAD = 1975


# ----------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# Every client of the benchmark speaks from 127.0.0.1, so the per-address limits against
# abuse (docs/operations.md, "Limits") would refuse its thousands of sockets and rooms;
# it lifts them for its own server, and says so.
BENCH_LIMITS = {
    "MAHJONG_ROOMS_PER_MINUTE": "1000000",
    "MAHJONG_JOINS_PER_MINUTE": "1000000",
    "MAHJONG_SOCKETS_PER_ADDRESS": "1000000",
    "MAHJONG_MAX_OPEN_ROOMS": "1000000",
}


def start_server(mode: str, port: int, workdir: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        **BENCH_LIMITS,
        "MAHJONG_BOT_DELAY": "0",
        "MAHJONG_NEXT_DEAL_SECONDS": "0",
        "MAHJONG_LOG_LEVEL": "WARNING",
        # Flat-out clients send far more than the 20 messages/s a human may; the bare
        # server has no limit either, so lift it rather than measure the limiter.
        "MAHJONG_WS_RATE_PER_SECOND": "1000000",
        "MAHJONG_WS_RATE_BURST": "1000000",
        "MAHJONG_WS_COMPRESSION": "1" if os.environ.get("BENCH_WS_COMPRESSION") else "0",
    }
    if mode == "hall":
        database = workdir / f"bench-{port}.sqlite3"
        command = [sys.executable, "-m", "server.cli.main", "serve", "--port", str(port)]
        if PROFILE_DIR:
            # The main thread's CPU time, not wall time: on a busy machine a wall-clock
            # profile mostly shows where the server was preempted (e.g. in a socket write).
            output = Path(PROFILE_DIR) / f"hall-{port}.prof"
            command[1:3] = ["-c", PROFILE_SERVER, str(output)]
        command += ["--database-url", f"sqlite+aiosqlite:///{database}"]
    else:
        command = [sys.executable, str(Path(__file__).resolve()), "--bare-server", str(port)]
    keep = os.environ.get("BENCH_KEEP_LOGS")  # a directory: the logs outlive the run there
    log_dir = Path(keep) if keep and Path(keep).is_dir() else workdir
    log = open(log_dir / f"{mode}-{port}.log", "wb")  # noqa: SIM115 (the server's lifetime)
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
    if os.environ.get("BENCH_KEEP_LOGS"):
        print(f"{mode} server log: {log.name}", flush=True)
    return listening(process, port, mode)


def listening(process: subprocess.Popen[bytes], port: int, name: str) -> subprocess.Popen[bytes]:
    """`process` once it accepts connections on `port` (killed if it does not in 60 s)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(0.3)
                return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{name} server did not start")


def run_bare_server(port: int) -> None:
    """The baseline: receive an action, send four personalised messages, nothing else.

    As fast as a bare server gets, so the ratio is to the real limit: orjson (as the hall
    encodes) and uvloop (as the hall runs), the same message shape and size as the hall's.
    """
    import orjson
    import uvloop
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
            await connection.send(orjson.dumps(message).decode())

    async def handler(connection: Any) -> None:
        query = parse_qs(urlparse(connection.request.path).query)
        room_id = connection.request.path.split("?")[0].rsplit("/", 1)[-1]
        seat = int(query["token"][0][1:])
        room = rooms.setdefault(room_id, {"clients": [None] * SEATS, "seq": 0, "turn": 0})
        room["clients"][seat] = connection
        if all(room["clients"]):
            await broadcast(room)
        async for text in connection:
            message = orjson.loads(text)
            if message.get("type") == "action":
                room["turn"] = (room["turn"] + 1) % SEATS
                await broadcast(room)

    async def main() -> None:
        async with serve(handler, "127.0.0.1", port, max_size=2**20, compression=None):
            await asyncio.Future()

    uvloop.run(main())


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
            # The peak while the tables play (the tables all exist by then), and the
            # server's CPU time over the measured seconds (the clients start the clock
            # once every socket is open, so the window is found from their reports).
            busy_rss = idle_rss
            samples: list[tuple[float, tuple[float, float]]] = []
            while not pending.ready():
                busy_rss = max(busy_rss, rss_kib(server.pid))
                samples.append((time.time(), cpu_seconds(server.pid)))
                pending.wait(0.25)
            parts = pending.get(timeout=60)
    finally:
        # uvicorn re-raises the signal once shut down: SIGINT ends in KeyboardInterrupt,
        # which lets cProfile write its file, where SIGTERM would kill the process.
        server.send_signal(signal.SIGINT if PROFILE_DIR else signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    latencies = sorted(x for part in parts for x in part["latencies"])
    lags = [lag for part in parts for lag in part["client_lags"]]
    changes = sum(part["changes"] for part in parts)
    messages = sum(part["messages"] for part in parts)
    errors: dict[str, int] = {}
    for part in parts:
        for code, count in part["errors"].items():
            errors[code] = errors.get(code, 0) + count
    # The last `seconds` before the clients stopped: the measured window.
    # The server's CPU over the measured seconds only (not setup, nor the bots that take
    # over the seats once the clients hang up).
    start = min(part["window"][0] for part in parts)
    end = max(part["window"][1] for part in parts)
    window = [cpu for moment, cpu in samples if start <= moment <= end]
    span = [moment for moment, _ in samples if start <= moment <= end]
    user, system = (
        (window[-1][0] - window[0][0], window[-1][1] - window[0][1])
        if len(window) > 1
        else (float("nan"), float("nan"))
    )
    server_cpu = user + system
    sampled = (span[-1] - span[0]) if len(span) > 1 else float("nan")
    return {
        "mode": mode,
        "tables": tables,
        "actions_per_s": changes / seconds,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "samples": len(latencies),
        "kib_per_table": (busy_rss - idle_rss) / tables,
        "mean_message_bytes": sum(part["bytes"] for part in parts) / max(1, messages),
        "server_cpu_pct": 100 * server_cpu / sampled,
        "server_sys_pct": 100 * system / sampled,
        "server_cpu_us_per_action": 1e6 * server_cpu / max(1.0, changes * sampled / seconds),
        "client_cpu_pct": 100 * sum(part["client_cpu_s"] for part in parts) / seconds,
        "errors": errors,
        "stalled": sum(part["stalled"] for part in parts),
        "games": sum(part["games"] for part in parts),
        "failures": [f for part in parts for f in part["failures"]][:3],
        "client_lag_max_ms": 1000 * max(lags) if lags else float("nan"),
        "client_lag_over_20ms": sum(1 for lag in lags if lag > 0.02),
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
    raise_fd_limit()
    print(
        "limits lifted for the benchmark's own server (all its clients are 127.0.0.1): "
        + ", ".join(f"{name}={value}" for name, value in BENCH_LIMITS.items()),
        flush=True,
    )
    rows = []
    with tempfile.TemporaryDirectory(dir=args.database_dir) as workdir:
        for tables in [int(n) for n in args.tables.split(",")]:
            for mode in args.modes.split(","):
                row = measure(mode, tables, args.seconds, args.pace, args.workers, Path(workdir))
                rows.append(row)
                print(
                    f"{mode:5} tables={tables:5} actions/s={row['actions_per_s']:8.1f} "
                    f"p50={row['p50_ms']:7.1f} ms p99={row['p99_ms']:7.1f} ms (n={row['samples']}) "
                    f"mem/table={row['kib_per_table']:7.1f} KiB msg={row['mean_message_bytes']:.0f} B "
                    f"server CPU={row['server_cpu_pct']:.0f}% "
                    f"(sys {row['server_sys_pct']:.0f}%) "
                    f"({row['server_cpu_us_per_action']:.0f} us/action) "
                    f"clients CPU={row['client_cpu_pct']:.0f}% new games={row['games']} "
                    f"client stalls>20ms={row['client_lag_over_20ms']} "
                    f"(max {row['client_lag_max_ms']:.0f} ms)",
                    flush=True,
                )
                if row["errors"] or row["stalled"] or row["failures"]:
                    print(
                        f"      errors={row['errors']} stalled tables={row['stalled']} "
                        f"failures={row['failures']}",
                        flush=True,
                    )
    by_tables: dict[int, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_tables.setdefault(row["tables"], {})[row["mode"]] = row
    for tables, modes in by_tables.items():
        if "hall" in modes and "bare" in modes and modes["bare"]["actions_per_s"]:
            ratio = modes["hall"]["actions_per_s"] / modes["bare"]["actions_per_s"]
            print(f"tables={tables}: hall/bare throughput ratio = {ratio:.2f}")
    peaks = {
        mode: max((r["actions_per_s"] for r in rows if r["mode"] == mode), default=0.0)
        for mode in ("hall", "bare")
    }
    if args.pace == 0 and len(by_tables) > 1 and peaks["hall"] and peaks["bare"]:
        # Saturation: each server's best throughput over the table counts run (with few
        # tables a server can be bound by the round trip rather than its CPU).
        print(
            f"at saturation (best of each over the table counts): hall {peaks['hall']:.0f}, "
            f"bare {peaks['bare']:.0f} actions/s, ratio = {peaks['hall'] / peaks['bare']:.2f}"
        )
    crossing = [r["tables"] for r in rows if r["mode"] == "hall" and r["p99_ms"] > 100]
    print(
        f"first table count with hall p99 > 100 ms: {crossing[0] if crossing else 'none measured'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
