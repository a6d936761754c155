"""A real server for the ledger's API tests, and the calls a phone at the table makes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from server.app import create_app
from server.settings import Settings
from server.store import apply_migrations
from tests.live import ServerThread, free_port
from tests.pg import drop_database, postgres_url_or_skip


class LedgerHall:
    """`create_app` served by uvicorn in a thread, on a migrated database."""

    def __init__(self, database_url: str, admin_token: str | None = None) -> None:
        apply_migrations(database_url)
        self.database_url = database_url
        self.port = free_port()
        app = create_app(database_url, settings=Settings(admin_token=admin_token))
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.serving = ServerThread(config)

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, ledger_id: str, invite: str | None) -> str:
        base = f"ws://127.0.0.1:{self.port}/ws/ledgers/{ledger_id}"
        return base if invite is None else f"{base}?invite={invite}"

    def start(self) -> LedgerHall:
        self.serving.start()
        return self

    def stop(self) -> None:
        self.serving.stop()


@contextmanager
def served(
    database: str,
    folder: Path,
    before_start: Callable[[str], None] | None = None,
    admin_token: str | None = None,
) -> Iterator[LedgerHall]:
    """A hall on a fresh `database` ("sqlite", in `folder`, or "postgres", dropped after);
    `before_start(url)` may fill the migrated database first."""
    url = (
        postgres_url_or_skip()
        if database == "postgres"
        else f"sqlite+aiosqlite:///{folder / 'hall.sqlite3'}"
    )
    hall = LedgerHall(url, admin_token)
    try:
        if before_start is not None:
            before_start(url)
        yield hall.start()
    finally:
        hall.stop()
        if database == "postgres":
            drop_database(url)


KAKI3_PLAYERS = ["Ana", "Bo", "Cy"]


async def open_ledger(
    client: httpx.AsyncClient, variant: str = "kaki3", **fields: Any
) -> dict[str, Any]:
    """Open a ledger; the answer of `POST /api/ledgers`."""
    players = fields.pop(
        "players", KAKI3_PLAYERS if variant == "kaki3" else ["Ana", "Bo", "Cy", "Di"]
    )
    answer = await client.post(
        "/api/ledgers", json={"variant": variant, "players": players, **fields}
    )
    assert answer.status_code == 201, answer.text
    opened: dict[str, Any] = answer.json()
    return opened


async def ledger(client: httpx.AsyncClient, opened: dict[str, Any]) -> dict[str, Any]:
    """The whole ledger, read with its invite."""
    answer = await client.get(
        f"/api/ledgers/{opened['ledger_id']}", params={"invite": opened["invite"]}
    )
    assert answer.status_code == 200, answer.text
    read: dict[str, Any] = answer.json()
    return read


async def add(
    client: httpx.AsyncClient, opened: dict[str, Any], hand: dict[str, Any]
) -> httpx.Response:
    """Record a hand (the invite in the body)."""
    return await client.post(
        f"/api/ledgers/{opened['ledger_id']}/hands", json={**hand, "invite": opened["invite"]}
    )
