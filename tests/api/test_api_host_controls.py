"""The host's controls over real uvicorn and real WebSockets, with the injected clock:
a paused table's clocks do not move, a removed player's token is dead, a friend takes an
offered bot seat between deals, bot levels, handing the role on and ending the game."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.rooms.clock import ManualClock
from server.rooms.settings import TableSettings
from tests.api.live_server import (
    INVITES,
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    join,
    room_state,
)

CLOSE_BAD_TOKEN = 4401
CLOSE_REMOVED = 4411


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def hall(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    server = LiveServer(
        tmp_path / "hall.sqlite3",
        clock=clock,
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
    ).start()
    yield server
    server.stop()


async def _quiet(client: TableClient, seconds: float = 0.3) -> dict[str, Any] | None:
    """The next message if one comes within `seconds`, else None."""
    try:
        return await client.receive(timeout=seconds)
    except TimeoutError:
        return None


async def _until(client: TableClient, wanted: Any) -> dict[str, Any]:
    for _ in range(50):
        message = await client.receive()
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


async def _advance(clock: ManualClock, seconds: float) -> None:
    await asyncio.to_thread(clock.advance_threadsafe, seconds)


async def _table_of_two(hall: LiveServer, http: httpx.AsyncClient) -> tuple[str, Any, Any]:
    """An HK table: Ana (host, East) and Bo (South) connected, two bots; the deal started."""
    room_id = await create_room(http, "hk", turn_seconds=40, deal_seconds=300)
    ana_seat, bo_seat = await join(http, room_id, "Ana"), await join(http, room_id, "Bo")
    ana = await TableClient.open(hall.ws_url(room_id, ana_seat["token"]), "Ana")
    bo = await TableClient.open(hall.ws_url(room_id, bo_seat["token"]), "Bo")
    ana.token, bo.token = ana_seat["token"], bo_seat["token"]  # type: ignore[attr-defined]
    assert (await add_bots(http, room_id)).status_code == 200
    await _until(ana, lambda m: m["type"] == "state" and m.get("me") == "E" and m["legal"])
    await _until(bo, lambda m: m["type"] == "state" and m.get("phase") not in (None, "waiting"))
    return room_id, ana, bo


async def test_a_paused_table_keeps_its_clocks_still(hall: LiveServer, clock: ManualClock) -> None:
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=10) as http:
        room_id, ana, bo = await _table_of_two(hall, http)
        before = ana.states[-1]
        assert before["room"]["host"] == 0 and before["turn_deadline"] is not None
        # Bo asks for a pause: one of two humans is no majority, so it waits for the host.
        await bo.send({"type": "pause", "id": "p1"})
        asked = await _until(ana, lambda m: m["type"] == "state")
        assert asked["room"]["paused"] is None
        assert asked["room"]["host_events"][-1]["kind"] == "pause_asked"
        await ana.send({"type": "pause"})
        paused = await _until(ana, lambda m: m["type"] == "state" and m["room"]["paused"])
        assert paused["room"]["paused"]["by"] == 0
        assert paused["turn_deadline"] is None and paused["deal_deadline"] is None
        assert paused["legal"] == []
        await _until(bo, lambda m: m["type"] == "state" and m["room"]["paused"])
        # Far past the turn clock and the deal clock: nothing moves.
        await _advance(clock, 1000)
        assert await _quiet(ana) is None and await _quiet(bo) is None
        await ana.send({"type": "action", "action": before["legal"][0], "id": 7})
        refused = await _until(ana, lambda m: m["type"] == "error")
        assert refused["code"] == "paused" and refused["id"] == 7
        assert (await room_state(http, room_id))["table"]["players"]["E"]["discards"] == []
        # Resumed: each clock has the time it had left when the table paused.
        await bo.send({"type": "resume"})  # not the host: a request, one of two
        await _until(ana, lambda m: m["type"] == "state")
        await ana.send({"type": "resume"})
        resumed = await _until(ana, lambda m: m["type"] == "state" and not m["room"]["paused"])
        assert resumed["turn_deadline"] == before["turn_deadline"] + 1_000_000
        assert resumed["deal_deadline"] == before["deal_deadline"] + 1_000_000
        assert resumed["legal"]
        kinds = [event["kind"] for event in resumed["room"]["host_events"]]
        assert kinds == ["pause_asked", "pause", "resume_asked", "resume"]
        await _advance(clock, 39)
        assert await _quiet(ana) is None, "39 of Ana's 40 s: still her turn"
        await _advance(clock, 1)
        moved = await _until(ana, lambda m: m["type"] == "state")
        assert moved["players"]["E"]["discards"], "the clock ran again: her bot discarded"
        await ana.close()
        await bo.close()


async def test_a_removed_players_token_is_dead_and_a_friend_takes_the_seat(
    hall: LiveServer, clock: ManualClock
) -> None:
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=10) as http:
        room_id, ana, bo = await _table_of_two(hall, http)
        await bo.send({"type": "remove_player", "player_index": 0, "id": "r"})
        not_host = await _until(bo, lambda m: m["type"] == "error")
        assert not_host["code"] == "not_host"
        await ana.send({"type": "remove_player", "player_index": 1})
        removed = await _until(ana, lambda m: m["type"] == "state")
        player = removed["room"]["players"][1]
        assert player["name"] == "Bo" and player["is_bot"] and player["bot_covered"]
        assert removed["room"]["host_events"][-1]["kind"] == "remove_player"
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await bo.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REMOVED
        async with connect(hall.ws_url(room_id, bo.token)) as again:  # type: ignore[attr-defined]
            with pytest.raises(ConnectionClosed) as refused:
                await asyncio.wait_for(again.recv(), 10)
        assert refused.value.rcvd is not None and refused.value.rcvd.code == CLOSE_BAD_TOKEN
        seen = await http.get(
            f"/api/rooms/{room_id}",
            headers={"Authorization": f"Bearer {bo.token}"},  # type: ignore[attr-defined]
        )
        assert seen.status_code == 403
        # The host offers the seat to Cy; Cy takes it once the deal is over.
        await ana.send({"type": "offer_seat", "player_index": 1})
        await _until(ana, lambda m: m["type"] == "state")
        body = {"name": "Cy", "invite": INVITES[room_id]}
        early = await http.post(f"/api/rooms/{room_id}/join", json=body)
        assert early.status_code == 409 and "deal ends" in early.json()["error"]["message"]
        await _advance(clock, 301)  # the deal clock runs out (Ana's bot plays her turns)
        await _until(ana, lambda m: m["type"] == "result")
        seated = await http.post(f"/api/rooms/{room_id}/join", json=body)
        assert seated.status_code == 200, seated.text
        assert seated.json()["player_index"] == 1
        cy = await TableClient.open(hall.ws_url(room_id, seated.json()["token"]), "Cy")
        first = await cy.receive()
        assert first["me"] is not None
        cy_seat = first["room"]["players"][1]
        assert cy_seat["name"] == "Cy" and not cy_seat["is_bot"] and cy_seat["connected"]
        await cy.close()
        await ana.close()


async def test_bot_levels_the_host_role_and_ending_the_game(hall: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=10) as http:
        room_id, ana, bo = await _table_of_two(hall, http)
        await ana.send({"type": "bot_level", "player_index": 2, "level": "genius", "id": 1})
        assert (await _until(ana, lambda m: m["type"] == "error"))["code"] == "bad_message"
        await ana.send({"type": "bot_level", "player_index": 1, "level": "easy", "id": 2})
        assert (await _until(ana, lambda m: m["type"] == "error"))["code"] == "bad_message"
        await ana.send({"type": "bot_level", "player_index": 2, "level": "easy"})
        level = await _until(ana, lambda m: m["type"] == "state")
        assert level["room"]["host_events"][-1]["text"].endswith("to easy")
        await ana.send({"type": "make_host", "player_index": 1})
        handed = await _until(ana, lambda m: m["type"] == "state")
        assert handed["room"]["host"] == 1
        await ana.send({"type": "end_game", "id": 3})
        assert (await _until(ana, lambda m: m["type"] == "error"))["code"] == "not_host"
        await bo.send({"type": "end_game"})
        ended = await _until(
            bo, lambda m: m["type"] == "state" and m["room"]["status"] == "finished"
        )
        assert ended["legal"] == [] and ended["room"]["host_events"][-1]["kind"] == "end_game"
        stored = (await room_state(http, room_id))["status"]
        assert stored == "finished"
        await ana.close()
        await bo.close()
