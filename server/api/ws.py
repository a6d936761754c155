"""`WS /ws/rooms/{room_id}`: a player's (or spectator's) live link to a table.

The socket layer only guards the door: it checks the token, caps message size and rate,
parses JSON, and forwards well-formed commands to the room's actor. It never touches the
table itself. Outgoing messages go into a bounded outbox per connection that one writer
task sends, so a slow client can never hold up the actor; one that falls too far behind is
closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from server.api.address_limits import AddressBuckets, SocketCounts, client_key
from server.api.errors import error_response
from server.api.room_access import answered_subprotocol, presented_invite, presented_token
from server.rooms import commands as cmd
from server.rooms.clock import Clock
from server.rooms.manager import RoomManager, RoomNotFoundError
from server.rooms.messages import error_message
from server.rooms.ownership import RoomElsewhereError
from server.rooms.room_seats import CLOSE_NO_SPECTATORS, CLOSE_SPECTATORS_FULL
from server.settings import RATE_BURST, RATE_PER_SECOND
from server.store import StoreUnavailable

log = logging.getLogger(__name__)
router = APIRouter()

MAX_MESSAGE_BYTES = 8 * 1024
FLOOD_CLOSE_AFTER = 200
# A client this far behind (about 1 MiB of state messages) is closed with 4408.
OUTBOX_LIMIT = 512
OUTBOX_CHARS = 1 << 20

# Another process serves the table right now (docs/scaling.md): reconnect shortly.
CLOSE_TRY_AGAIN = 1013
CLOSE_BAD_TOKEN = 4401
CLOSE_FOREIGN_TOKEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_FLOOD = 4429
# The host's controls (server/rooms/host_controls.py), sent by seated players.
HOST_COMMANDS = frozenset(
    (
        "pause",
        "resume",
        "end_game",
        "make_host",
        "remove_player",
        "offer_seat",
        "bot_level",
        "spectators",
    )
)
# A client over its open-socket cap may retry this many seconds later.
SOCKET_RETRY_SECONDS = 5
# A hint runs the full bot, milliseconds of the one event loop every table shares, so an
# address has one budget of them across all its sockets: this many at once, refilled at
# this many a minute; past it a hint gets `rate_limited` (issue 25, docs/protocol.md).
HINTS_PER_ADDRESS_PER_MINUTE = 60


class SocketConnection:
    """A room's view of one WebSocket: one bounded outbox and one writer, in order.

    `push` only appends to the outbox, so the room never waits for a client. One writer
    task per connection sends the outbox oldest first through the ASGI send (Starlette's
    `WebSocket.send`); that await stalls while the transport is paused, that is while the
    client reads slower than we write and TCP pushes back, and meanwhile the outbox grows.
    Past `OUTBOX_LIMIT` messages or `OUTBOX_CHARS` of text the client is too slow: what is
    queued is dropped and the socket closes with 4408 after the frame in flight. A client
    that reads nothing at all is cut off by the socket protocol (api/socket_protocol.py).
    """

    # Slots: one of these lives for every open socket (an instance dict is ~300 bytes).
    __slots__ = (
        "_close_with",
        "_drained",
        "_gone",
        "_outbox",
        "_outbox_chars",
        "_wakeup",
        "_writer",
        "player_index",
        "websocket",
    )

    def __init__(self, websocket: WebSocket, player_index: int | None) -> None:
        self.websocket = websocket
        self.player_index = player_index
        # A list, not a deque: it holds one message or none nearly always, and an empty
        # deque keeps a 64-slot block (about 0.7 KB a connection).
        self._outbox: list[str] = []
        self._outbox_chars = 0
        self._close_with: tuple[int, str] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._wakeup: asyncio.Future[None] | None = None  # set while the writer is idle
        self._drained: asyncio.Future[None] | None = None  # `finished` waits on it
        self._gone = False  # a send failed: the peer went away, the reader will notice

    def push(self, text: str) -> None:
        """Queue a message for the writer; close a client that is too far behind."""
        if self._close_with is not None or self._gone:
            return
        self._outbox.append(text)
        self._outbox_chars += len(text)
        if len(self._outbox) > OUTBOX_LIMIT or self._outbox_chars > OUTBOX_CHARS:
            self._outbox.clear()
            self._outbox_chars = 0
            self.close(CLOSE_TOO_SLOW, "client too slow")
            return
        self._wake_writer()

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already pushed have gone out."""
        if self._close_with is not None:
            return
        self._close_with = (code, reason)
        self._wake_writer()

    async def finished(self) -> None:
        """Wait until every pushed message (and the close, if asked) has gone out."""
        if self._writer is None or self._writer.done() or self._wakeup is not None:
            return  # no writer, or one with nothing left to send
        if self._drained is None:
            self._drained = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._drained)

    def _wake_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        elif self._wakeup is not None:
            self._wakeup.set_result(None)
            self._wakeup = None

    async def _write(self) -> None:
        """The connection's one send path: the outbox in order, then the close."""
        outbox = self._outbox
        send = self.websocket.send  # Starlette's checked ASGI send (`send_text` wraps it)
        idle = asyncio.get_running_loop().create_future
        try:
            while True:
                while outbox:
                    text = outbox.pop(0)
                    self._outbox_chars -= len(text)
                    await send({"type": "websocket.send", "text": text})
                if self._close_with is not None:
                    await self.websocket.close(*self._close_with)
                    return
                if self._drained is not None:
                    self._report_drained()
                self._wakeup = idle()
                await self._wakeup
        except Exception:  # the peer went away; the reader notices and disconnects
            self._gone = True
            outbox.clear()
            self._outbox_chars = 0
        finally:
            self._wakeup = None
            self._report_drained()

    def _report_drained(self) -> None:
        if self._drained is not None:
            self._drained.set_result(None)
            self._drained = None


class RateLimit:
    """A token bucket: `RATE_BURST` messages at once, refilled at `RATE_PER_SECOND`.

    `flood` counts refused messages and drains at the same rate, so a client that keeps
    sending much faster than allowed piles it up and is closed, while one that overshoots
    briefly (or only slightly) just gets `rate_limited` errors.
    """

    __slots__ = ("burst", "clock", "flood", "per_second", "tokens", "updated")

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
    await websocket.accept(subprotocol=answered_subprotocol(websocket))
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
    # In the offered subprotocols (the table page) or the query (outside clients).
    token = presented_token(websocket)
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
    elif not actor.access.may_enter(presented_invite(websocket)):
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
    await websocket.accept(subprotocol=answered_subprotocol(websocket))
    connection = SocketConnection(websocket, player_index)
    actor.tell(cmd.Connect(connection, token))
    hints = _hint_budget(websocket)
    address = client_key(websocket.scope)
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
            lambda: hints.take(address) is None,
        )
    finally:
        actor.tell(cmd.Disconnect(connection))
        connection.close(1000, "bye")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(connection.finished(), timeout=2)


def _hint_budget(websocket: WebSocket) -> AddressBuckets:
    """The server's hint budget per address, made with its first socket."""
    state = websocket.app.state
    budget: AddressBuckets | None = getattr(state, "hint_budget", None)
    if budget is None:
        budget = state.hint_budget = AddressBuckets(
            HINTS_PER_ADDRESS_PER_MINUTE, state.socket_clock
        )
    return budget


async def _read_loop(
    websocket: WebSocket,
    connection: SocketConnection,
    tell: Callable[[cmd.Command], None],
    rate: RateLimit,
    allow_hint: Callable[[], bool],
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
        if isinstance(command, cmd.HintRequest) and not allow_hint():
            connection.push(
                error_message(
                    "rate_limited",
                    "too many hints from your address; ask again in a moment",
                    command.message_id,
                )
            )
            continue
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
