"""The real app served by uvicorn in a thread, with uvicorn's own logging left to ours
(log_config=None), so tests see every line the server writes, access lines included."""

from __future__ import annotations

from pathlib import Path

import uvicorn

from server.app import create_app
from server.rooms.settings import TableSettings
from server.store import apply_migrations
from tests.live import ServerThread, free_port


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
        self.serving = ServerThread(config)
        self.server = self.serving.server

    @property
    def base(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def socket_url(self, room_id: str, token: str) -> str:
        """A player's table socket address."""
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{room_id}?token={token}"

    def __enter__(self) -> LiveHall:
        self.serving.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.serving.stop()
