"""Hints on a live server: off by default and refused there, strictly a boolean when a room
is opened, the full bot's move with a reason where allowed, and every hinted move logged
and shown in the result and the replay."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import httpx

from server.engine import Action
from server.rooms.settings import RoomSettings
from tests.api.live_server import (
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    get_room,
    invited,
    join,
)


async def first_decision(player: TableClient) -> dict[str, Any]:
    while True:
        message = await player.receive()
        if message["type"] == "state" and message.get("legal"):
            return message


async def own_turn(player: TableClient) -> dict[str, Any]:
    """The first decision on the player's own turn. Nothing else moves the table then (the
    turn is long, the bots wait for the discard), so the hint asked here cannot go stale:
    in a claim window a bot's claim could end the decision between the hint and the move,
    and the move would be refused. That race once stalled this test under load."""
    while True:
        message = await first_decision(player)
        if message["turn"] == message["me"]:
            return message


async def test_hints_are_off_by_default_and_refused(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    room_id = await create_room(http, "hk", turn_seconds=600)
    assert (await get_room(http, room_id)).json()["hints"] is False
    refused = await http.post("/api/rooms", json={"variant": "hk", "hints": "yes"})
    assert refused.status_code == 422
    seat = await join(http, room_id, "Ana")
    await add_bots(http, room_id)
    player = await TableClient.open(live.ws_url(room_id, seat["token"]), "Ana")
    try:
        await first_decision(player)
        await player.send({"type": "hint", "id": "h1"})
        answer = await player.receive()
        while answer["type"] != "error":
            answer = await player.receive()
        assert answer["code"] == "hints_off" and answer["id"] == "h1"
    finally:
        await player.close()


async def test_a_hint_is_the_bots_move_and_is_recorded(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    room_id = await create_room(http, "kaki3", turn_seconds=600, hints=True)
    assert (await get_room(http, room_id)).json()["hints"] is True
    # Stored with the room, so a restarted server reopens it with hints allowed.
    database = live.database_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(database) as db:
        (stored,) = db.execute(
            "SELECT settings FROM rooms WHERE room_id = ?", (room_id,)
        ).fetchone()
    assert RoomSettings.from_json(json.loads(stored)).hints is True
    seat = await join(http, room_id, "Ana")
    await add_bots(http, room_id)
    player = await TableClient.open(live.ws_url(room_id, seat["token"]), "Ana")
    try:
        state = await own_turn(player)
        await player.send({"type": "hint", "id": 7})
        answer = await player.receive()
        while answer["type"] != "hint":
            answer = await player.receive()
        assert answer["id"] == 7 and answer["seat"] == state["me"]
        assert answer["action"] in state["legal"], "the hint is one of my legal moves"
        assert isinstance(answer["reason"]["id"], str) and isinstance(
            answer["reason"]["params"], dict
        )
        await player.send({"type": "action", "action": answer["action"]})
        player.answered(state)
        result = await player.play_until_result(timeout=120)
        assert result["hints"] == {state["me"]: 1}
    finally:
        await player.close()
    replay = (await http.get(f"/api/rooms/{room_id}/deals/1", params=invited(room_id))).json()
    assert replay["hints"] == {state["me"]: 1}
    hinted = [
        step for step in replay["steps"] if any(m["kind"] == "hint_used" for m in step["marks"])
    ]
    assert len(hinted) == 1 and hinted[0]["by_bot"] is False
    assert Action.from_json(hinted[0]["action"]) == Action.from_json(answer["action"])
