"""The host's spectators switch against a real `mahjong-hall serve`, real WebSockets: turning
spectators off closes every spectator's socket with 4431 and refuses new ones, only the host
may do it, it is a host event, and a restarted server keeps it (and can turn them back on)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.api.live_server import INVITES, TableClient, create_room, free_port, join, room_state
from tests.serve import ServerProcess, serve_command, server_environment

CLOSE_NO_SPECTATORS = 4431


def _start(database: Path, port: int, log: Path) -> ServerProcess:
    command = serve_command(
        "--host", "127.0.0.1", "--port", str(port),
        "--database-url", f"sqlite+aiosqlite:///{database}",
    )  # fmt: skip
    server = ServerProcess(command, server_environment(MAHJONG_BOT_DELAY="0"), log)
    server.wait_for(f"http://127.0.0.1:{port}/healthz")
    return server


async def _until(client: TableClient, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(30):
        message = await client.receive()
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


async def _closed_with(client: TableClient) -> int | None:
    """The code the server closes `client` with, after at most a few messages."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            await client.receive()
    return closed.value.rcvd.code if closed.value.rcvd else None


def _switched(allowed: bool) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and m["room"]["spectators_allowed"] is allowed


async def test_the_host_turns_spectators_off_and_on_and_a_restart_keeps_it(
    tmp_path: Path,
) -> None:
    database, port = tmp_path / "hall.sqlite3", free_port()
    base = f"ws://127.0.0.1:{port}/ws/rooms"
    server = _start(database, port, tmp_path / "first.log")
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            room_id = await create_room(http, "hk")
            ana, bo = await join(http, room_id, "Ana"), await join(http, room_id, "Bo")
        watch = f"{base}/{room_id}?invite={INVITES[room_id]}"
        host = await TableClient.open(f"{base}/{room_id}?token={ana['token']}", "Ana")
        guest = await TableClient.open(f"{base}/{room_id}?token={bo['token']}", "Bo")
        spectator = await TableClient.open(watch)
        assert (await spectator.receive())["type"] == "state"

        await guest.send({"type": "spectators", "allowed": False, "id": 7})
        refused = await _until(guest, lambda m: m["type"] == "error")
        assert refused["code"] == "not_host" and refused["id"] == 7
        await host.send({"type": "spectators", "allowed": "no", "id": 8})
        bad = await _until(host, lambda m: m["type"] == "error")
        assert bad["code"] == "bad_message" and bad["id"] == 8
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            room = await room_state(http, room_id)
        assert room["spectators_allowed"] is True and room["spectators"] == 1, "nothing changed"

        await host.send({"type": "spectators", "allowed": False})
        state = await _until(host, _switched(False))
        event = state["room"]["host_events"][-1]
        assert event["kind"] == "spectators" and event["allowed"] is False and event["by"] == 0
        assert await _closed_with(spectator) == CLOSE_NO_SPECTATORS
        assert await _closed_with(await TableClient.open(watch)) == CLOSE_NO_SPECTATORS
        # Players are never refused: Bo reconnects.
        await guest.close()
        guest = await TableClient.open(f"{base}/{room_id}?token={bo['token']}", "Bo")
        assert (await guest.receive())["room"]["spectators_allowed"] is False
        for client in (host, guest):
            await client.close()
    finally:
        server.stop()

    server = _start(database, port, tmp_path / "second.log")
    try:
        assert await _closed_with(await TableClient.open(watch)) == CLOSE_NO_SPECTATORS
        host = await TableClient.open(f"{base}/{room_id}?token={ana['token']}", "Ana")
        await _until(host, _switched(False))
        await host.send({"type": "spectators", "allowed": True})
        await _until(host, _switched(True))
        spectator = await TableClient.open(watch)
        watched = await spectator.receive()
        assert watched["type"] == "state" and watched["room"]["spectators_allowed"] is True
        for client in (host, spectator):
            with contextlib.suppress(ConnectionClosed):
                await client.close()
    finally:
        server.stop()
