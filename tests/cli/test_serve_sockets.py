"""The real `mahjong-hall serve`: its sockets do not compress unless the operator turns
compression on, and a table plays over either kind."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.api.live_server import add_bots, create_room, join
from tests.live import free_port
from tests.serve import ServerProcess, serve_command, server_environment


async def first_state(port: int) -> tuple[str | None, dict[str, object]]:
    """Join a fresh room with bots over a client offering permessage-deflate (as browsers
    do); the extension the server accepted, and the first `state`."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        room_id = await create_room(http, "hk")
        seat = await join(http, room_id, "Ana")
        assert (await add_bots(http, room_id)).status_code == 200
    url = f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={seat['token']}"
    async with connect(url, compression="deflate") as player:
        state = json.loads(await asyncio.wait_for(player.recv(), 10))
        assert player.response is not None
        return player.response.headers.get("Sec-WebSocket-Extensions"), state


@pytest.mark.parametrize(("setting", "negotiated"), [(None, False), ("on", True)])
async def test_compression_is_off_unless_turned_on(
    tmp_path: Path, setting: str | None, negotiated: bool
) -> None:
    port = free_port()
    settings = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"}
    if setting is not None:
        settings["MAHJONG_WS_COMPRESSION"] = setting
    server = ServerProcess(
        serve_command("--port", str(port)), server_environment(**settings), tmp_path / "log"
    )
    try:
        server.wait_for(f"http://127.0.0.1:{port}/readyz")
        extension, state = await first_state(port)
    finally:
        server.stop()
    assert (extension is not None and "permessage-deflate" in extension) is negotiated
    assert state["type"] == "state" and state["hand"]


def test_a_malformed_compression_setting_stops_serve(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(
        serve_command("--port", str(port)),
        server_environment(
            DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}",
            MAHJONG_WS_COMPRESSION="maybe",
        ),
        tmp_path / "log",
    )
    server.process.wait(timeout=60)
    assert server.returncode != 0
    assert "MAHJONG_WS_COMPRESSION must be on or off" in server.output
