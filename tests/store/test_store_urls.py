"""Which database a URL (or its absence) chooses."""

from __future__ import annotations

import pytest

from server.store import DEFAULT_DATABASE_URL, resolve_database_url


def test_default_is_the_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert (
        resolve_database_url()
        == DEFAULT_DATABASE_URL
        == "sqlite+aiosqlite:///./mahjong-hall.sqlite3"
    )


def test_environment_then_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@db/hall")
    assert resolve_database_url() == "postgresql+asyncpg://u@db/hall"
    assert resolve_database_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db:5432/hall", "postgresql+asyncpg://u:p@db:5432/hall"),
        ("postgresql://u@db/hall", "postgresql+asyncpg://u@db/hall"),
        ("sqlite:///./hall.sqlite3", "sqlite+aiosqlite:///./hall.sqlite3"),
        ("postgresql+asyncpg://u@db/hall", "postgresql+asyncpg://u@db/hall"),
        ("mysql://u@db/hall", "mysql://u@db/hall"),
    ],
)
def test_plain_schemes_get_the_async_driver(given: str, used: str) -> None:
    assert resolve_database_url(given) == used
