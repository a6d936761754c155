"""`WS /ws/rooms/{room_id}`: a player's (or spectator's) live link to a table.

The socket layer only guards the door: it checks the token, caps message size and rate,
parses JSON, and forwards well-formed commands to the room's actor. It never touches the
table itself. Outgoing messages go through a bounded queue drained by a writer task, so a
slow client can never hold up the actor; one that falls too far behind is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from server.rooms import commands as cmd
from server.rooms.manager import RoomManager, RoomNotFoundError
from server.rooms.messages import error_message

log = logging.getLogger(__name__)
router = APIRouter()

MAX_MESSAGE_BYTES = 8 * 1024
RATE_BURST = 40
RATE_PER_SECOND = 20.0
FLOOD_CLOSE_AFTER = 200
OUTBOX_LIMIT = 512

CLOSE_BAD_TOKEN = 4401
CLOSE_FOREIGN_TOKEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_FLOOD = 4429


class SocketConnection:
    """A room's view of one WebSocket: queued sends and a close request (see `commands.Connection`)."""

    def __init__(self, websocket: WebSocket, player_index: int | None) -> None:
        self.websocket = websocket
        self.player_index = player_index
        self._outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self._closing = False

    def push(self, text: str) -> None:
        """Queue a message; a client too far behind is closed instead of buffering forever."""
        if self._closing:
            return
        if self._outbox.qsize() >= OUTBOX_LIMIT:
            self.close(CLOSE_TOO_SLOW, "client too slow")
            return
        self._outbox.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued have gone out."""
        if not self._closing:
            self._closing = True
            self._outbox.put_nowait((code, reason))

    async def write_loop(self) -> None:
        """Send queued messages in order until a close request."""
        while True:
            item = await self._outbox.get()
            if isinstance(item, tuple):
                code, reason = item
                with contextlib.suppress(Exception):
                    await self.websocket.close(code, reason)
                return
            try:
                await self.websocket.send_text(item)
            except Exception:  # the peer went away; the reader notices and disconnects
                return


class RateLimit:
    """A token bucket: `RATE_BURST` messages at once, refilled at `RATE_PER_SECOND`.

    `flood` counts refused messages and drains at the same rate, so a client that keeps
    sending much faster than allowed piles it up and is closed, while one that overshoots
    briefly (or only slightly) just gets `rate_limited` errors.
    """

    def __init__(self) -> None:
        self.tokens = float(RATE_BURST)
        self.flood = 0.0
        self.updated = time.monotonic()

    def allow(self) -> bool:
        """Take one message from the bucket, if there is one."""
        now = time.monotonic()
        elapsed = now - self.updated
        self.tokens = min(RATE_BURST, self.tokens + elapsed * RATE_PER_SECOND)
        self.flood = max(0.0, self.flood - elapsed * RATE_PER_SECOND)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.flood += 1
        return False


async def _refuse_connection(websocket: WebSocket, code: int, reason: str) -> None:
    # Accept first so the browser sees our close code (a refused handshake shows only 403).
    await websocket.accept()
    await websocket.close(code, reason)


def _valid_id(message_id: Any) -> bool:
    if message_id is None or isinstance(message_id, bool):
        return message_id is None
    if isinstance(message_id, int | float):
        return True
    return isinstance(message_id, str) and len(message_id) <= 64


@router.websocket("/ws/rooms/{room_id}")
async def table_socket(websocket: WebSocket, room_id: str) -> None:
    """Check the token, join the room's broadcasts, and forward messages until the link ends."""
    manager: RoomManager = websocket.app.state.rooms
    token = websocket.query_params.get("token") or None
    try:
        actor = manager.get(room_id)
    except RoomNotFoundError:
        await _refuse_connection(websocket, CLOSE_NO_ROOM, "no such room")
        return
    player_index = None
    if token is not None:
        player = actor.player_for_token(token)
        if player is None:
            foreign = manager.token_room(token) is not None
            await _refuse_connection(
                websocket,
                CLOSE_FOREIGN_TOKEN if foreign else CLOSE_BAD_TOKEN,
                "token of another room" if foreign else "unknown token",
            )
            return
        player_index = player.player_index
    await websocket.accept()
    connection = SocketConnection(websocket, player_index)
    writer = asyncio.create_task(connection.write_loop())
    await actor.queue.put(cmd.Connect(connection))
    try:
        await _read_loop(websocket, connection, actor.queue)
    finally:
        await actor.queue.put(cmd.Disconnect(connection))
        connection.close(1000, "bye")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(writer, timeout=2)


async def _read_loop(
    websocket: WebSocket, connection: SocketConnection, queue: asyncio.Queue[Any]
) -> None:
    rate = RateLimit()
    while websocket.application_state == WebSocketState.CONNECTED:
        try:
            frame = await websocket.receive()
        except RuntimeError:  # already closed from our side
            return
        if frame["type"] == "websocket.disconnect":
            return
        if not rate.allow():
            if rate.flood >= FLOOD_CLOSE_AFTER:
                connection.close(CLOSE_FLOOD, "too many messages")
                return
            connection.push(error_message("rate_limited", "too many messages; slow down"))
            continue
        text = frame.get("text")
        if text is None:
            connection.push(error_message("bad_json", "messages must be JSON text frames"))
            continue
        if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
            connection.push(
                error_message(
                    "message_too_large", f"messages are capped at {MAX_MESSAGE_BYTES} bytes"
                )
            )
            continue
        command = parse_client_message(text, connection)
        if isinstance(command, str):
            continue  # refused; the error is already queued
        if command is not None:
            await queue.put(command)


def parse_client_message(text: str, connection: SocketConnection) -> Any:
    """Turn one client frame into a room command, or push the error and return a marker string."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        connection.push(error_message("bad_json", "the message is not valid JSON"))
        return "refused"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        connection.push(
            error_message("bad_message", "a message is a JSON object with a string 'type'")
        )
        return "refused"
    message_id = message.get("id")
    if not _valid_id(message_id):
        connection.push(
            error_message(
                "bad_message", "'id' must be a string of at most 64 characters or a number"
            )
        )
        return "refused"
    kind = message["type"]
    if kind == "action":
        if "action" not in message:
            connection.push(
                error_message("bad_action", "an action message needs 'action'", message_id)
            )
            return "refused"
        return cmd.PlayerAction(connection, message["action"], message_id)
    if kind == "next_deal":
        return cmd.NextDealReady(connection, message_id)
    if kind == "ping":
        connection.push(json.dumps({"type": "pong", "id": message_id}))
        return None
    connection.push(
        error_message("unknown_type", f"unknown message type {kind[:40]!r}", message_id)
    )
    return "refused"
