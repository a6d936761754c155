"""The load benchmark's clients (bench/bench_load.py): every seat of every table a real
WebSocket client, run in worker processes apart from the server.

Each seat answers its `legal` at once (or at the table's pace) with a fixed policy. A table
whose game ends sits down in a fresh room. Latency runs from a discard being sent to the
last of the table's four players receiving the `state` that follows it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import time
from typing import Any

SEATS = 4  # Hong Kong tables: four WebSocket clients each
# BENCH_WS_COMPRESSION=deflate: clients offer permessage-deflate, as browsers do (the hall
# then runs with MAHJONG_WS_COMPRESSION=1; the bare server never compresses).
COMPRESSION = os.environ.get("BENCH_WS_COMPRESSION") or None
# BENCH_LATENCY_TRACE=dir: each client process writes "epoch-seconds latency-ms" per sample.
_trace_dir = os.environ.get("BENCH_LATENCY_TRACE")
TRACE = open(f"{_trace_dir}/latency-{os.getpid()}.txt", "w") if _trace_dir else None  # noqa: SIM115


def raise_fd_limit() -> None:
    """Lift the soft open-file limit to the hard one: 1,000 tables are 4,000 sockets a side."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def quick_choice(legal: list[dict[str, Any]], drawn: str | None) -> dict[str, Any]:
    """A fast scripted policy (the real bots take milliseconds a decision), shared with the
    live tests' clients: win, else pass a claim, else throw the drawn tile, else the first
    legal discard, else the first legal action."""
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
        self.errors: dict[str, int] = {}
        self.games = 0
        self.next_action_at = 0.0

    def new_game(self) -> None:
        """A fresh room: its seqs start again, and no discard is waiting for an answer."""
        self.seen = [0] * SEATS
        self.pending = []
        self.games += 1


async def open_table(http: Any, mode: str, index: int) -> list[str]:
    """A new room with four seated players; the WebSocket URL of each seat."""
    if mode == "hall":
        room = (
            await http.post(
                "/api/rooms", json={"variant": "hk", "rounds": 4, "deal_seconds": 36000}
            )
        ).json()
        room_id = room["room_id"]
        tokens = []
        for seat in range(SEATS):
            joined = await http.post(
                f"/api/rooms/{room_id}/join", json={"name": f"p{seat}", "invite": room["invite"]}
            )
            tokens.append(joined.json()["token"])
    else:
        room_id, tokens = (
            f"r{os.getpid()}-{index}-{time.monotonic_ns()}",
            [f"t{s}" for s in range(SEATS)],
        )
    return [f"/ws/rooms/{room_id}?token={token}" for token in tokens]


async def drive(
    mode: str, port: int, tables: int, seconds: float, pace: float, warmup: float
) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    boards = [Table() for _ in range(tables)]
    base = f"ws://127.0.0.1:{port}"

    async def connect_all(urls: list[str]) -> list[Any]:
        return list(
            await asyncio.gather(
                *(
                    connect(base + url, max_size=None, compression=COMPRESSION, open_timeout=120)
                    for url in urls
                )
            )
        )

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
        opening = asyncio.Semaphore(16)  # rooms set up a few at a time, not one by one

        async def open_one(index: int) -> list[Any]:
            # The deal starts once four players have joined, and a seat with no live
            # connection is played by its bot after the join grace: connect at once, or
            # bots play the first tables' deals while the later ones are set up.
            async with opening:
                return await connect_all(await open_table(http, mode, index))

        # Every socket is open before the clock starts, so setup never counts as load.
        first_sockets = await asyncio.gather(*(open_one(index) for index in range(tables)))
        measuring = {"on": False}
        stop_at = time.monotonic() + warmup + seconds
        cpu = {"start": 0.0, "end": 0.0, "from": 0.0, "to": 0.0}

        async def play(table: Table, seat: int, socket_: Any) -> None:
            """One seat until its game ends (return True) or the run does (return False)."""
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
                kind = message.get("type")
                if kind == "error":
                    code = str(message.get("code"))
                    table.errors[code] = table.errors.get(code, 0) + 1
                    continue
                if kind == "result" and message.get("game_over"):
                    return True
                if kind != "state":
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
                            if TRACE is not None:
                                TRACE.write(f"{time.time():.3f} {1000 * (now - sent):.1f}\n")
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
            return False

        async def run_table(index: int, sockets: list[Any]) -> None:
            """Play game after game: a finished game's table sits down in a fresh room."""
            table = boards[index]
            # Tables do not all act in the same instant: each starts its pace at a random
            # phase, as independent players would (otherwise every second brings one burst
            # of all the tables' actions at once).
            table.next_action_at = time.monotonic() + random.uniform(0, pace)
            while True:
                ended = await asyncio.gather(
                    *(play(table, seat, socket_) for seat, socket_ in enumerate(sockets))
                )
                await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
                if not all(ended) or time.monotonic() >= stop_at:
                    return
                table.new_game()
                sockets = await connect_all(await open_table(http, mode, index))

        lags: list[float] = []

        async def watch_own_loop() -> None:
            """This client process's own event-loop stalls while measuring: latency the
            clients add, to tell apart from the server's."""
            while time.monotonic() < stop_at:
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                if measuring["on"]:
                    lags.append(time.perf_counter() - before - 0.01)

        async def start_measuring() -> None:
            await asyncio.sleep(warmup)
            measuring["on"] = True
            cpu["start"], cpu["from"] = time.process_time(), time.time()
            await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
            cpu["end"], cpu["to"] = time.process_time(), time.time()

        outcomes = await asyncio.gather(
            start_measuring(),
            watch_own_loop(),
            *(run_table(index, sockets) for index, sockets in enumerate(first_sockets)),
            return_exceptions=True,
        )
    failures = [repr(outcome) for outcome in outcomes if isinstance(outcome, BaseException)]
    errors: dict[str, int] = {}
    for table in boards:
        for code, count in table.errors.items():
            errors[code] = errors.get(code, 0) + count
    return {
        "changes": sum(t.changes for t in boards),
        "latencies": [x for t in boards for x in t.latencies],
        "bytes": sum(t.bytes for t in boards),
        "messages": sum(t.messages for t in boards),
        "errors": errors,
        "failures": failures[:3],
        "stalled": sum(1 for t in boards if t.changes == 0),
        "games": sum(t.games for t in boards),
        "client_cpu_s": cpu["end"] - cpu["start"],
        "client_lags": lags,
        "window": (cpu["from"], cpu["to"]),  # wall clock, to find the server's CPU in it
    }


def worker(job: tuple[str, int, int, float, float, float]) -> dict[str, Any]:
    raise_fd_limit()
    # The clients are the measuring instrument: a collector pause in a client process
    # (thousands of sockets, Python's default thresholds) would show as server latency.
    # A run lasts minutes, so what cyclic garbage the clients make can wait.
    gc.disable()
    return asyncio.run(drive(*job))
