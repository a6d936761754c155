"""Rooms against abuse: the server-wide cap on open rooms and the paged room list (a real
`serve`), and spectators who no longer keep a room open (a live server on a hand-driven
clock, so the 30-minute idle close runs at once)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.rooms.clock import ManualClock
from server.rooms.settings import TableSettings
from tests.api.guarded_hall import GuardedHall, fresh_address
from tests.api.live_server import (
    INVITES,
    LiveServer,
    add_bots,
    create_room,
    get_room,
    invited,
    join,
    room_state,
)

CAP = 25
CLOSE_ROOM_CLOSED = 4410


@pytest.fixture(scope="module")
def capped_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GuardedHall]:
    directory = tmp_path_factory.mktemp("capped")
    hall = GuardedHall(
        f"sqlite+aiosqlite:///{directory / 'hall.sqlite3'}",
        directory / "serve.log",
        MAHJONG_MAX_OPEN_ROOMS=str(CAP),
        MAHJONG_ROOMS_PER_MINUTE="1000",
    )
    yield hall
    hall.stop()


async def test_open_rooms_are_capped_and_the_list_comes_in_pages(capped_hall: GuardedHall) -> None:
    async with capped_hall.client(fresh_address()) as client:
        made = []
        for number in range(CAP):
            answer = await client.post(
                "/api/rooms", json={"variant": "hk", "name": f"T{number}", "public": True}
            )
            assert answer.status_code == 201, answer.text
            made.append(answer.json()["room_id"])
            INVITES[made[-1]] = answer.json()["invite"]
        full = await client.post("/api/rooms", json={"variant": "hk"})
        assert full.status_code == 503
        assert full.json()["error"]["code"] == "too_many_rooms"
        assert str(CAP) in full.json()["error"]["message"]
        assert full.headers["retry-after"] == "60"

        first = (await client.get("/api/rooms")).json()
        assert len(first["rooms"]) == 20 and first["total"] == CAP and first["limit"] == 20
        assert first["next_cursor"] is not None
        second = (await client.get("/api/rooms", params={"cursor": first["next_cursor"]})).json()
        assert second["next_cursor"] is None and len(second["rooms"]) == CAP - 20
        listed = [room["room_id"] for room in first["rooms"] + second["rooms"]]
        assert listed == list(reversed(made)), "every room once, newest first"

        small = (await client.get("/api/rooms", params={"limit": 7})).json()
        assert [room["room_id"] for room in small["rooms"]] == listed[:7]
        too_big = await client.get("/api/rooms", params={"limit": 101})
        assert too_big.status_code == 422

        await client.post(f"/api/rooms/{made[0]}/join", json=invited(made[0], name="Ana"))
        await add_bots(client, made[0])
        playing = (await client.get("/api/rooms", params={"status": "playing"})).json()
        assert [room["room_id"] for room in playing["rooms"]] == [made[0]]
        both = (await client.get("/api/rooms", params={"status": "waiting,playing"})).json()
        assert both["total"] == CAP
        body = (await client.get("/api/rooms", params={"limit": 100})).content
        assert len(body) < 100 * 400, "a page stays small"


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock()
    server = LiveServer(
        tmp_path / "hall.sqlite3",
        clock=clock,
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, idle_close_seconds=60),
    ).start()
    yield server, clock
    server.stop()


async def _close_code(url: str, clock: ManualClock, seconds: float) -> int:
    async with connect(url) as socket:
        assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "state"
        await asyncio.to_thread(clock.advance_threadsafe, seconds)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(socket.recv(), 10)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code


async def test_a_spectator_alone_does_not_keep_a_room_open(
    clocked: tuple[LiveServer, ManualClock],
) -> None:
    live, clock = clocked
    async with httpx.AsyncClient(base_url=live.http_url, timeout=10) as http:
        room_id = await create_room(http, "kaki3")
        assert await _close_code(live.ws_url(room_id), clock, 61) == CLOSE_ROOM_CLOSED
        assert (await get_room(http, room_id)).status_code == 404


async def test_a_player_keeps_a_room_open_and_spectators_then_see_it_close(
    clocked: tuple[LiveServer, ManualClock],
) -> None:
    live, clock = clocked
    async with httpx.AsyncClient(base_url=live.http_url, timeout=10) as http:
        room_id = await create_room(http, "kaki3")
        ana = await join(http, room_id, "Ana")
        async with connect(live.ws_url(room_id, ana["token"])) as player:
            await asyncio.wait_for(player.recv(), 10)
            async with connect(live.ws_url(room_id)) as watcher:
                await asyncio.wait_for(watcher.recv(), 10)
                await asyncio.to_thread(clock.advance_threadsafe, 3600)
                await asyncio.sleep(0.2)
                assert (await get_room(http, room_id)).status_code == 200
        # The player left (the spectator too): now nothing keeps the room.
        for _ in range(100):
            room = await room_state(http, room_id)
            if not room["players"][0]["connected"] and room["spectators"] == 0:
                break
            await asyncio.sleep(0.05)
        assert await _close_code(live.ws_url(room_id), clock, 61) == CLOSE_ROOM_CLOSED
