"""`SocketConnection` against a real Starlette WebSocket whose ASGI `send` we control.

`push` only queues; the connection's one writer sends the outbox in order through the ASGI
send. While a send waits for the client (the transport paused), later messages queue
behind it; a client that falls too far behind, in messages or in text, is closed with
4408 right after the frame in flight, and what was queued is dropped.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket

from server.api.ws import CLOSE_TOO_SLOW, OUTBOX_CHARS, OUTBOX_LIMIT, SocketConnection


class Peer:
    """The ASGI side of one socket: records what was sent; `paused` holds sends back."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.open = asyncio.Event()
        self.open.set()
        self.broken = False

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(self, message: dict[str, Any]) -> None:
        await self.open.wait()
        if self.broken:
            raise OSError("connection reset")
        self.sent.append(message)

    def texts(self) -> list[str]:
        return [m["text"] for m in self.sent if m["type"] == "websocket.send"]


async def connected(peer: Peer) -> SocketConnection:
    websocket = WebSocket({"type": "websocket", "path": "/ws"}, peer.receive, peer.send)
    await websocket.accept()
    return SocketConnection(websocket, player_index=0)


TOO_SLOW = {"type": "websocket.close", "code": CLOSE_TOO_SLOW, "reason": "client too slow"}


async def test_push_only_queues_and_the_writer_sends_in_order() -> None:
    peer = Peer()
    connection = await connected(peer)
    connection.push("one")
    connection.push("two")
    assert peer.texts() == []  # nothing is sent from inside the room's call
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["one", "two"]
    connection.push("three")
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["one", "two", "three"]


async def test_a_paused_socket_keeps_the_order() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.open.clear()
    for text in ("a", "b", "c"):
        connection.push(text)
    await asyncio.sleep(0.01)
    assert peer.texts() == []
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["a", "b", "c"]
    connection.push("d")
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["a", "b", "c", "d"]


async def test_a_client_too_many_messages_behind_is_closed_after_the_frame_in_flight() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.open.clear()
    connection.push("in flight")
    await asyncio.sleep(0)  # the writer takes it and waits on the paused socket
    for index in range(OUTBOX_LIMIT + 50):
        connection.push(str(index))
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["in flight"]
    assert peer.sent[-1] == TOO_SLOW
    connection.push("late")
    await asyncio.sleep(0.01)
    assert peer.texts() == ["in flight"]


async def test_a_client_too_much_text_behind_is_closed_too() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.open.clear()
    connection.push("in flight")
    await asyncio.sleep(0)
    big = "x" * (OUTBOX_CHARS // 3)
    for _ in range(3):
        connection.push(big)  # three fit the cap exactly
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["in flight", big, big, big]
    assert peer.sent[-1]["type"] != "websocket.close"
    peer.open.clear()
    connection.push("in flight again")
    await asyncio.sleep(0)
    for _ in range(4):
        connection.push(big)  # the fourth passes the cap
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == ["in flight", big, big, big, "in flight again"]
    assert peer.sent[-1] == TOO_SLOW


async def test_close_goes_out_after_the_messages_pushed_before_it() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.open.clear()
    connection.push("last words")
    connection.close(1000, "bye")
    connection.push("after the close")
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    assert [m.get("text", m.get("code")) for m in peer.sent[1:]] == ["last words", 1000]


async def test_a_peer_that_went_away_drops_later_messages_without_raising() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.broken = True
    connection.push("lost")
    connection.push("also lost")
    await asyncio.wait_for(connection.finished(), 2)
    peer.broken = False
    connection.push("not sent either")
    connection.close(1000, "bye")
    await asyncio.wait_for(connection.finished(), 2)
    assert peer.texts() == []
    assert [m["type"] for m in peer.sent] == ["websocket.accept"]


async def test_finished_returns_at_once_with_nothing_to_send() -> None:
    peer = Peer()
    connection = await connected(peer)
    await asyncio.wait_for(connection.finished(), 0.5)
    connection.push("x")
    await asyncio.wait_for(connection.finished(), 2)
    await asyncio.wait_for(connection.finished(), 0.5)  # idle writer: nothing pending
    assert peer.texts() == ["x"]
