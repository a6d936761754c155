"""The socket send path alone: server CPU per message, from `SocketConnection.push` to the socket.

A table's actor pushes one message to each of its four seats per action and goes back to
the event loop; this does the same for `--tables` fake tables of four real WebSocket
clients (a separate process reads them), with messages the size of a hall `state`, at a
fixed pace the readers keep up with. It reports the CPU time of the server's event-loop
thread (`time.thread_time`, so neither the readers nor an idle loop count) per message
pushed, measured until every message has gone out. Nothing of the rooms runs: what is left
is `push`, the writer, Starlette's and uvicorn's send, the frame and the socket write.

    .venv/bin/python bench/bench_send_path.py --tables 25 --actions 2000

It runs uvicorn as `serve` does (`server.api.socket_protocol:TableSocketProtocol`,
compression off, uvloop), so the same command measures any version of those two modules.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))  # the checkout it is run from, before any installed copy

import uvicorn  # noqa: E402
import uvloop  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.routing import WebSocketRoute  # noqa: E402
from starlette.websockets import WebSocket  # noqa: E402

from server.api.socket_protocol import TableSocketProtocol  # noqa: E402
from server.api.ws import SocketConnection  # noqa: E402

SEATS = 4
STATE_BYTES = 2_150  # a hall `state` message (bench_load.py's `msg=`)


def state_text(action: int, seat: int) -> str:
    """A message of a `state`'s size, different for each action and seat."""
    head = json.dumps({"type": "state", "seq": action, "seat": seat, "pad": ""})
    return head[:-2] + "x" * (STATE_BYTES - len(head)) + '"}'


def read_tables(port: int, sockets: int, messages: int, ready: Any) -> None:
    """The readers: `sockets` clients, each reading until it has `messages`."""
    from websockets.asyncio.client import connect

    async def one() -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None, compression=None) as ws:
            for _ in range(messages):
                await ws.recv()

    async def every() -> None:
        tasks = [asyncio.ensure_future(one()) for _ in range(sockets)]
        ready.set()
        await asyncio.gather(*tasks)

    asyncio.run(every())


class SendPathRun:
    """The server side: waits for every seat, then plays the fake tables' pushes."""

    def __init__(self, tables: int, actions: int, pace: float) -> None:
        self.tables = tables
        self.actions = actions
        self.pace = pace
        self.connections: list[SocketConnection] = []
        self.all_in = asyncio.Event()
        self.result: dict[str, float] = {}

    async def seat(self, websocket: WebSocket) -> None:
        await websocket.accept()
        self.connections.append(SocketConnection(websocket, player_index=None))
        if len(self.connections) == self.tables * SEATS:
            self.all_in.set()
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass

    async def play(self) -> None:
        await self.all_in.wait()
        tables = [self.connections[i : i + SEATS] for i in range(0, len(self.connections), 4)]
        start_cpu, start_wall = time.thread_time(), time.perf_counter()
        for action in range(self.actions):
            for table in tables:
                for seat, connection in enumerate(table):
                    connection.push(state_text(action, seat))
            await asyncio.sleep(self.pace)  # the actors go back to the loop
        for connection in self.connections:
            await connection.finished()
        cpu, wall = time.thread_time() - start_cpu, time.perf_counter() - start_wall
        messages = self.actions * len(self.connections)
        self.result = {"us_per_message": cpu / messages * 1e6, "seconds": wall, "cpu": cpu}


def measure(tables: int, actions: int, pace: float) -> dict[str, float]:
    """One run: a fresh uvicorn, the readers in another process, the pushes timed."""
    from tests.live import free_port

    run = SendPathRun(tables, actions, pace)
    port = free_port()
    app = Starlette(routes=[WebSocketRoute("/ws", run.seat)])
    config = uvicorn.Config(
        app,
        port=port,
        log_level="warning",
        ws=TableSocketProtocol,
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    spawning = multiprocessing.get_context("spawn")  # a fork would inherit the running loop
    ready = spawning.Event()
    readers = spawning.Process(target=read_tables, args=(port, tables * SEATS, actions, ready))

    async def main() -> None:
        serving = asyncio.ensure_future(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        readers.start()
        await run.play()
        await asyncio.to_thread(readers.join, 60)
        server.should_exit = True
        await serving

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())
    return run.result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--actions", type=int, default=2000, help="pushes per seat")
    parser.add_argument("--pace", type=float, default=0.001, help="seconds between actions")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    figures = []
    for _ in range(args.runs):
        result = measure(args.tables, args.actions, args.pace)
        figures.append(result["us_per_message"])
        print(
            f"tables={args.tables} messages={args.actions * args.tables * SEATS} "
            f"server loop CPU {result['us_per_message']:.1f} us/message "
            f"({result['cpu']:.2f} s CPU in {result['seconds']:.1f} s)",
            flush=True,
        )
    print(f"median {statistics.median(figures):.1f} us/message over {args.runs} runs")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "send-path"
    sys.exit(main())
