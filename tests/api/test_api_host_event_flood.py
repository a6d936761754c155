"""A flood of pause requests at a real server (issue 25, point 5): over real uvicorn and
real WebSockets, a player who is not the host sends 50 pause requests after the host
removed a player, turned spectators off and handed the role on. One request is recorded;
the rest are refused; the host's events are all still there, on the table and in the
store, one row each; and the room's stored record is not rewritten per request."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.rooms.settings import TableSettings
from tests.api.live_server import LiveServer, TableClient, add_bots, create_room, join, room_state

REQUESTS = 50


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(
        tmp_path / "hall.sqlite3",
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
    ).start()
    yield server
    server.stop()


def _database(hall: LiveServer) -> sqlite3.Connection:
    return sqlite3.connect(hall.database_url.removeprefix("sqlite+aiosqlite:///"))


def _stored_settings(hall: LiveServer, room_id: str) -> str:
    with _database(hall) as db:
        (settings,) = db.execute(
            "SELECT settings FROM rooms WHERE room_id = ?", (room_id,)
        ).fetchone()
    return str(settings)


def _stored_events(hall: LiveServer, room_id: str) -> list[tuple[int, str, int]]:
    with _database(hall) as db:
        return db.execute(
            "SELECT seq, kind, by_player FROM host_events WHERE room_id = ? ORDER BY seq",
            (room_id,),
        ).fetchall()


async def _drain(client: TableClient, quiet: float = 1.0) -> list[dict[str, Any]]:
    """Every message until none comes for `quiet` seconds."""
    messages = []
    while True:
        try:
            messages.append(await client.receive(timeout=quiet))
        except TimeoutError:
            return messages


async def _answer(client: TableClient, message_id: str) -> dict[str, Any]:
    """The state or error that answers `message_id` (errors carry the id; a done host
    command is answered by the next state)."""
    while True:
        message = await client.receive(timeout=20)
        if message["type"] == "error" and message.get("id") == message_id:
            return message
        if message["type"] == "state" and message["room"]["host_events"]:
            last = message["room"]["host_events"][-1]
            if last.get("kind") and message_id.startswith(last["kind"]):
                return message


async def test_fifty_pause_requests_record_one_and_erase_nothing(hall: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=20) as http:
        room_id = await create_room(http, "hk", turn_seconds=600, deal_seconds=3600)
        seats = [await join(http, room_id, name) for name in ("Ana", "Bo", "Cy")]
        ana = await TableClient.open(hall.ws_url(room_id, seats[0]["token"]), "Ana")
        bo = await TableClient.open(hall.ws_url(room_id, seats[1]["token"]), "Bo")
        assert (await add_bots(http, room_id)).status_code == 200
        await ana.send({"type": "remove_player", "player_index": 2, "id": "remove_player"})
        await _answer(ana, "remove_player")
        await ana.send({"type": "spectators", "allowed": False, "id": "spectators"})
        await _answer(ana, "spectators")
        await ana.send({"type": "make_host", "player_index": 1, "id": "make_host"})
        await _answer(ana, "make_host")
        settings_before = _stored_settings(hall, room_id)

        # Ana is no longer the host: each pause of hers is a request.
        for number in range(REQUESTS):  # under the socket's rate limit: each one counts
            await ana.send({"type": "pause", "id": f"p{number}"})
            await asyncio.sleep(0.04)
        answers = await _drain(ana)
        room = await room_state(http, room_id)
        await ana.close()
        await bo.close()

    codes = [message["code"] for message in answers if message["type"] == "error"]
    assert codes == ["already_asked"] * (REQUESTS - 1)
    kinds = ["remove_player", "spectators", "make_host", "pause_asked"]
    assert [event["kind"] for event in room["host_events"]] == kinds
    assert _stored_settings(hall, room_id) == settings_before, "no request rewrote the room"
    assert "host_events" not in settings_before
    assert _stored_events(hall, room_id) == [
        (0, "remove_player", 0),
        (1, "spectators", 0),
        (2, "make_host", 0),
        (3, "pause_asked", 0),
    ]
