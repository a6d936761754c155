"""House rules chosen when a table opens, over real uvicorn with the injected clock: they
are checked, shown in the room and the view, stored with each deal, and the time bank is
spent when the turn clock runs out before the bot steps in, and what is left comes back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.rooms.clock import ManualClock
from server.rooms.settings import TableSettings
from tests.api.live_server import (
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    join,
    room_results,
    room_state,
)

RULES = {"min_fan": 1, "points": "half", "win_payment": "everyone_full", "time_bank_seconds": 30}


@pytest.mark.parametrize(
    "rules",
    [
        {"min_fan": 7},
        {"colour": "red"},
        {"variant": "kaki3"},
        {"time_bank_seconds": 301},
        ["min_fan"],
    ],
)
async def test_bad_house_rules_are_refused(http: httpx.AsyncClient, rules: Any) -> None:
    answer = await http.post("/api/rooms", json={"variant": "hk", "rules": rules})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "validation_error"
    listed = await http.get("/api/rooms")
    assert listed.json()["total"] == 0, "a refused table is not opened"


async def _until(client: TableClient, wanted: Any) -> dict[str, Any]:
    for _ in range(50):
        message = await client.receive()
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


async def test_house_rules_are_shown_stored_and_the_time_bank_is_spent(tmp_path: Path) -> None:
    clock = ManualClock()
    live = LiveServer(
        tmp_path / "hall.sqlite3",
        clock=clock,
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
    ).start()
    try:
        async with httpx.AsyncClient(base_url=live.http_url, timeout=10) as http:
            room_id = await create_room(http, "hk", turn_seconds=40, deal_seconds=300, rules=RULES)
            expected = {"variant": "hk", "fan_cap": 8, **RULES}
            assert (await room_state(http, room_id))["rules"] == expected
            ana = await join(http, room_id, "Ana")
            client = await TableClient.open(live.ws_url(room_id, ana["token"]), "Ana")
            await client.receive()
            await add_bots(http, room_id)
            turn = await _until(client, lambda m: m["type"] == "state" and m["legal"])
            assert turn["room"]["rules"] == expected  # the room carries them, not each move
            assert turn["room"]["players"][0]["time_bank_seconds"] == 30
            # Her 40 s run out: her bank's 30 s follow, not the bot.
            await asyncio.to_thread(clock.advance_threadsafe, 40)
            banked = await _until(client, lambda m: m["type"] == "state")
            assert banked["players"]["E"]["discards"] == [], "the bot did not step in"
            assert banked["turn_deadline"] == round((clock.now() + 30) * 1000)
            assert banked["room"]["players"][0]["time_bank_seconds"] == 0
            # She plays 10 s into it: 20 s go back to her bank.
            await asyncio.to_thread(clock.advance_threadsafe, 10)
            await client.send({"type": "action", "action": banked["legal"][0]})
            after = await _until(
                client, lambda m: m["type"] == "state" and m["players"]["E"]["discards"]
            )
            assert after["room"]["players"][0]["time_bank_seconds"] == 20
            # The deal clock ends the deal; the stored deal names the rules it was played by.
            await asyncio.to_thread(clock.advance_threadsafe, 300)
            await _until(client, lambda m: m["type"] == "result")
            deals = (await room_results(http, room_id))["deals"]
            assert [deal["rules"] for deal in deals] == [expected]
            await client.close()
    finally:
        live.stop()
