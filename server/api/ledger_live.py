"""`WS /ws/ledgers/{ledger_id}?invite=...`: every phone at the table sees the ledger live.

The socket sends the whole ledger (`{"type": "ledger", ...}`, as `GET /api/ledgers/{id}`
answers it) when it opens and again after every change. Changes made through this
process wake its sockets at once (`LedgerWatch`); a change made through another server
process on the same Postgres is seen by the revision check every `POLL_SECONDS`. The
client sends nothing; a socket that sends a flood of frames is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict

from fastapi import APIRouter, WebSocket
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect, WebSocketState

from server.api.address_limits import SocketCounts, client_key
from server.api.errors import ApiError
from server.api.ledger_access import ledger_view
from server.store import StoreUnavailable

router = APIRouter()

# How often a socket asks the store whether another process changed its ledger.
POLL_SECONDS = 2.0
CLOSE_NO_LEDGER = 4404
CLOSE_NO_INVITE = 4403
CLOSE_FLOOD = 4429
CLOSE_TRY_AGAIN = 1013
# A ledger's sockets have nothing to say; this many frames is a client gone wrong.
MOST_CLIENT_FRAMES = 100


class LedgerWatch:
    """Wakes the sockets of a ledger when this process changes it."""

    def __init__(self) -> None:
        self._waiting: defaultdict[str, set[asyncio.Event]] = defaultdict(set)

    def changed(self, ledger_id: str) -> None:
        """Ledger `ledger_id` has a new revision."""
        for event in self._waiting.get(ledger_id, ()):
            event.set()

    def watch(self, ledger_id: str) -> asyncio.Event:
        """An event set at each change of the ledger (`forget` it when done)."""
        event = asyncio.Event()
        self._waiting[ledger_id].add(event)
        return event

    def forget(self, ledger_id: str, event: asyncio.Event) -> None:
        """Stop waking `event`."""
        waiting = self._waiting.get(ledger_id)
        if waiting is not None:
            waiting.discard(event)
            if not waiting:
                del self._waiting[ledger_id]

    def watched(self) -> int:
        """How many sockets are watching a ledger now."""
        return sum(len(events) for events in self._waiting.values())


def ledger_watch(connection: HTTPConnection) -> LedgerWatch:
    """The app's watch (created by `server.api.ledgers.install`)."""
    watch: LedgerWatch = connection.app.state.ledger_watch
    return watch


@router.websocket("/ws/ledgers/{ledger_id}")
async def ledger_socket(websocket: WebSocket, ledger_id: str) -> None:
    """Count the socket against its address's cap, then send the ledger as it changes."""
    sockets: SocketCounts | None = getattr(websocket.app.state, "sockets", None)
    address = client_key(websocket.scope)
    if sockets is not None and not sockets.open(address):
        await _refuse(websocket, CLOSE_FLOOD, "too many sockets from this address")
        return
    try:
        await _serve(websocket, ledger_id)
    finally:
        if sockets is not None:
            sockets.close(address)


async def _serve(websocket: WebSocket, ledger_id: str) -> None:
    invite = websocket.query_params.get("invite") or None
    try:
        view = await ledger_view(websocket, ledger_id, invite)
        assert view is not None
    except ApiError as error:
        code = CLOSE_NO_INVITE if error.status == 403 else CLOSE_NO_LEDGER
        await _refuse(websocket, code, error.code)
        return
    except StoreUnavailable:
        await _refuse(websocket, CLOSE_TRY_AGAIN, "try again: the store is unavailable")
        return
    watch = ledger_watch(websocket)
    changed = watch.watch(ledger_id)
    await websocket.accept()
    listening = asyncio.create_task(_listen(websocket))
    try:
        sent = -1
        while not listening.done():
            if view["revision"] != sent:
                await websocket.send_text(json.dumps({"type": "ledger", **view}))
                sent = view["revision"]
            changed.clear()
            waking = asyncio.create_task(changed.wait())
            await asyncio.wait(
                {listening, waking}, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED"
            )
            waking.cancel()
            if listening.done():
                break
            with contextlib.suppress(StoreUnavailable):
                fresh = await ledger_view(websocket, ledger_id, invite, unless_revision=sent)
                view = fresh if fresh is not None else view
    except (WebSocketDisconnect, RuntimeError, ApiError):
        pass  # the phone went away, or the ledger did
    finally:
        watch.forget(ledger_id, changed)
        listening.cancel()
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(1000, "bye")


async def _listen(websocket: WebSocket) -> None:
    """Read until the client goes; close one that floods."""
    frames = 0
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        frames += 1
        if frames > MOST_CLIENT_FRAMES:
            await websocket.close(CLOSE_FLOOD, "a ledger's socket takes no messages")
            return


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    # Accept first so the browser sees our close code (a refused handshake shows only 403).
    await websocket.accept()
    await websocket.close(code, reason)
