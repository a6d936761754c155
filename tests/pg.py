"""Throwaway Postgres databases for tests, shared by every test package.

`MAHJONG_TEST_POSTGRES` is an admin URL (default
`postgresql+asyncpg://postgres@127.0.0.1:5432/postgres`). Each call to
`create_throwaway_database()` creates a database with a random name on that server and
returns its SQLAlchemy URL; `drop_database(url)` removes it.

`postgres_url_or_skip()` applies the project's policy: when Postgres does not answer, the
test is skipped, unless `MAHJONG_REQUIRE_POSTGRES=1` (CI), where it fails loudly.

The functions are synchronous and safe to call from inside a running event loop (they run
asyncpg on their own loop in a worker thread), so sync and async fixtures can both use them.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import asyncpg
import pytest
from sqlalchemy.engine import make_url

DEFAULT_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
CONNECT_TIMEOUT_SECONDS = 5

T = TypeVar("T")


class PostgresUnavailable(RuntimeError):
    """The admin URL did not answer, so no throwaway database can be made."""


def admin_url() -> str:
    """The admin URL tests create databases through."""
    return os.environ.get("MAHJONG_TEST_POSTGRES") or DEFAULT_ADMIN_URL


def postgres_required() -> bool:
    """Whether a missing Postgres is a failure (CI) rather than a skip."""
    return os.environ.get("MAHJONG_REQUIRE_POSTGRES") == "1"


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _run(coroutine_factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a private loop in a worker thread."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine_factory())
        except BaseException as error:
            outcome["error"] = error

    worker = threading.Thread(target=work, name="tests-pg")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


async def _admin_execute(sql: str) -> None:
    try:
        connection = await asyncpg.connect(
            _asyncpg_dsn(admin_url()), timeout=CONNECT_TIMEOUT_SECONDS
        )
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        raise PostgresUnavailable(
            f"Postgres does not answer at {make_url(admin_url()).render_as_string()}: {error!r}"
        ) from error
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def create_throwaway_database() -> str:
    """Create an empty database with a random name; return its SQLAlchemy asyncpg URL."""
    name = f"mahjong_test_{secrets.token_hex(6)}"
    _run(lambda: _admin_execute(f'CREATE DATABASE "{name}"'))
    return make_url(admin_url()).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop the database `url` names, closing any connection left open to it."""
    name = make_url(url).database
    if not name or not name.startswith("mahjong_test_"):
        raise ValueError(f"refusing to drop {name!r}: not a throwaway test database")
    _run(lambda: _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def postgres_url_or_skip() -> str:
    """A fresh throwaway database URL, or skip (fail under MAHJONG_REQUIRE_POSTGRES=1)."""
    try:
        return create_throwaway_database()
    except PostgresUnavailable as error:
        if postgres_required():
            pytest.fail(f"MAHJONG_REQUIRE_POSTGRES=1 but {error}", pytrace=False)
        pytest.skip(str(error))
