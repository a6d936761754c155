"""`SocketConnection` against a real Starlette WebSocket whose ASGI `send` we control.

A send that the socket takes at once goes out inside `push`, with no task; one that has
to wait for the client (the transport paused) is finished by a drainer, and later messages
queue behind it in order; a client that falls too far behind is closed with 4408.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket

from server.api.ws import CLOSE_TOO_SLOW, OUTBOX_LIMIT, SocketConnection


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


async def test_a_send_the_socket_takes_goes_out_inside_push() -> None:
    peer = Peer()
    connection = await connected(peer)
    connection.push("one")
    connection.push("two")
    assert peer.texts() == ["one", "two"]  # no await in between: written synchronously


async def test_a_paused_socket_keeps_the_order_and_then_writes_directly_again() -> None:
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
    assert peer.texts() == ["a", "b", "c", "d"]


async def test_a_client_too_far_behind_is_closed_after_what_it_was_sent() -> None:
    peer = Peer()
    connection = await connected(peer)
    peer.open.clear()
    for index in range(OUTBOX_LIMIT + 50):
        connection.push(str(index))
    peer.open.set()
    await asyncio.wait_for(connection.finished(), 2)
    texts = peer.texts()
    # The one in flight, then a full backlog; everything after the limit is dropped.
    assert texts == [str(index) for index in range(OUTBOX_LIMIT + 1)]
    assert peer.sent[-1] == {
        "type": "websocket.close",
        "code": CLOSE_TOO_SLOW,
        "reason": "client too slow",
    }
    connection.push("late")
    assert peer.texts() == texts


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
    peer.broken = False
    connection.push("not sent either")
    assert peer.texts() == []
