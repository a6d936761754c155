"""A clean shutdown on SIGTERM: the real `mahjong-hall serve` in a subprocess, a player
connected mid-deal. The server stops accepting, tells the client it is restarting with
close code 1012 ("service restart"), exits, and the room and its deal are still there
when the server starts again."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.api.live_server import add_bots, create_room, join, room_state
from tests.live import free_port
from tests.serve import ServerProcess, serve_command, server_environment

CLOSE_SERVICE_RESTART = 1012


def _serve(database_url: str, port: int, log: Path) -> ServerProcess:
    env = server_environment(
        DATABASE_URL=database_url,
        PORT=str(port),
        MAHJONG_LOG_FORMAT="json",
        # Slow bots, so the deal is still running when the signal comes.
        MAHJONG_BOT_DELAY="5",
    )
    server = ServerProcess(serve_command(), env, log)
    server.wait_for(f"http://127.0.0.1:{port}/readyz")
    return server


def _stop(server: ServerProcess) -> str:
    output = server.stop()
    assert not server.killed, f"the server ignored SIGTERM:\n{output}"
    return output


async def test_sigterm_closes_tables_with_service_restart_and_keeps_the_deal(
    tmp_path: Path,
) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = _serve(database_url, port, tmp_path / "first.log")
    try:
        async with httpx.AsyncClient(base_url=base) as client:
            room_id = await create_room(client, "hk")
            seat = await join(client, room_id, "Ana")
            assert (await add_bots(client, room_id)).status_code == 200
        socket_url = f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={seat['token']}"
        async with connect(socket_url) as player:
            first = json.loads(await asyncio.wait_for(player.recv(), 10))
            assert first["type"] == "state"
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(player.recv(), 20)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == CLOSE_SERVICE_RESTART
        output = _stop(process)
        assert process.returncode in (0, -signal.SIGTERM), output
        assert "Application shutdown complete." in output
        # New connections are refused once the server has gone.
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{base}/healthz", timeout=2)
    finally:
        _stop(process)

    again = _serve(database_url, port, tmp_path / "second.log")
    try:
        async with httpx.AsyncClient(base_url=base) as client:
            room = await room_state(client, room_id)
        assert room["status"] == "playing"
        assert room["table"] is not None and room["table"]["phase"] != "ended"
    finally:
        _stop(again)
