"""A real `mahjong-hall serve` killed with SIGKILL mid-deal comes back with the deal intact."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed

from tests.api.deal_truth import check_messages_against_truth, logged_deals, true_states
from tests.api.live_server import (
    TableClient,
    add_bots,
    create_room,
    free_port,
    invited,
    room_results,
    room_state,
)
from tests.serve import ServerProcess, serve_command, server_environment


def start_server(database: Path, port: int, log: Path) -> ServerProcess:
    env = server_environment(
        MAHJONG_BOT_DELAY="0.02", MAHJONG_BOT_LEVEL="baseline", MAHJONG_NEXT_DEAL_SECONDS="3600"
    )
    command = serve_command(
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database-url",
        f"sqlite+aiosqlite:///{database}",
    )
    server = ServerProcess(command, env, log)
    server.wait_for(f"http://127.0.0.1:{port}/healthz")
    return server


def logged_action_count(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT count(*) FROM deal_actions").fetchone()[0])


async def test_sigkill_mid_deal_then_restart_finishes_the_same_deal(tmp_path: Path) -> None:
    database = tmp_path / "crash.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port, tmp_path / "first.log")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            room_id = await create_room(http, "hk")
            ana = (
                await http.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Ana"))
            ).json()
            client = await TableClient.open(
                f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={ana['token']}"
            )
            await add_bots(http, room_id)
            playing = asyncio.create_task(client.play_until_result(timeout=60))
            while logged_action_count(database) < 8:
                assert not playing.done(), "the deal should still be running"
                await asyncio.sleep(0.01)
            server.kill()  # SIGKILL: a crash, no shutdown of any kind
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                await playing
            before = logged_deals(database, room_id)[0]
            assert before["result"] is None and len(before["actions"]) >= 8
    finally:
        server.kill()

    server = start_server(database, port, tmp_path / "second.log")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            room = await room_state(http, room_id)
            assert room["status"] == "playing" and room["deal_no"] == 1
            again = await TableClient.open(
                f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={ana['token']}"
            )
            result = await again.play_until_result(timeout=60)
            assert result["outcome"] in ("win", "draw")
            after = logged_deals(database, room_id)[0]
            # The earlier actions are intact, the deal went on from there, and the result is stored.
            assert after["actions"][: len(before["actions"])] == before["actions"]
            assert after["seed"] == before["seed"]
            assert after["result"]["outcome"] == result["outcome"]
            check_messages_against_truth(again.messages, "E", true_states(after))
            stored = await room_results(http, room_id)
            assert [d["outcome"] for d in stored["deals"]] == [result["outcome"]]
            await again.close()
    finally:
        server.stop()
