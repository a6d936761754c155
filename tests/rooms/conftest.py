"""Fixtures for the room actor tests: a real SQLite store, a hand-driven clock, recording links."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings, TableSettings
from server.rooms.table import RoomActor
from server.store import Store, apply_migrations, open_store


class RecordingConnection:
    """Stands in for a WebSocket (the network is not ours): keeps what the room pushed to it.
    `token` is the one its socket would have brought (None for a spectator)."""

    def __init__(self, player_index: int | None, token: str | None = None) -> None:
        self.player_index = player_index
        self.token = token
        self.sent: list[dict[str, Any]] = []
        self.closed_with: tuple[int, str] | None = None

    def push(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)

    @property
    def states(self) -> list[dict[str, Any]]:
        return [message for message in self.sent if message["type"] == "state"]

    @property
    def last_state(self) -> dict[str, Any]:
        return self.states[-1]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'rooms.sqlite3'}"
    apply_migrations(url)
    return url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    opened = await open_store(database_url)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def manager(store: Store, clock: ManualClock) -> AsyncIterator[RoomManager]:
    # These tests watch bots-only tables play deal after deal (and reopen them), which a
    # real server holds for want of a human (tests/rooms/test_deals_wait_for_humans.py).
    rooms = RoomManager(
        store,
        clock,
        TableSettings(
            bot_delay=0,
            next_deal_seconds=5,
            bot_level="baseline",
            hold_deals_without_humans=False,
        ),
    )
    yield rooms
    await rooms.shutdown()


async def until(condition: Any, timeout: float = 30.0) -> None:
    """Wait (in real time) until `condition()` holds; the actor's store writes run in threads."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.002)


async def quiet(actor: Any, seconds: float = 0.05) -> None:
    """Wait until the actor's queue has stayed empty for a little while (nothing left to do now)."""
    loop = asyncio.get_running_loop()
    calm_since = loop.time()
    seen = actor.seq
    while loop.time() - calm_since < seconds:
        await asyncio.sleep(0.005)
        if actor.has_mail or actor.seq != seen:
            seen = actor.seq
            calm_since = loop.time()


async def ana_against_bots(
    manager: RoomManager, settings: RoomSettings
) -> tuple[str, RoomActor, RecordingConnection]:
    """A new room with Ana connected in seat 0 and bots in the rest, once she has a
    decision to make and the room has nothing else to do: (room id, actor, her link)."""
    room_id = await manager.create_room(settings)
    actor = manager.get(room_id)
    seated = await manager.join(room_id, "Ana")
    ana = RecordingConnection(0, seated["token"])
    actor.tell(cmd.Connect(ana, ana.token))
    await manager.add_bots(room_id)
    await until(lambda: bool(ana.states) and bool(ana.last_state["legal"]))
    await quiet(actor)
    return room_id, actor, ana
