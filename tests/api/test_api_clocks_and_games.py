"""Clocks through the app (a hand-driven clock inside a live server), and deal-after-deal games."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx

from server.rooms.clock import ManualClock
from server.rooms.settings import TableSettings
from tests.api.deal_truth import logged_deals
from tests.api.live_server import (
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    invited,
    join,
    room_results,
    room_state,
)


async def test_turn_timeout_and_deal_limit_through_the_app(tmp_path: Path) -> None:
    clock = ManualClock()
    live = LiveServer(
        tmp_path / "hall.sqlite3",
        clock=clock,
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
    ).start()
    try:
        async with httpx.AsyncClient(base_url=live.http_url) as http:
            room_id = await create_room(http, "hk", turn_seconds=40, deal_seconds=300)
            ana = await join(http, room_id, "Ana")
            client = await TableClient.open(live.ws_url(room_id, ana["token"]))
            await client.receive()
            await add_bots(http, room_id)
            state = await client.receive()
            assert state["me"] == "E" and state["legal"]
            assert state["turn_deadline"] == round((clock.now() + 40) * 1000)
            assert state["deal_deadline"] == round((clock.now() + 300) * 1000)
            # Ana sits on her turn: nothing moves until her 40 s are up, then her bot discards.
            await asyncio.to_thread(clock.advance_threadsafe, 39)
            try:
                early = await client.receive(timeout=0.3)
            except TimeoutError:
                early = None
            assert early is None, "nothing moves before the 40 s are up"
            await asyncio.to_thread(clock.advance_threadsafe, 1)
            moved = await client.receive()
            assert moved["seq"] == state["seq"] + 1
            assert moved["players"]["E"]["discards"], "East's bot discarded for her"
            deal = logged_deals(tmp_path / "hall.sqlite3", room_id)[0]
            assert deal["actions"][0]["seat"] == "E"
            with sqlite3.connect(tmp_path / "hall.sqlite3") as db:
                by_bot, reason = db.execute(
                    "SELECT by_bot, bot_reason FROM deal_actions ORDER BY deal_id, seq LIMIT 1"
                ).fetchone()
            assert by_bot and reason == "timeout"
            # Then the deal limit: 300 s after the start the deal ends as a timeout.
            # Ana keeps sitting; the bots play on. 301 s after the start the deal is over as a timeout.
            await asyncio.to_thread(clock.advance_threadsafe, 261)
            while True:
                message = await client.receive()
                if message["type"] == "result":
                    break
            assert message["outcome"] == "timeout" and message["winners"] == []
            stored = await room_results(http, room_id)
            assert stored["deals"][0]["outcome"] == message["outcome"]
            await client.close()
    finally:
        live.stop()


async def test_a_three_deal_kaki3_game_with_next_deal_then_finished(tmp_path: Path) -> None:
    live = LiveServer(
        tmp_path / "hall.sqlite3",
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
    ).start()
    try:
        async with httpx.AsyncClient(base_url=live.http_url) as http:
            room_id = await create_room(http, "kaki3", rounds=1)
            seated = [await join(http, room_id, name) for name in ("Ana", "Bo", "Cy")]
            clients = [await TableClient.open(live.ws_url(room_id, s["token"])) for s in seated]
            finals = []
            for deal_no in (1, 2, 3):
                results = await asyncio.gather(*(c.play_until_result() for c in clients))
                assert {r["deal_no"] for r in results} == {deal_no}
                finals.append(results[0])
                if deal_no < 3:
                    assert not results[0]["game_over"] and results[0]["next_deal_at"] is not None
                    for client in clients:
                        await client.send({"type": "next_deal"})
            assert finals[-1]["game_over"] and finals[-1]["next_deal_at"] is None
            deals = logged_deals(tmp_path / "hall.sqlite3", room_id)
            assert [d["deal_no"] for d in deals] == [1, 2, 3]
            # 3 Kaki: the winner (or, after a draw, the last to draw) deals next, seated East.
            for before, after in zip(deals, deals[1:], strict=False):
                next_dealer = before["result"]["next_dealer"]
                assert after["seat_players"]["E"] == before["seat_players"][next_dealer]
            stored = await room_results(http, room_id)
            assert len(stored["deals"]) == 3
            assert sum(stored["scores"].values()) == 0
            assert stored["scores"] == finals[-1]["running_scores"]
            room = await room_state(http, room_id)
            assert room["status"] == "finished"
            late = await http.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Late"))
            assert late.status_code == 409 and late.json()["error"]["code"] == "room_closed"
            for client in clients:
                await client.close()
    finally:
        live.stop()
