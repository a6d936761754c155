"""`TableSocketProtocol`'s direct text frames, through real uvicorn and a real client.

A connection without compression gets its messages written straight to the transport,
byte-identical to what the ASGI path would send, at every length class of the frame
header; one that negotiated compression is sent the ordinary way; and once the server
has sent a close, the shortcut refuses, so nothing follows the close frame.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from server.api.socket_protocol import SEND_TEXT_NOW, TableSocketProtocol, text_frame
from server.api.ws import SocketConnection
from tests.live import ServerThread, free_port

# Payload lengths either side of the 7-bit, 16-bit and 64-bit length encodings.
LENGTHS = (0, 1, 125, 126, 127, 65_535, 65_536, 70_000)


def message_of(length: int) -> str:
    """`length` bytes of UTF-8; the longer ones start with a character of two bytes."""
    return "é" + "x" * (length - 2) if length >= 2 else "x" * length


async def sender(websocket: WebSocket) -> None:
    """Push one message of each length through `SocketConnection`, noting which ones the
    shortcut took, then the notes, then close."""
    await websocket.accept()
    extensions = websocket.scope.get("extensions", {})
    shortcut = extensions.get(SEND_TEXT_NOW)
    assert shortcut is not None, "serve's protocol offers the shortcut"
    taken: list[bool] = []

    def noting(text: str) -> bool:
        done = bool(shortcut(text))
        taken.append(done)
        return done

    extensions[SEND_TEXT_NOW] = noting
    connection = SocketConnection(websocket, player_index=None)
    for length in LENGTHS:
        connection.push(message_of(length))
    connection.push(json.dumps({"taken": list(taken)}))
    connection.close(1000, "done")
    await connection.finished()
    websocket.scope["test.after_close"] = shortcut("late")


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[int, list[dict[str, Any]]]]:
    scopes: list[dict[str, Any]] = []

    async def endpoint(websocket: WebSocket) -> None:
        scopes.append(websocket.scope)
        await sender(websocket)

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    port = free_port()
    server = ServerThread(
        uvicorn.Config(app, port=port, ws=TableSocketProtocol, log_level="warning")
    )
    server.start()
    yield port, scopes
    server.stop()


async def received(port: int, compression: str | None) -> list[str]:
    texts = []
    async with connect(f"ws://127.0.0.1:{port}/ws", compression=compression, max_size=None) as ws:
        async for text in ws:
            texts.append(text)
    return texts


def test_frames_of_every_length_class() -> None:
    for length in LENGTHS:
        payload = b"y" * length
        frame = text_frame(payload)
        assert frame[0] == 0x81 and frame.endswith(payload)
        header = len(frame) - length
        assert header == (2 if length < 126 else 4 if length < 65_536 else 10)


async def test_without_compression_every_message_goes_straight_to_the_transport(
    live: tuple[int, list[dict[str, Any]]],
) -> None:
    port, scopes = live
    texts = await asyncio.wait_for(received(port, None), 10)
    assert texts[:-1] == [message_of(length) for length in LENGTHS]
    assert json.loads(texts[-1]) == {"taken": [True] * len(LENGTHS)}
    await asyncio.sleep(0.2)
    assert scopes[-1]["test.after_close"] is False  # never a frame after the close


async def test_with_compression_the_ordinary_path_sends_the_same_messages(
    live: tuple[int, list[dict[str, Any]]],
) -> None:
    port, _ = live
    texts = await asyncio.wait_for(received(port, "deflate"), 10)
    assert texts[:-1] == [message_of(length) for length in LENGTHS]
    assert json.loads(texts[-1]) == {"taken": [False] * len(LENGTHS)}
