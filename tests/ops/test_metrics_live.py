"""`/metrics` on the real server moves as deals are played, and a game's log holds no token."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from pathlib import Path

import httpx

from server.observability.logs import configure_logging
from tests.api.live_server import TableClient, add_bots, create_room, join
from tests.ops.live_hall import LiveHall
from tests.ops.prometheus_text import parse, value


async def _scrape(client: httpx.AsyncClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    answer = await client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parse(answer.text)


async def _seat_human_with_bots(
    client: httpx.AsyncClient, variant: str, **settings: int
) -> tuple[str, str]:
    room_id = await create_room(client, variant, **settings)
    joined = await join(client, room_id, "Ana")
    assert (await add_bots(client, room_id)).status_code == 200
    return room_id, joined["token"]


async def _play_one_deal(
    hall: LiveHall, client: httpx.AsyncClient, variant: str
) -> tuple[str, str, dict]:
    room_id, token = await _seat_human_with_bots(client, variant)
    player = await TableClient.open(hall.socket_url(room_id, token), "Ana")
    try:
        result = await player.play_until_result(timeout=90)
    finally:
        await player.close()
    return room_id, token, result


async def test_metrics_move_as_a_deal_is_played(tmp_path: Path) -> None:
    with LiveHall(tmp_path / "hall.sqlite3") as hall:
        async with httpx.AsyncClient(base_url=hall.base, timeout=10) as client:
            before = await _scrape(client)
            room_id, _token, result = await _play_one_deal(hall, client, "kaki3")
            after = await _scrape(client)
    outcome = result["outcome"]
    finished = "mahjong_deals_finished_total"
    assert value(after, finished, variant="kaki3", outcome=outcome) == (
        value(before, finished, variant="kaki3", outcome=outcome) + 1
    )
    human_actions = value(after, "mahjong_actions_total", by="human") - value(
        before, "mahjong_actions_total", by="human"
    )
    bot_actions = value(after, "mahjong_actions_total", by="bot") - value(
        before, "mahjong_actions_total", by="bot"
    )
    assert human_actions >= 1 and bot_actions >= 1
    # Every human action that was applied was timed.
    latency_count = value(after, "mahjong_action_latency_seconds_count") - value(
        before, "mahjong_action_latency_seconds_count"
    )
    assert latency_count == human_actions
    assert value(after, "mahjong_rooms", status="playing") >= 1
    assert room_id


async def test_a_turn_timeout_is_counted_with_its_bot_takeover(tmp_path: Path) -> None:
    with LiveHall(tmp_path / "hall.sqlite3") as hall:
        async with httpx.AsyncClient(base_url=hall.base, timeout=10) as client:
            before = await _scrape(client)
            room_id, token = await _seat_human_with_bots(client, "hk", turn_seconds=1)
            # Ana is East and must discard first; she stays connected and does nothing.
            player = await TableClient.open(hall.socket_url(room_id, token), "Ana")
            try:
                for _ in range(100):
                    now = await _scrape(client)
                    if value(now, "mahjong_turn_timeouts_total") > value(
                        before, "mahjong_turn_timeouts_total"
                    ):
                        break
                    await asyncio.sleep(0.1)
                assert value(now, "mahjong_connections", kind="player") >= 1
            finally:
                await player.close()
    assert (
        value(now, "mahjong_turn_timeouts_total")
        == value(before, "mahjong_turn_timeouts_total") + 1
    )
    assert value(now, "mahjong_bot_takeovers_total", reason="timeout") == (
        value(before, "mahjong_bot_takeovers_total", reason="timeout") + 1
    )
    assert value(now, "mahjong_tables") >= 1


async def test_a_games_log_carries_room_and_deal_ids_and_no_token(tmp_path: Path) -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    handler = configure_logging("json", "INFO", stream)
    try:
        with LiveHall(tmp_path / "hall.sqlite3") as hall:
            async with httpx.AsyncClient(base_url=hall.base, timeout=10) as client:
                room_id, token, _result = await _play_one_deal(hall, client, "hk")
                # The token also travels in a query string the access log sees.
                await client.get(f"/api/rooms/{room_id}", params={"token": token})
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    text = stream.getvalue()
    assert token not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert any("WebSocket" in str(line["message"]) for line in lines), "no access line seen"
    about_the_deal = [line for line in lines if line["room_id"] == room_id and line["deal_id"]]
    assert about_the_deal, "no line names the room and the deal"
    assert any("ends" in str(line["message"]) for line in about_the_deal)


async def test_operations_view_shows_live_tables_and_connected_players(tmp_path: Path) -> None:
    with LiveHall(tmp_path / "hall.sqlite3") as hall:
        # The table is private: the host's dashboard shows it with the admin token only.
        hall.app.state.admin_token = "host-only"
        admin = {"Authorization": "Bearer host-only"}
        async with httpx.AsyncClient(base_url=hall.base, timeout=10) as client:
            room_id, token = await _seat_human_with_bots(client, "kaki3")
            player = await TableClient.open(hall.socket_url(room_id, token), "Ana")
            try:
                await player.receive()
                answer = await client.get("/api/dashboard/operations", headers=admin)
                live = answer.json()["live"]
                # The deal in progress is listed live, but its breakdown stays hidden.
                room = next(r for r in live["rooms"] if r["room_id"] == room_id)
                hidden = await client.get(f"/api/dashboard/deals/{room['deal_id']}", headers=admin)
            finally:
                await player.close()
    assert live["tables"] >= 1 and live["connected_players"] >= 1
    assert room["status"] == "playing" and room["variant"] == "kaki3"
    players = {p["name"]: p for p in room["players"]}
    assert players["Ana"]["connected"] and not players["Ana"]["is_bot"]
    assert sum(p["is_bot"] for p in room["players"]) == 2
    assert hidden.status_code == 404
