"""A real uvicorn server on a free port in a background thread, and scripted table clients.

Shared by the API tests (and the rooms tests that go through the app). The server runs its
own event loop in its thread; tests talk to it over real HTTP and real WebSockets.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from bench.load_clients import quick_choice
from server.api.socket_protocol import uvicorn_socket_options
from server.app import WS_MAX_SIZE, create_app
from server.rooms.clock import Clock
from server.rooms.settings import TableSettings
from server.store import apply_migrations
from tests.live import ServerThread, free_port


class LiveServer:
    """`create_app` served by uvicorn in a thread, on a migrated SQLite file."""

    def __init__(
        self,
        database_path: Path,
        *,
        clock: Clock | None = None,
        table_settings: TableSettings | None = None,
        ping_seconds: float = 10,
    ) -> None:
        self.database_url = f"sqlite+aiosqlite:///{database_path}"
        apply_migrations(self.database_url)
        self.port = free_port()
        self.app = create_app(
            self.database_url,
            clock=clock,
            table_settings=table_settings or TableSettings(bot_delay=0, next_deal_seconds=3600),
        )
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            # The socket layer `serve` runs, compression off as by default.
            **uvicorn_socket_options(
                None,
                compression=False,
                max_size=WS_MAX_SIZE,
                ping_interval=ping_seconds,
                ping_timeout=ping_seconds,
            ),
            lifespan="on",
        )
        self.serving = ServerThread(config)
        self.server = self.serving.server

    @property
    def http_url(self) -> str:
        """The server's base HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, room_id: str, token: str | None = None) -> str:
        """The table socket address, for a player (`token`) or a spectator (who brings
        the invite of a table `create_room` opened)."""
        base = f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"
        if token:
            return f"{base}?token={token}"
        return f"{base}?invite={INVITES[room_id]}" if room_id in INVITES else base

    def start(self) -> LiveServer:
        """Start serving and wait until the port answers."""
        self.serving.start()
        return self

    def stop(self) -> None:
        """Shut down and wait for the thread."""
        self.serving.stop()


# The invite secret of every table `create_room` opened, so `join` and the other helpers
# come in as the creator's friends would: with the link.
INVITES: dict[str, str] = {}


async def create_room(client: httpx.AsyncClient, variant: str, **fields: Any) -> str:
    """POST /api/rooms; returns the room id (its invite is kept in `INVITES`)."""
    answer = await client.post("/api/rooms", json={"variant": variant, **fields})
    assert answer.status_code == 201, answer.text
    room_id = str(answer.json()["room_id"])
    INVITES[room_id] = str(answer.json()["invite"])
    return room_id


async def join(client: httpx.AsyncClient, room_id: str, name: str) -> dict[str, Any]:
    """POST /api/rooms/{id}/join with the table's invite; returns seat, token, player_index."""
    body = {"name": name, "invite": INVITES[room_id]} if room_id in INVITES else {"name": name}
    answer = await client.post(f"/api/rooms/{room_id}/join", json=body)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def add_bots(client: httpx.AsyncClient, room_id: str) -> httpx.Response:
    """POST /api/rooms/{id}/bots with the table's invite."""
    return await client.post(f"/api/rooms/{room_id}/bots", json={"invite": INVITES[room_id]})


def invited(room_id: str, **body: Any) -> dict[str, Any]:
    """A request body carrying the table's invite (for join calls that test one field)."""
    return {**body, "invite": INVITES[room_id]}


async def get_room(client: httpx.AsyncClient, room_id: str, what: str = "") -> httpx.Response:
    """GET /api/rooms/{id}{what} (`what`: "" or "/results") as a holder of the invite."""
    return await client.get(f"/api/rooms/{room_id}{what}", params={"invite": INVITES[room_id]})


async def room_state(client: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    """The public room object, read as a holder of the invite."""
    answer = await get_room(client, room_id)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def room_results(client: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    """The room's stored results, read as a holder of the invite."""
    answer = await get_room(client, room_id, "/results")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def decision_key(state: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies one decision of a seat, so a client answers it once."""
    return (
        state.get("phase"),
        state.get("turn"),
        json.dumps(state.get("last_discard")),
        state.get("wall_remaining"),
        json.dumps(state.get("hand")),
        state.get("drawn_tile"),
    )


def message_outline(message: dict[str, Any]) -> str:
    """A message in one line, for a stalled test's report (no hands: they say nothing here)."""
    fields = ("type", "seq", "code", "phase", "turn", "me", "last_discard", "wall_remaining")
    outline = {field: message[field] for field in fields if field in message}
    if message.get("legal") is not None:
        outline["legal"] = message["legal"]
    return json.dumps(outline)


class TableClient:
    """One WebSocket client that records every message and (optionally) plays its seat with a bot."""

    def __init__(self, socket_: ClientConnection, name: str) -> None:
        self.socket = socket_
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self._answered: tuple[Any, ...] | None = None
        self.actions_sent = 0

    @classmethod
    async def open(cls, url: str, name: str = "") -> TableClient:
        """Connect to a table socket."""
        return cls(await connect(url, max_size=None), name)

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        """The next message (recorded)."""
        message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.states.append(message)
        elif message["type"] == "result":
            self.results.append(message)
        elif message["type"] == "error":
            self.errors.append(message)
        return dict(message)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message."""
        await self.socket.send(json.dumps(message))

    async def act_if_due(self, state: dict[str, Any]) -> bool:
        """Answer `state` with the bot's choice, once per decision. Returns whether it acted."""
        legal = state.get("legal") or []
        if not legal:
            return False
        key = decision_key(state)
        if key == self._answered:
            return False
        self._answered = key
        wire = quick_choice(legal, state.get("drawn_tile"))
        await self.send({"type": "action", "action": wire, "id": self.actions_sent})
        self.actions_sent += 1
        return True

    def answered(self, state: dict[str, Any]) -> None:
        """Record that `state`'s decision was answered outside `act_if_due`."""
        self._answered = decision_key(state)

    def forget_answer(self) -> None:
        """Allow answering the current decision again (after a refused send)."""
        self._answered = None

    async def play_until_result(self, timeout: float = 60) -> dict[str, Any]:
        """Play the seat with a bot until a `result` arrives; returns it."""
        deadline = time.monotonic() + timeout
        retried: dict[str, Any] | None = None
        if self.states:
            await self.act_if_due(self.states[-1])  # a state read before we started playing
        while True:
            try:
                message = await self.receive(timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                raise AssertionError(
                    f"{self.name}: no result in {timeout} s; the last messages: "
                    + "; ".join(message_outline(m) for m in self.messages[-8:])
                ) from None
            if message["type"] == "result":
                return message
            if message["type"] == "state":
                await self.act_if_due(message)
            elif message.get("code") == "rate_limited" and self.states:
                # Our move was dropped: wait for the bucket to refill, then send it again.
                await asyncio.sleep(0.2)
                self.forget_answer()
                await self.act_if_due(self.states[-1])
            elif message["type"] == "error" and self.states and self.states[-1] is not retried:
                # Our move came too late or could not be saved (the store was down): answer
                # the latest decision again, once, as a player clicks again. A table that
                # refuses every answer still fails at the deadline.
                retried = self.states[-1]
                self.forget_answer()
                await self.act_if_due(retried)

    async def close(self) -> None:
        """Close the connection."""
        await self.socket.close()
