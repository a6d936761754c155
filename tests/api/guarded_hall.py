"""A real `mahjong-hall serve` with chosen limits, and clients from chosen loopback addresses.

Every per-address limit counts the client's address, so each test speaks from its own
address in 127.0.0.0/8 (all of it is loopback on Linux): the tests sharing one server do
not spend each other's allowance.
"""

from __future__ import annotations

import itertools
import socket
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.api.live_server import INVITES
from tests.live import free_port
from tests.serve import ServerProcess, serve_command, server_environment


class GuardedHall:
    """One server process; `stop()` ends it."""

    def __init__(self, database_url: str, log: Path, **settings: str) -> None:
        self.port = free_port()
        env = server_environment(
            DATABASE_URL=database_url,
            PORT=str(self.port),
            MAHJONG_LOG_LEVEL="WARNING",
            **settings,
        )
        self.process = ServerProcess(serve_command(), env, log)
        self.process.wait_for(f"{self.base}/healthz")

    @property
    def base(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        """The server's own origin, as a browser on its pages sends it."""
        return self.base

    def client(self, address: str, **options: Any) -> httpx.AsyncClient:
        """An HTTP client whose connections come from `address`."""
        transport = httpx.AsyncHTTPTransport(local_address=address)
        return httpx.AsyncClient(base_url=self.base, transport=transport, timeout=10, **options)

    async def socket(
        self,
        address: str,
        room_id: str,
        token: str | None = None,
        *,
        invite: str | None = None,
        **options: Any,
    ) -> ClientConnection:
        """A table WebSocket from `address` (a spectator's without `token`)."""
        url = f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}"
        if token:
            url += f"?token={token}"
        elif invite:
            url += f"?invite={invite}"
        elif room_id in INVITES:  # a spectator of a private table comes with the link
            url += f"?invite={INVITES[room_id]}"
        return await connect(url, local_addr=(address, 0), open_timeout=10, **options)

    def raw(self, address: str, timeout: float = 10) -> socket.socket:
        """A bare TCP connection from `address`, for what no HTTP client would send."""
        connection = socket.create_connection(
            ("127.0.0.1", self.port), timeout=timeout, source_address=(address, 0)
        )
        return connection

    def rss_kib(self) -> int:
        """The server process's resident memory."""
        status = Path(f"/proc/{self.process.process.pid}/status").read_text()
        line = next(row for row in status.splitlines() if row.startswith("VmRSS:"))
        return int(line.split()[1])

    def stop(self) -> None:
        """SIGTERM and wait."""
        self.process.stop()


def read_answer(connection: socket.socket, seconds: float = 10) -> bytes:
    """Everything the server sends until it closes the connection (or `seconds` pass)."""
    deadline = time.monotonic() + seconds
    answer = b""
    while time.monotonic() < deadline:
        connection.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = connection.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            break
        if not chunk:
            break
        answer += chunk
    return answer


def status_of(answer: bytes) -> int:
    """The status code of a raw HTTP answer (0 when there is none)."""
    first = answer.split(b"\r\n", 1)[0].split()
    return int(first[1]) if len(first) > 1 and first[1].isdigit() else 0


def json_body_of(answer: bytes) -> bytes:
    """The body of a raw HTTP answer."""
    return answer.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in answer else b""


_addresses = itertools.count(20)


def fresh_address() -> str:
    """A loopback address no other test of this run speaks from."""
    number = next(_addresses)
    return f"127.0.{number // 250}.{number % 250 + 2}"
