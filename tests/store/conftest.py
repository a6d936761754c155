"""Fixtures for the store tests: every test runs against SQLite and against Postgres.

Postgres gets one throwaway database per test run (see tests/pg.py); each test empties it
by migrating down to base and up again, so tests never see each other's rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.store import Store, apply_migrations, downgrade_migrations, open_store
from tests.pg import drop_database, postgres_url_or_skip


@pytest.fixture(scope="session")
def postgres_database_url() -> Iterator[str]:
    """One throwaway Postgres database for the whole run, dropped at the end."""
    url = postgres_url_or_skip()
    yield url
    drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database (no tables) of each kind."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'store.sqlite3'}"
        return
    url = request.getfixturevalue("postgres_database_url")
    downgrade_migrations(url, "base")
    yield url
    downgrade_migrations(url, "base")


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """A migrated, empty store."""
    apply_migrations(database_url)
    opened = await open_store(database_url)
    yield opened
    await opened.close()
