"""`WS /ws/rooms/{room_id}`: a player's (or spectator's) live link to a table.

The socket layer only guards the door: it checks the token, caps message size and rate,
parses JSON, and forwards well-formed commands to the room's actor. It never touches the
table itself. Outgoing messages are written at once when the socket takes them, else kept in
a bounded backlog drained by a task, so a slow client can never hold up the actor; one that
falls too far behind is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from server.api.address_limits import SocketCounts, client_key
from server.api.errors import error_response
from server.api.socket_protocol import SEND_TEXT_NOW
from server.rooms import commands as cmd
from server.rooms.clock import Clock
from server.rooms.manager import RoomManager, RoomNotFoundError
from server.rooms.messages import error_message
from server.rooms.ownership import RoomElsewhereError
from server.rooms.room_seats import CLOSE_SPECTATORS_FULL
from server.settings import RATE_BURST, RATE_PER_SECOND
from server.store import StoreUnavailable

log = logging.getLogger(__name__)
router = APIRouter()

MAX_MESSAGE_BYTES = 8 * 1024
FLOOD_CLOSE_AFTER = 200
OUTBOX_LIMIT = 512

# Another process serves the table right now (docs/scaling.md): reconnect shortly.
CLOSE_TRY_AGAIN = 1013
CLOSE_BAD_TOKEN = 4401
CLOSE_FOREIGN_TOKEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_FLOOD = 4429
# The host turned spectators off: only seated players may connect.
CLOSE_NO_SPECTATORS = 4431
# The host's controls (server/rooms/host_controls.py), sent by seated players.
HOST_COMMANDS = frozenset(
    ("pause", "resume", "end_game", "make_host", "remove_player", "offer_seat", "bot_level")
)
# A client over its open-socket cap may retry this many seconds later.
SOCKET_RETRY_SECONDS = 5


class SocketConnection:
    """A room's view of one WebSocket: ordered sends that never block the room, and closing.

    A send normally completes at once: the frame goes to the socket's buffer without the
    coroutine ever suspending, so `push` runs it right there, with no queue and no writer
    task. Only when the client reads slower than we write (the transport pauses) does the
    send suspend; then a drainer task finishes it, and later messages wait in a bounded
    backlog behind it, in order. A client that falls too far behind is closed.
    """

    def __init__(self, websocket: WebSocket, player_index: int | None) -> None:
        self.websocket = websocket
        self.player_index = player_index
        # Under `serve`, uvicorn's protocol offers a direct write (api/socket_protocol.py).
        extensions = websocket.scope.get("extensions") or {}
        self._send_text_now: Callable[[str], bool] | None = extensions.get(SEND_TEXT_NOW)
        self._backlog: deque[str | tuple[int, str]] = deque()
        self._drainer: asyncio.Task[None] | None = None
        self._closing = False
        self._gone = False  # a send failed: the peer went away, the reader will notice

    def push(self, text: str) -> None:
        """Send a message now, or queue it behind a send still waiting on the client."""
        if self._closing or self._gone:
            return
        if self._drainer is None:
            self._send_now(text)
        elif len(self._backlog) >= OUTBOX_LIMIT:
            self.close(CLOSE_TOO_SLOW, "client too slow")
        else:
            self._backlog.append(text)

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already pushed have gone out."""
        if self._closing:
            return
        self._closing = True
        if self._drainer is None:
            self._drainer = asyncio.create_task(self._close_now(code, reason))
        else:
            self._backlog.append((code, reason))

    async def finished(self) -> None:
        """Wait until every pushed message (and the close) has gone out."""
        while self._drainer is not None:
            await asyncio.shield(self._drainer)

    def _send_now(self, text: str) -> None:
        if self._send_text_now is not None and self._send_text_now(text):
            return  # written to the transport
        sending = self.websocket.send_text(text)
        try:
            blocker = sending.send(None)
        except StopIteration:
            return  # sent
        except Exception:
            self._gone = True
            return
        self._drainer = asyncio.create_task(self._drain(sending, blocker))

    async def _drain(self, sending: Coroutine[Any, Any, None], blocker: Any) -> None:
        try:
            await _run_suspended(sending, blocker)
            while self._backlog:
                item = self._backlog.popleft()
                if isinstance(item, tuple):
                    await self._close_now(*item)
                    return
                await self.websocket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer went away; the reader notices and disconnects
            self._gone = True
            self._backlog.clear()
        finally:
            if self._drainer is asyncio.current_task():
                self._drainer = None

    async def _close_now(self, code: int, reason: str) -> None:
        try:
            with contextlib.suppress(Exception):
                await self.websocket.close(code, reason)
        finally:
            if self._drainer is asyncio.current_task():
                self._drainer = None


async def _run_suspended(coroutine: Coroutine[Any, Any, None], blocker: Any) -> None:
    """Finish a coroutine that was started by hand and suspended on `blocker`.

    What an asyncio task would do: wait for the future it yielded, then resume it, until
    it returns (or raises, which propagates).
    """
    try:
        while True:
            if blocker is None:
                await asyncio.sleep(0)  # a bare yield: just give the loop a turn
            else:
                await asyncio.wait([blocker])
            blocker = coroutine.send(None)
    except StopIteration:
        return
    except asyncio.CancelledError:
        coroutine.close()
        raise


class RateLimit:
    """A token bucket: `RATE_BURST` messages at once, refilled at `RATE_PER_SECOND`.

    `flood` counts refused messages and drains at the same rate, so a client that keeps
    sending much faster than allowed piles it up and is closed, while one that overshoots
    briefly (or only slightly) just gets `rate_limited` errors.
    """

    def __init__(
        self, clock: Clock, burst: float = RATE_BURST, per_second: float = RATE_PER_SECOND
    ) -> None:
        self.clock = clock
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.flood = 0.0
        self.updated = clock.now()

    def allow(self) -> bool:
        """Take one message from the bucket, if there is one."""
        now = self.clock.now()
        # The wall clock may step back (NTP): that is no time elapsed, not negative time.
        elapsed = max(0.0, now - self.updated)
        self.tokens = min(self.burst, self.tokens + elapsed * self.per_second)
        self.flood = max(0.0, self.flood - elapsed * self.per_second)
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


async def _deny_handshake(websocket: WebSocket, status: int, code: str, message: str) -> None:
    """Refuse before the handshake completes, with an HTTP answer in the error shape."""
    answer = error_response(
        status, code, message, headers={"Retry-After": str(SOCKET_RETRY_SECONDS)}
    )
    if "websocket.http.response" in (websocket.scope.get("extensions") or {}):
        await websocket.send_denial_response(answer)
    else:
        await _refuse_connection(websocket, CLOSE_FLOOD, message)


@router.websocket("/ws/rooms/{room_id}")
async def table_socket(websocket: WebSocket, room_id: str) -> None:
    """Count the socket against its address's cap, then serve it."""
    sockets: SocketCounts | None = getattr(websocket.app.state, "sockets", None)
    address = client_key(websocket.scope)
    if sockets is not None and not sockets.open(address):
        await _deny_handshake(
            websocket,
            429,
            "too_many_sockets",
            f"one address may hold {sockets.per_address} table sockets open at once",
        )
        return
    try:
        await _serve_socket(websocket, room_id)
    finally:
        if sockets is not None:
            sockets.close(address)


async def _serve_socket(websocket: WebSocket, room_id: str) -> None:
    """Check the token, join the room's broadcasts, and forward messages until the link ends."""
    manager: RoomManager = websocket.app.state.rooms
    token = websocket.query_params.get("token") or None
    try:
        await manager.bring_here(room_id)
    except (RoomElsewhereError, StoreUnavailable):
        await _refuse_connection(websocket, CLOSE_TRY_AGAIN, "try again: the table is moving")
        return
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
    elif not actor.access.may_enter(websocket.query_params.get("invite") or None):
        await _refuse_connection(websocket, CLOSE_FOREIGN_TOKEN, "invite required")
        return
    elif not actor.access.spectators_allowed:
        await _refuse_connection(websocket, CLOSE_NO_SPECTATORS, "spectators are turned off")
        return
    elif actor.snapshot().spectators_full:
        # The actor checks again (connects may be queued); this spares it the work.
        await _refuse_connection(
            websocket, CLOSE_SPECTATORS_FULL, "the room has as many spectators as it takes"
        )
        return
    await websocket.accept()
    connection = SocketConnection(websocket, player_index)
    actor.tell(cmd.Connect(connection))
    try:
        await _read_loop(
            websocket,
            connection,
            actor.tell,
            RateLimit(
                websocket.app.state.socket_clock,
                websocket.app.state.ws_rate.burst,
                websocket.app.state.ws_rate.per_second,
            ),
        )
    finally:
        actor.tell(cmd.Disconnect(connection))
        connection.close(1000, "bye")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(connection.finished(), timeout=2)


async def _read_loop(
    websocket: WebSocket,
    connection: SocketConnection,
    tell: Callable[[cmd.Command], None],
    rate: RateLimit,
) -> None:
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
            tell(command)


def parse_client_message(text: str, connection: SocketConnection) -> Any:
    """Turn one client frame into a room command, or push the error and return a marker string."""
    try:
        message = orjson.loads(text)  # stricter than json: NaN and Infinity are refused too
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
    if kind == "hint":  # issue 18
        return cmd.HintRequest(connection, message_id)
    if kind in HOST_COMMANDS:
        return cmd.HostCommand(connection, kind, message, message_id)
    if kind == "ping":
        connection.push(json.dumps({"type": "pong", "id": message_id}))
        return None
    connection.push(
        error_message("unknown_type", f"unknown message type {kind[:40]!r}", message_id)
    )
    return "refused"
