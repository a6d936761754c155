"""Which database to use, and an async engine set up for it.

The URL and SQLite's `synchronous` level come from the caller (`Settings.database_url`
and `Settings.sqlite_synchronous`, read from `DATABASE_URL` and
`MAHJONG_SQLITE_SYNCHRONOUS` by the command's entry point); this module never reads the
environment. Without a URL the store uses a SQLite file in the working directory, so the
server runs with nothing else installed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./mahjong-hall.sqlite3"

# Plain scheme -> the async driver the store runs on. Hosting platforms commonly hand out
# `postgres://...`, which would otherwise fail with an obscure driver error.
ASYNC_SCHEMES = {
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "sqlite": "sqlite+aiosqlite",
}


def resolve_database_url(database_url: str | None = None) -> str:
    """The URL to use: the one given, else the default SQLite file.

    A URL without a driver (`postgresql://`, `postgres://`, `sqlite://`) gets the async one.
    """
    url = database_url or DEFAULT_DATABASE_URL
    scheme, separator, rest = url.partition("://")
    if separator and scheme in ASYNC_SCHEMES:
        return f"{ASYNC_SCHEMES[scheme]}://{rest}"
    return url


SQLITE_SYNCHRONOUS = ("NORMAL", "FULL")


def checked_synchronous(level: str) -> str:
    """`level` as SQLite's `synchronous` pragma takes it, refused unless NORMAL or FULL.

    Under WAL, NORMAL writes each commit to the log without waiting for the disk (fsync
    only at checkpoints): a killed or crashed server process loses nothing, but a power
    cut or OS crash can lose the last commits. FULL waits for the disk at every commit
    (docs/persistence.md, "Durability"). The level goes into a pragma's text, so nothing
    else may pass.
    """
    upper = level.strip().upper()
    if upper not in SQLITE_SYNCHRONOUS:
        raise ValueError(
            f"the SQLite synchronous level must be one of {', '.join(SQLITE_SYNCHRONOUS)}, "
            f"not {level!r}"
        )
    return upper


def apply_sqlite_pragmas(dbapi_connection: Any, synchronous: str, busy_ms: int = 30000) -> None:
    """The settings every SQLite connection of the store runs with. WAL lets readers run
    while a writer commits; see `checked_synchronous` for what each level keeps."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
    cursor.close()


def create_engine_for(database_url: str, sqlite_synchronous: str = "NORMAL") -> AsyncEngine:
    """An async engine tuned for the database kind (SQLite pragmas, or a Postgres pool)."""
    if database_url.startswith("sqlite"):
        synchronous = checked_synchronous(sqlite_synchronous)
        engine = create_async_engine(database_url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            apply_sqlite_pragmas(dbapi_connection, synchronous)

        return engine
    return create_async_engine(database_url, pool_size=20, max_overflow=20, pool_recycle=1800)
