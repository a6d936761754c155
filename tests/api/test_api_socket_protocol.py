"""The socket layer `serve` runs, through real uvicorn, real sockets and a real client.

`SocketConnection` sends every message, at every length class of the frame header, intact
and in order, with compression off (a client's permessage-deflate offer is declined) and
on (it is accepted, and the frames are compressed). A client that stops reading makes TCP
push back: one that is merely behind gets what was sent before, then close 4408; one that
never reads again is cut off by the protocol, and the app sees the disconnect.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.api.socket_protocol import table_socket_protocol, uvicorn_socket_options
from server.api.ws import CLOSE_TOO_SLOW, SocketConnection
from server.app import WS_MAX_SIZE
from tests.live import ServerThread, free_port

# Payload lengths either side of the 7-bit, 16-bit and 64-bit length encodings.
LENGTHS = (0, 1, 125, 126, 127, 65_535, 65_536, 70_000)
# Enough to fill the loopback's buffers many times over, 8 KB at a time.
FLOOD_MESSAGES = 6_000
FLOOD_TEXT = "x" * 8_000


def message_of(length: int) -> str:
    """`length` bytes of UTF-8; the longer ones start with a character of two bytes."""
    return "é" + "x" * (length - 2) if length >= 2 else "x" * length


class Table:
    """What the server side of one test saw, shared with the test's thread."""

    def __init__(self) -> None:
        self.pushed = threading.Event()
        self.done = threading.Event()
        self.last_receive: dict[str, Any] = {}


async def every_length(websocket: WebSocket, table: Table) -> None:
    await websocket.accept()
    connection = SocketConnection(websocket, player_index=None)
    for length in LENGTHS:
        connection.push(message_of(length))
    connection.close(1000, "done")
    await connection.finished()
    table.done.set()


async def flood(websocket: WebSocket, table: Table) -> None:
    """Push numbered messages to a client that does not read, then wait for the end."""
    await websocket.accept()
    connection = SocketConnection(websocket, player_index=None)
    for index in range(FLOOD_MESSAGES):
        connection.push(f"{index}:{FLOOD_TEXT}")
        await asyncio.sleep(0)  # the writer's turn: it runs until TCP pushes back
    table.pushed.set()
    table.last_receive = dict(await websocket.receive())  # the close, or the cut-off
    await connection.finished()
    table.done.set()


@pytest.fixture
def serve() -> Iterator[Callable[..., tuple[int, Table]]]:
    """Start uvicorn with `serve`'s socket options around one endpoint."""
    servers: list[ServerThread] = []

    def start(
        endpoint: Callable[[WebSocket, Table], Any], *, compression: bool, stuck_seconds: float = 20
    ) -> tuple[int, Table]:
        table = Table()

        async def route(websocket: WebSocket) -> None:
            await endpoint(websocket, table)

        options = uvicorn_socket_options(
            None,
            compression=compression,
            max_size=WS_MAX_SIZE,
            ping_interval=10,
            ping_timeout=10,
        )
        options["ws"] = table_socket_protocol(stuck_seconds)
        port = free_port()
        server = ServerThread(
            uvicorn.Config(
                Starlette(routes=[WebSocketRoute("/ws", route)]),
                port=port,
                log_level="warning",
                **options,
            )
        )
        server.start()
        servers.append(server)
        return port, table

    yield start
    for server in servers:
        server.stop()


def negotiated(socket_: ClientConnection) -> str | None:
    return socket_.response.headers.get("Sec-WebSocket-Extensions") if socket_.response else None


async def read_all(socket_: ClientConnection) -> list[str]:
    texts = []
    try:
        async for text in socket_:
            texts.append(str(text))
    except ConnectionClosed:
        pass
    return texts


async def wait_for(event: threading.Event, seconds: float = 20) -> bool:
    return await asyncio.to_thread(event.wait, seconds)


@pytest.mark.parametrize("client_offers", ["deflate", None])
async def test_compression_off_declines_the_offer_and_sends_every_message_intact(
    serve: Callable[..., tuple[int, Table]], client_offers: str | None
) -> None:
    port, table = serve(every_length, compression=False)
    url = f"ws://127.0.0.1:{port}/ws"
    async with connect(url, compression=client_offers, max_size=None) as socket_:
        assert negotiated(socket_) is None
        texts = await asyncio.wait_for(read_all(socket_), 10)
    assert texts == [message_of(length) for length in LENGTHS]
    assert socket_.close_code == 1000
    assert await wait_for(table.done)


async def test_compression_on_accepts_the_offer_and_sends_every_message_intact(
    serve: Callable[..., tuple[int, Table]],
) -> None:
    port, _ = serve(every_length, compression=True)
    url = f"ws://127.0.0.1:{port}/ws"
    async with connect(url, compression="deflate", max_size=None) as socket_:
        assert (negotiated(socket_) or "").startswith("permessage-deflate")
        texts = await asyncio.wait_for(read_all(socket_), 10)
    assert texts == [message_of(length) for length in LENGTHS]
    async with connect(url, compression=None, max_size=None) as plain:
        assert negotiated(plain) is None  # a client that offers nothing gets plain frames
        assert await asyncio.wait_for(read_all(plain), 10) == texts


async def test_a_client_that_falls_behind_gets_what_was_sent_then_4408(
    serve: Callable[..., tuple[int, Table]],
) -> None:
    port, table = serve(flood, compression=False)
    # A queue of one message: past it the client stops reading its socket (TCP pushes back).
    url = f"ws://127.0.0.1:{port}/ws"
    async with connect(url, max_size=None, max_queue=1) as socket_:
        assert await wait_for(table.pushed), "the server pushed everything without stalling"
        texts = await asyncio.wait_for(read_all(socket_), 30)
    assert socket_.close_code == CLOSE_TOO_SLOW
    indices = [int(text.split(":", 1)[0]) for text in texts]
    assert indices == list(range(len(indices)))  # in order, none missing before the cut
    assert 0 < len(indices) < FLOOD_MESSAGES
    assert await wait_for(table.done)
    assert table.last_receive["type"] == "websocket.disconnect"


async def test_a_client_that_never_reads_again_is_cut_off(
    serve: Callable[..., tuple[int, Table]],
) -> None:
    port, table = serve(flood, compression=False, stuck_seconds=0.5)
    url = f"ws://127.0.0.1:{port}/ws"
    async with connect(url, max_size=None, max_queue=1) as socket_:
        # Not reading at all: the app must still hear that the link is gone.
        assert await wait_for(table.done), "the server kept waiting on a reader that is stuck"
        assert table.last_receive["type"] == "websocket.disconnect"
        texts = await asyncio.wait_for(read_all(socket_), 30)
    assert socket_.close_code == 1006  # aborted: no close frame could reach this reader
    assert len(texts) < FLOOD_MESSAGES
