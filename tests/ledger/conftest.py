"""The ledger tests' fixtures: a live server on each database, and the hypothesis profile
of the property tests (bot deals are slow to play, so few of them).

`MAHJONG_LEDGER_DEALS` raises the number of deals per property (the CI default keeps the
ledger's property tests to a few seconds each; docs/ledger.md, "Tests").
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from hypothesis import HealthCheck, settings

from tests.ledger.ledger_hall import LedgerHall, served

settings.register_profile(
    "ledger_bot_deals",
    max_examples=int(os.environ.get("MAHJONG_LEDGER_DEALS", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def ledger_hall(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LedgerHall]:
    """A real server (uvicorn in a thread) on SQLite and on Postgres, one per module."""
    with served(request.param, tmp_path_factory.mktemp("ledger")) as hall:
        yield hall


@pytest.fixture
async def client(ledger_hall: LedgerHall) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the hall."""
    async with httpx.AsyncClient(base_url=ledger_hall.http_url, timeout=20) as http:
        yield http
