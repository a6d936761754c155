"""A peer that stops answering WebSocket pings is dropped, and its seat goes to the bot."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from pathlib import Path

import httpx

from server.rooms.settings import TableSettings
from tests.api.live_server import (
    LiveServer,
    create_room,
    join,
    room_state,
)


def silent_handshake(port: int, path: str) -> socket.socket:
    """Open a WebSocket by hand, then never read or answer anything: a dead peer."""
    peer = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    peer.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b"101" in peer.recv(1024).split(b"\r\n", 1)[0]
    return peer


async def test_a_silent_connection_is_noticed_and_its_seat_covered(tmp_path: Path) -> None:
    live = LiveServer(
        tmp_path / "hall.sqlite3",
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600, bot_level="baseline"),
        ping_seconds=0.3,
    ).start()
    try:
        async with httpx.AsyncClient(base_url=live.http_url) as http:
            room_id = await create_room(http, "kaki3")
            ana = await join(http, room_id, "Ana")
            peer = silent_handshake(live.port, f"/ws/rooms/{room_id}?token={ana['token']}")

            async def ana_connected() -> bool:
                room = await room_state(http, room_id)
                return bool(room["players"][0]["connected"])

            await asyncio.sleep(0.1)
            assert await ana_connected()
            # Ping every 0.3 s, no pong within 0.3 s: dropped in well under 2 s.
            for _ in range(40):
                await asyncio.sleep(0.1)
                if not await ana_connected():
                    break
            assert not await ana_connected()
            room = await room_state(http, room_id)
            assert room["players"][0]["bot_covered"]
            peer.close()
    finally:
        live.stop()
