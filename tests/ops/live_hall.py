"""The real app served by uvicorn in a thread, with uvicorn's own logging left to ours
(log_config=None), so tests see every line the server writes, access lines included."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn

from server.app import create_app
from server.rooms.settings import TableSettings
from server.store import apply_migrations


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveHall:
    """`create_app` on a migrated SQLite file, bots answering at once."""

    def __init__(self, database_path: Path) -> None:
        database_url = f"sqlite+aiosqlite:///{database_path}"
        apply_migrations(database_url)
        self.port = free_port()
        self.app = create_app(
            database_url, table_settings=TableSettings(bot_delay=0, next_deal_seconds=3600)
        )
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_config=None,
            log_level="info",
            access_log=True,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def socket_url(self, room_id: str, token: str) -> str:
        """A player's table socket address."""
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}?token={token}"

    def __enter__(self) -> LiveHall:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
