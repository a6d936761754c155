"""Fixtures for the API tests: a live uvicorn server on a temporary SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.live_server import LiveServer


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "hall.sqlite3").start()
    yield server
    server.stop()


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http_url, timeout=10) as client:
        yield client
