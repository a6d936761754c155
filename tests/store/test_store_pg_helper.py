"""The shared Postgres helper (tests/pg.py): skip locally, fail loudly in CI, clean up."""

from __future__ import annotations

import pytest

from tests import pg

UNREACHABLE = "postgresql+asyncpg://nobody@127.0.0.1:9/postgres"


def test_missing_postgres_is_skipped_when_not_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_TEST_POSTGRES", UNREACHABLE)
    monkeypatch.delenv("MAHJONG_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="does not answer"):
        pg.postgres_url_or_skip()


def test_missing_postgres_fails_loudly_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_TEST_POSTGRES", UNREACHABLE)
    monkeypatch.setenv("MAHJONG_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception, match="MAHJONG_REQUIRE_POSTGRES=1"):
        pg.postgres_url_or_skip()


def test_drop_database_refuses_anything_but_a_throwaway_database() -> None:
    with pytest.raises(ValueError, match="refusing"):
        pg.drop_database("postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")


def test_throwaway_database_is_created_and_dropped(postgres_database_url: str) -> None:
    # The session database proves creation works; make and drop a second one here.
    url = pg.create_throwaway_database()
    assert url != postgres_database_url
    assert "mahjong_test_" in url
    pg.drop_database(url)
    with pytest.raises(Exception, match="does not exist"):
        pg._run(lambda: _connect_and_close(url))


async def _connect_and_close(url: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(pg._asyncpg_dsn(url), timeout=5)
    await connection.close()
