"""A hint flood from one address, and what it costs an unrelated table (issue 25, point 2).

Starts `mahjong-hall serve` on a temporary SQLite file with the limits a real server has
(only the room, join and socket counts per address are lifted, to set the tables up),
then opens `--sockets` tables with hints on, each with one player on its own WebSocket
from 127.0.0.1, each asking `--rate` hints a second (under the 20 messages a second a
socket may send) and, with `--play`, answering each of its decisions a second after it
comes, as a player reading the hint would. Meanwhile a player at an unrelated table, on a
socket from 127.0.0.2 (another address, as far as the server can tell), sends a `ping`
every 100 ms and times its `pong`: the socket layer answers it at once, so its delay is
the time the server's event loop was busy with something else.

    .venv/bin/python bench/bench_hint_flood.py --sockets 16 --rate 19 --seconds 20 --play

Prints one line of figures: the unrelated table's ping p50, p99 and max, and the hints
answered and refused per second. `--rate 0 --play` is the control: the same tables
played at the same pace, asking no hints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench_load import cpu_seconds, free_port, listening
from load_clients import quick_choice
from websockets.asyncio.client import ClientConnection, connect

REPO = Path(__file__).resolve().parent.parent
FLOOD_ADDRESS = "127.0.0.1"
PROBE_ADDRESS = "127.0.0.2"
PING_EVERY = 0.1
# Only what setting up many tables from one address needs; the socket's message rate and
# every other limit stay as a real server has them.
SETUP_LIMITS = {
    "MAHJONG_ROOMS_PER_MINUTE": "1000000",
    "MAHJONG_JOINS_PER_MINUTE": "1000000",
    "MAHJONG_SOCKETS_PER_ADDRESS": "1000000",
    "MAHJONG_MAX_OPEN_ROOMS": "1000000",
}


def start_server(port: int, workdir: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **SETUP_LIMITS, "MAHJONG_LOG_LEVEL": "WARNING"}
    database = workdir / "flood.sqlite3"
    command = [sys.executable, "-m", "server.cli.main", "serve", "--port", str(port)]
    command += ["--database-url", f"sqlite+aiosqlite:///{database}"]
    log = open(workdir / "serve.log", "wb")  # noqa: SIM115 (the server's lifetime)
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
    return listening(process, port, "the hall")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def seated_table(base: str, name: str, hints: bool) -> tuple[str, str]:
    """A Hong Kong room with `name` seated and bots in the other seats: (room id, token)."""
    room = post(base, "/api/rooms", {"variant": "hk", "hints": hints})
    invite = room["invite"]
    seat = post(base, f"/api/rooms/{room['room_id']}/join", {"name": name, "invite": invite})
    post(base, f"/api/rooms/{room['room_id']}/bots", {"invite": invite})
    return room["room_id"], seat["token"]


class Counts:
    def __init__(self) -> None:
        self.hints = 0
        self.refused = 0
        self.other_errors: dict[str, int] = {}
        self.actions = 0
        self.pings: list[float] = []


async def open_socket(port: int, room_id: str, token: str, address: str) -> ClientConnection:
    url = f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={token}"
    return await connect(url, max_size=None, local_addr=(address, 0), open_timeout=30)


async def flooder(
    socket_: ClientConnection, rate: float, play: bool, counts: Counts, until: float
) -> None:
    """Ask `rate` hints a second; with `play`, answer each decision a second after it."""
    due: list[tuple[float, dict[str, Any]]] = []

    async def read() -> None:
        async for text in socket_:
            message = json.loads(text)
            kind = message["type"]
            if kind == "hint":
                counts.hints += 1
            elif kind == "error":
                code = message["code"]
                if code == "rate_limited":
                    counts.refused += 1
                else:
                    counts.other_errors[code] = counts.other_errors.get(code, 0) + 1
            elif kind == "state" and play and message.get("legal"):
                choice = quick_choice(message["legal"], message.get("drawn_tile"))
                due[:] = [(time.monotonic() + 1.0, choice)]

    reader = asyncio.create_task(read())
    try:
        while time.monotonic() < until:
            if rate:
                await socket_.send('{"type": "hint"}')
            if due and due[0][0] <= time.monotonic():
                _, choice = due.pop()
                await socket_.send(json.dumps({"type": "action", "action": choice}))
                counts.actions += 1
            await asyncio.sleep(1 / rate if rate else 0.05)
    finally:
        reader.cancel()
        await socket_.close()


async def prober(socket_: ClientConnection, counts: Counts, start: float, until: float) -> None:
    """Ping every `PING_EVERY` s; keep each round trip from `start` on, in ms."""
    sent: dict[int, float] = {}

    async def read() -> None:
        async for text in socket_:
            message = json.loads(text)
            if message["type"] == "pong" and message["id"] in sent:
                took = time.perf_counter() - sent.pop(message["id"])
                if time.monotonic() >= start:
                    counts.pings.append(took * 1000)

    reader = asyncio.create_task(read())
    number = 0
    try:
        while time.monotonic() < until:
            number += 1
            sent[number] = time.perf_counter()
            await socket_.send(json.dumps({"type": "ping", "id": number}))
            await asyncio.sleep(PING_EVERY)
        await asyncio.sleep(1.0)  # the last pongs
    finally:
        reader.cancel()
        await socket_.close()


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    tables = [seated_table(base, "Ana", hints=True) for _ in range(args.sockets)]
    probe_room, probe_token = seated_table(base, "Bo", hints=False)
    flood_sockets = [
        await open_socket(port, room_id, token, FLOOD_ADDRESS) for room_id, token in tables
    ]
    probe_socket = await open_socket(port, probe_room, probe_token, PROBE_ADDRESS)
    counts, probe = Counts(), Counts()
    now = time.monotonic()
    start, until = now + args.warmup, now + args.warmup + args.seconds
    await asyncio.sleep(0)
    began_hints = 0
    tasks = [
        asyncio.create_task(flooder(s, args.rate, args.play, counts, until)) for s in flood_sockets
    ]
    tasks.append(asyncio.create_task(prober(probe_socket, probe, start, until)))
    await asyncio.sleep(args.warmup)
    began_hints, began_refused = counts.hints, counts.refused
    await asyncio.gather(*tasks)
    pings = sorted(probe.pings)
    return {
        "sockets": args.sockets,
        "rate": args.rate,
        "play": args.play,
        "seconds": args.seconds,
        "pings": len(pings),
        "ping_p50_ms": round(statistics.median(pings), 1) if pings else None,
        "ping_p99_ms": round(pings[int(0.99 * (len(pings) - 1))], 1) if pings else None,
        "ping_max_ms": round(pings[-1], 1) if pings else None,
        "hints_per_s": round((counts.hints - began_hints) / args.seconds, 1),
        "refused_per_s": round((counts.refused - began_refused) / args.seconds, 1),
        "other_errors": counts.other_errors,
        "actions": counts.actions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=16)
    parser.add_argument("--rate", type=float, default=19.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--play", action="store_true", help="answer each decision after 1 s")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        port = free_port()
        server = start_server(port, Path(workdir))
        try:
            cpu_before = sum(cpu_seconds(server.pid))
            began = time.monotonic()
            figures = asyncio.run(run(args, port))
            elapsed = time.monotonic() - began
            figures["server_cpu_percent"] = round(
                100 * (sum(cpu_seconds(server.pid)) - cpu_before) / elapsed
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
