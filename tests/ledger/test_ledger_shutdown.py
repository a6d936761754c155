"""A stopping server does not wait for the phones watching a ledger: the real `mahjong-hall
serve`, SIGTERM with a ledger socket open; the socket closes with 1012 ("service restart",
the page reconnects) and the server exits at once, the ledger kept."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.ledger.hands import full_flush
from tests.ledger.ledger_hall import add, ledger, open_ledger
from tests.live import free_port
from tests.serve import ServerProcess, serve_command, server_environment


async def test_sigterm_closes_ledger_sockets_and_keeps_the_ledger(tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = server_environment(DATABASE_URL=database_url, PORT=str(port))
    server = ServerProcess(serve_command(), env, tmp_path / "serve.log")
    try:
        server.wait_for(f"{base}/readyz")
        async with httpx.AsyncClient(base_url=base) as client:
            opened = await open_ledger(client)
            assert (await add(client, opened, full_flush(1, 0, "1a 2a"))).status_code == 201
        url = f"ws://127.0.0.1:{port}/ws/ledgers/{opened['ledger_id']}?invite={opened['invite']}"
        async with connect(url) as phone:
            assert json.loads(await asyncio.wait_for(phone.recv(), 10))["revision"] == 1
            stopping = time.monotonic()
            server.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(phone.recv(), 20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        output = server.stop()
        assert not server.killed, output
        assert time.monotonic() - stopping < 10, output
    finally:
        server.stop()
    again = ServerProcess(serve_command(), env, tmp_path / "again.log")
    try:
        again.wait_for(f"{base}/readyz")
        async with httpx.AsyncClient(base_url=base) as client:
            assert (await ledger(client, opened))["scores"] == {"Ana": -8, "Bo": 12, "Cy": -4}
    finally:
        again.stop()
