"""Fixtures for the API tests: a live uvicorn server on a temporary SQLite file, and a real
`serve` with tight limits on Postgres (`guarded_hall`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.guarded_hall import GuardedHall
from tests.api.live_server import LiveServer
from tests.pg import drop_database, postgres_url_or_skip


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "hall.sqlite3").start()
    yield server
    server.stop()


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http_url, timeout=10) as client:
        yield client


@pytest.fixture(scope="session")
def guarded_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GuardedHall]:
    """`serve` on Postgres with tight limits, shared by the tests of the limits (each test
    speaks from its own address, so per-address limits do not cross)."""
    database_url = postgres_url_or_skip()
    hall = GuardedHall(
        database_url,
        tmp_path_factory.mktemp("guarded") / "serve.log",
        MAHJONG_ROOMS_PER_MINUTE="3",
        MAHJONG_JOINS_PER_MINUTE="4",
        MAHJONG_SOCKETS_PER_ADDRESS="3",
        MAHJONG_SPECTATORS_PER_ROOM="2",
        MAHJONG_HEADER_TIMEOUT_SECONDS="1",
        MAHJONG_ALLOWED_HOSTS="mahjong.example",
        MAHJONG_ALLOWED_ORIGINS="https://friends.example",
    )
    yield hall
    hall.stop()
    drop_database(database_url)
