"""Which database a URL (or its absence) chooses."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from server.settings import Settings
from server.store import DEFAULT_DATABASE_URL, open_store, resolve_database_url
from server.store.database import create_engine_for


def test_default_is_the_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # The store never reads the environment: a `DATABASE_URL` there changes nothing here.
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@db/hall")
    assert (
        resolve_database_url()
        == DEFAULT_DATABASE_URL
        == "sqlite+aiosqlite:///./mahjong-hall.sqlite3"
    )


def test_the_given_url_is_used() -> None:
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


@pytest.mark.parametrize(("setting", "level"), [(None, 1), ("normal", 1), ("FULL", 2)])
async def test_sqlite_synchronous_level_follows_the_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, setting: str | None, level: int
) -> None:
    monkeypatch.setenv("MAHJONG_SQLITE_SYNCHRONOUS", "FULL" if level == 1 else "NORMAL")
    settings = Settings.from_environ(
        {} if setting is None else {"MAHJONG_SQLITE_SYNCHRONOUS": setting}
    )
    url = f"sqlite+aiosqlite:///{tmp_path / 'level.sqlite3'}"
    store = await open_store(url, settings.sqlite_synchronous)
    try:
        async with store.engine.connect() as conn:
            assert await conn.scalar(text("PRAGMA synchronous")) == level
            assert await conn.scalar(text("PRAGMA journal_mode")) == "wal"
    finally:
        await store.close()


def test_an_unknown_sqlite_synchronous_level_is_refused() -> None:
    with pytest.raises(ValueError, match="NORMAL, FULL"):
        create_engine_for("sqlite+aiosqlite:///unused.sqlite3", "OFF")
