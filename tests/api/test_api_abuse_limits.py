"""Per-address limits and room caps on a real `serve` (tests/api/conftest.py, `guarded_hall`:
3 rooms and 4 joins a minute, 3 sockets per address, 2 spectators per room)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.api.guarded_hall import GuardedHall, fresh_address
from tests.api.live_server import add_bots, create_room, invited, room_state

CLOSE_SPECTATORS_FULL = 4430


async def _new_room(hall: GuardedHall, address: str, variant: str = "hk") -> str:
    async with hall.client(address) as client:
        return await create_room(client, variant)


def _assert_rate_limited(answer: httpx.Response, retry_seconds: int) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.headers["retry-after"] == str(retry_seconds)
    error = answer.json()["error"]
    assert error["code"] == "rate_limited" and "a minute" in error["message"]


async def test_room_creation_is_limited_per_address(guarded_hall: GuardedHall) -> None:
    greedy, other = fresh_address(), fresh_address()
    async with guarded_hall.client(greedy) as client:
        made = [
            await client.post("/api/rooms", json={"variant": "kaki3", "public": True})
            for _ in range(3)
        ]
        assert [answer.status_code for answer in made] == [201, 201, 201]
        refused = await client.post("/api/rooms", json={"variant": "kaki3"})
        _assert_rate_limited(refused, retry_seconds=20)  # one room every 20 s
        listed = (await client.get("/api/rooms", params={"limit": 100})).json()["rooms"]
    ids = {room["room_id"] for room in listed}
    assert {answer.json()["room_id"] for answer in made} <= ids, "the refused call made nothing"
    await _new_room(guarded_hall, other)  # another address has its own allowance


async def test_joins_and_bots_share_one_limit(guarded_hall: GuardedHall) -> None:
    address = fresh_address()
    room_id = await _new_room(guarded_hall, address)
    async with guarded_hall.client(address) as client:
        for name in ("Ana", "Bo"):
            seated = await client.post(
                f"/api/rooms/{room_id}/join", json=invited(room_id, name=name)
            )
            assert seated.status_code == 200
        assert (await add_bots(client, room_id)).status_code == 200
        full = await client.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Cy"))
        assert full.status_code == 409, "a refused join still counts"
        _assert_rate_limited(
            await client.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Di")), 15
        )
        _assert_rate_limited(await add_bots(client, room_id), 15)


async def test_bots_alone_cannot_fill_a_room(guarded_hall: GuardedHall) -> None:
    address = fresh_address()
    room_id = await _new_room(guarded_hall, address, "kaki3")
    async with guarded_hall.client(address) as client:
        refused = await add_bots(client, room_id)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "no_human_seated"
        room = await room_state(client, room_id)
        assert room["players"] == [] and room["status"] == "waiting"
        assert (
            await client.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Ana"))
        ).is_success
        filled = await add_bots(client, room_id)
        assert filled.status_code == 200 and filled.json()["bots"] == [1, 2]


async def _first_message(socket: ClientConnection) -> dict[str, object]:
    return dict(json.loads(await asyncio.wait_for(socket.recv(), 10)))


async def test_open_sockets_are_capped_per_address(guarded_hall: GuardedHall) -> None:
    address, neighbour = fresh_address(), fresh_address()
    rooms = [await _new_room(guarded_hall, address) for _ in range(2)]
    held = [
        await guarded_hall.socket(address, rooms[0]),
        await guarded_hall.socket(address, rooms[0]),
        await guarded_hall.socket(address, rooms[1]),
    ]
    try:
        for socket in held:
            assert (await _first_message(socket))["type"] == "state"
        for room_id in (rooms[1], "no-such-room"):
            with pytest.raises(InvalidStatus) as refused:
                await guarded_hall.socket(address, room_id)
            assert refused.value.response.status_code == 429
            assert refused.value.response.headers["Retry-After"] == "5"
            error = json.loads(refused.value.response.body)["error"]
            assert error["code"] == "too_many_sockets"
        other = await guarded_hall.socket(neighbour, rooms[1])
        assert (await _first_message(other))["type"] == "state"
        await other.close()
        await held.pop().close()
        # The server counts the closed socket out as soon as its handler ends.
        for _ in range(50):
            try:
                again = await guarded_hall.socket(address, rooms[1])
                break
            except InvalidStatus:
                await asyncio.sleep(0.1)
        else:
            pytest.fail("a closed socket was never counted out")
        held.append(again)
        assert (await _first_message(again))["type"] == "state"
    finally:
        for socket in held:
            await socket.close()


async def _spectators(hall: GuardedHall, room_id: str, count: int) -> list[str]:
    """Open `count` spectator sockets at once, each from its own address, and keep them
    all open until each has its answer: 'state' when let in, else the close code."""
    sockets = await asyncio.gather(*(hall.socket(fresh_address(), room_id) for _ in range(count)))

    async def outcome(socket: ClientConnection) -> str:
        try:
            return str((await _first_message(socket))["type"])
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return str(closed.rcvd.code)

    try:
        return list(await asyncio.gather(*(outcome(socket) for socket in sockets)))
    finally:
        for socket in sockets:
            await socket.close()


async def _until_spectators(hall: GuardedHall, room_id: str, count: int) -> None:
    async with hall.client(fresh_address()) as client:
        for _ in range(100):
            room = await room_state(client, room_id)
            if room["spectators"] == count:
                return
            await asyncio.sleep(0.05)
    pytest.fail(f"the room never had {count} spectators")


async def test_spectators_per_room_are_capped(guarded_hall: GuardedHall) -> None:
    room_id = await _new_room(guarded_hall, fresh_address())
    watchers = [await guarded_hall.socket(fresh_address(), room_id) for _ in range(2)]
    try:
        for socket in watchers:
            assert (await _first_message(socket))["type"] == "state"
        # Sequential and concurrent newcomers: both are refused with 4430.
        assert await _spectators(guarded_hall, room_id, 1) == [str(CLOSE_SPECTATORS_FULL)]
        await watchers.pop().close()
        await _until_spectators(guarded_hall, room_id, 1)
        crowd = await _spectators(guarded_hall, room_id, 4)
        assert sorted(crowd) == sorted(["state", *[str(CLOSE_SPECTATORS_FULL)] * 3]), crowd
        address = fresh_address()
        async with guarded_hall.client(address) as client:
            seated = (
                await client.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Ana"))
            ).json()
        player = await guarded_hall.socket(address, room_id, seated["token"])
        watchers.append(player)
        assert (await _first_message(player))["type"] == "state", "players are never refused"
    finally:
        for socket in watchers:
            await socket.close()
