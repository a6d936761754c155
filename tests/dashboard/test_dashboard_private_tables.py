"""A fresh install's dashboard never shows a private table to a stranger (issue 25, point 3).

A real server with no admin token (the default), one private and one public table, each
with one finished deal played over real WebSockets. A stranger reads every dashboard call:
the public table is there, the private one nowhere, not its id, its player, its deal nor its
settlement. With the private table's own invite or its player's token, its own views open;
with the admin token set, everything is shown as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.api.live_server import LiveServer, TableClient, add_bots, create_room, join

SECRET_NAME = "Secretive"
OPEN_NAME = "Olly"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("private") / "hall.sqlite3").start()
    yield server
    server.stop()


async def _one_deal(hall: LiveServer, client: httpx.AsyncClient, **room: Any) -> dict[str, Any]:
    room_id = await create_room(client, "kaki3", **room)
    seat = await join(client, room_id, SECRET_NAME if not room.get("public") else OPEN_NAME)
    player = await TableClient.open(hall.ws_url(room_id, seat["token"]))
    await player.receive()
    assert (await add_bots(client, room_id)).status_code == 200
    await player.play_until_result()
    await player.close()
    results = await client.get(
        f"/api/rooms/{room_id}/results", headers={"Authorization": f"Bearer {seat['token']}"}
    )
    return {"room_id": room_id, "token": seat["token"], "results": results.json()}


@pytest.fixture(scope="module")
def tables(hall: LiveServer) -> dict[str, dict[str, Any]]:
    async def play() -> dict[str, dict[str, Any]]:
        async with httpx.AsyncClient(base_url=hall.http_url, timeout=30) as client:
            private = await _one_deal(hall, client)
            public = await _one_deal(hall, client, public=True)
            return {"private": private, "public": public}

    return asyncio.run(play())


@pytest.fixture
async def stranger(hall: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=30) as client:
        yield client


async def _deal_ids(client: httpx.AsyncClient, **params: str) -> list[int]:
    answer = await client.get("/api/dashboard/deals", params=params)
    assert answer.status_code == 200, answer.text
    return [deal["deal_id"] for deal in answer.json()["deals"]]


async def _private_deal_id(hall: LiveServer, private_room: str) -> int:
    """The private deal's id, read as the admin would (the token set for this call only)."""
    hall.app.state.admin_token = "admin-only"
    try:
        async with httpx.AsyncClient(base_url=hall.http_url, timeout=30) as admin:
            ids = await _deal_ids(admin, room=private_room, token="admin-only")
    finally:
        hall.app.state.admin_token = None
    assert len(ids) == 1
    return ids[0]


@pytest.mark.parametrize(
    "path",
    [
        "/api/dashboard/operations",
        "/api/dashboard/deals",
        "/api/dashboard/standings?include_bots=true",
        "/api/dashboard/charts",
        "/api/dashboard/deals?room={private}",
        "/api/dashboard/standings?player=" + SECRET_NAME,
        "/api/dashboard/operations?room={private}",
    ],
)
async def test_no_dashboard_list_shows_the_private_table(
    tables: dict[str, dict[str, Any]], stranger: httpx.AsyncClient, path: str
) -> None:
    private = tables["private"]["room_id"]
    answer = await stranger.get(path.format(private=private))
    assert answer.status_code == 200, answer.text
    assert private not in answer.text and SECRET_NAME not in answer.text


async def test_the_public_table_is_shown_and_counted_alone(
    tables: dict[str, dict[str, Any]], stranger: httpx.AsyncClient
) -> None:
    public = tables["public"]["room_id"]
    listed = (await stranger.get("/api/dashboard/deals")).json()["deals"]
    assert [deal["room_id"] for deal in listed] == [public]
    standings = (await stranger.get("/api/dashboard/standings")).json()["players"]
    assert [row["name"] for row in standings] == [OPEN_NAME]
    charts = (await stranger.get("/api/dashboard/charts")).json()
    assert sum(charts["outcomes"].values()) == 1
    settled = await stranger.get(f"/api/dashboard/rooms/{public}/settlement")
    assert settled.status_code == 200 and settled.json()["games"]


async def test_the_private_deal_and_settlement_need_the_tables_own_rights(
    hall: LiveServer, tables: dict[str, dict[str, Any]], stranger: httpx.AsyncClient
) -> None:
    private = tables["private"]
    deal_id = await _private_deal_id(hall, private["room_id"])
    deal = await stranger.get(f"/api/dashboard/deals/{deal_id}")
    unknown = await stranger.get("/api/dashboard/deals/999999")
    assert deal.status_code == unknown.status_code == 404
    assert deal.json()["error"]["code"] == "deal_not_found" and "seed" not in deal.text
    settlement = await stranger.get(f"/api/dashboard/rooms/{private['room_id']}/settlement")
    assert settlement.status_code == 403
    assert settlement.json()["error"]["code"] == "invite_required"
    assert SECRET_NAME not in settlement.text

    bearer = {"Authorization": f"Bearer {private['token']}"}
    own_deal = await stranger.get(f"/api/dashboard/deals/{deal_id}", headers=bearer)
    assert own_deal.status_code == 200 and own_deal.json()["room_id"] == private["room_id"]
    own = await stranger.get(
        f"/api/dashboard/rooms/{private['room_id']}/settlement", headers=bearer
    )
    assert own.status_code == 200 and SECRET_NAME in own.text


async def test_with_the_admin_token_everything_is_shown(
    hall: LiveServer, tables: dict[str, dict[str, Any]], stranger: httpx.AsyncClient
) -> None:
    hall.app.state.admin_token = "admin-only"
    try:
        assert (await stranger.get("/api/dashboard/deals")).status_code == 401
        admin = {"Authorization": "Bearer admin-only"}
        listed = await stranger.get("/api/dashboard/deals", headers=admin)
        rooms = {deal["room_id"] for deal in listed.json()["deals"]}
        assert rooms == {tables["private"]["room_id"], tables["public"]["room_id"]}
        operations = await stranger.get("/api/dashboard/standings", headers=admin)
        assert SECRET_NAME in operations.text
    finally:
        hall.app.state.admin_token = None
