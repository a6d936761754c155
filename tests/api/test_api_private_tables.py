"""Private tables against a real `serve` on Postgres: a stranger with only the room id can
do nothing, the invite opens the door, a player's token works alone, and only public
tables are listed."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.api.guarded_hall import GuardedHall, fresh_address

CLOSE_FOREIGN = 4403
CLOSE_NO_SPECTATORS = 4431


async def _open(client: httpx.AsyncClient, **fields: object) -> dict[str, str]:
    answer = await client.post("/api/rooms", json={"variant": "kaki3", **fields})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


async def _close_code(socket: ClientConnection) -> int | None:
    """The code the server closes `socket` with, after at most a few messages."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            await asyncio.wait_for(socket.recv(), 10)
    return closed.value.rcvd.code if closed.value.rcvd else None


async def test_a_new_table_is_unlisted_and_its_link_carries_a_long_secret(
    guarded_hall: GuardedHall,
) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        table = await _open(client, name="Ana's private friday")
        assert len(table["invite"]) >= 22  # 128 bits in URL-safe base64 is 22 characters
        assert table["url"].endswith(f"/rooms/{table['room_id']}#invite={table['invite']}")
        listed = (await client.get("/api/rooms", params={"limit": 100})).json()["rooms"]
        assert table["room_id"] not in {room["room_id"] for room in listed}
        public = await _open(client, public=True)
        listed = (await client.get("/api/rooms", params={"limit": 100})).json()["rooms"]
        assert public["room_id"] in {room["room_id"] for room in listed}
        other = await _open(client)
    assert len({table["invite"], public["invite"], other["invite"]}) == 3


async def test_a_stranger_with_only_the_room_id_can_do_nothing(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as host:
        table = await _open(host)
    room_id = table["room_id"]
    wrong = table["invite"][:-2] + ("AA" if not table["invite"].endswith("AA") else "BB")
    async with guarded_hall.client(fresh_address()) as stranger:
        for invite in (None, wrong):
            body = {"name": "Mallory"} if invite is None else {"name": "Mallory", "invite": invite}
            joined = await stranger.post(f"/api/rooms/{room_id}/join", json=body)
            assert joined.status_code == 403, joined.text
            assert joined.json()["error"]["code"] == "invite_required"
            bots = await stranger.post(
                f"/api/rooms/{room_id}/bots", json={} if invite is None else {"invite": invite}
            )
            assert bots.status_code == 403 and bots.json()["error"]["code"] == "invite_required"
            params = {} if invite is None else {"invite": invite}
            for path in (f"/api/rooms/{room_id}", f"/api/rooms/{room_id}/results"):
                seen = await stranger.get(path, params=params)
                assert seen.status_code == 403, path
                assert seen.json()["error"]["code"] == "invite_required"
                assert "players" not in seen.text
    async with guarded_hall.client(fresh_address()) as stranger:  # its own join allowance
        forged = await stranger.post(
            f"/api/rooms/{room_id}/bots", headers={"Authorization": "Bearer not-a-token"}
        )
        assert forged.status_code == 403
    address = fresh_address()
    watcher = await guarded_hall.socket(address, room_id)  # no invite: room_id not in INVITES
    assert await _close_code(watcher) == CLOSE_FOREIGN
    async with guarded_hall.client(fresh_address()) as friend:
        room = (
            await friend.get(f"/api/rooms/{room_id}", params={"invite": table["invite"]})
        ).json()
    assert room["players"] == [] and room["status"] == "waiting", "the refusals changed nothing"
    assert room["public"] is False and room["host"] is None


async def test_the_invite_opens_the_table_and_a_token_works_alone(
    guarded_hall: GuardedHall,
) -> None:
    async with guarded_hall.client(fresh_address()) as ana:
        table = await _open(ana)
        room_id, invite = table["room_id"], table["invite"]
        seated = await ana.post(
            f"/api/rooms/{room_id}/join", json={"name": "Ana", "invite": invite}
        )
        assert seated.status_code == 200, seated.text
        token = seated.json()["token"]
        # A seated player reads the room with the token alone, header or query.
        by_header = await ana.get(
            f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {token}"}
        )
        assert by_header.status_code == 200 and by_header.json()["host"] == 0
        results = await ana.get(f"/api/rooms/{room_id}/results", params={"token": token})
        assert results.status_code == 200 and results.json()["deals"] == []
    address = fresh_address()
    spectator = await guarded_hall.socket(address, room_id, invite=invite)
    first = json.loads(await asyncio.wait_for(spectator.recv(), 10))
    assert first["type"] == "state" and first["room"]["players"][0]["name"] == "Ana"
    await spectator.close()
    async with guarded_hall.client(fresh_address()) as bo:
        bo_seat = await bo.post(f"/api/rooms/{room_id}/join", json={"name": "Bo", "invite": invite})
        assert bo_seat.status_code == 200
        # Bots by a seated player's token, no invite in the body.
        filled = await bo.post(
            f"/api/rooms/{room_id}/bots",
            headers={"Authorization": f"Bearer {bo_seat.json()['token']}"},
        )
        assert filled.status_code == 200 and filled.json()["bots"] == [2]
    player = await guarded_hall.socket(fresh_address(), room_id, token)
    state = json.loads(await asyncio.wait_for(player.recv(), 10))
    assert state["type"] == "state" and state["me"] is not None and "hand" in state
    await player.close()


async def test_the_host_can_open_a_table_without_spectators(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as ana:
        table = await _open(ana, spectators=False)
        room_id, invite = table["room_id"], table["invite"]
        token = (
            await ana.post(f"/api/rooms/{room_id}/join", json={"name": "Ana", "invite": invite})
        ).json()["token"]
    watcher = await guarded_hall.socket(fresh_address(), room_id, invite=invite)
    assert await _close_code(watcher) == CLOSE_NO_SPECTATORS
    player = await guarded_hall.socket(fresh_address(), room_id, token)
    state = json.loads(await asyncio.wait_for(player.recv(), 10))
    assert state["type"] == "state" and state["room"]["spectators_allowed"] is False
    await player.close()
