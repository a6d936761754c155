"""The lock `mahjong-hall serve` takes before it touches the data.

- SQLite: one server per database file. Each server process keeps its open rooms in its
  own memory, so two servers on one file would both reopen the same rooms and play them
  apart; a second one refuses to start. The lock is an exclusive `flock` on
  `<database file>.lock`, which the kernel releases when the process ends, however it ends.
- Postgres: several servers share one database, each room leased to one of them
  (`server/store/leases.py`, docs/scaling.md). The lock only keeps two servers from
  migrating at once: a session advisory lock (`pg_advisory_lock`, which waits) on a
  connection of its own, released once the migrations are applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import threading

import asyncpg
from sqlalchemy.engine import make_url

# The advisory lock key every Mahjong Hall server takes: "MJHALL" and a version byte.
ADVISORY_LOCK_KEY = 0x4D4A48414C4C0001
CONNECT_TIMEOUT_SECONDS = 10.0


class DatabaseInUseError(RuntimeError):
    """Another server process already serves this database (the message says what to do)."""


class ServerLock:
    """A held lock; `release` gives it back (the end of the process does too)."""

    def release(self) -> None:
        """Give the lock back."""


class _FileLock(ServerLock):
    def __init__(self, descriptor: int) -> None:
        self._descriptor: int | None = descriptor

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file drops the flock
            self._descriptor = None


def hold_server_lock(database_url: str) -> ServerLock:
    """Take this database's server lock, or raise `DatabaseInUseError` (another server
    holds it) or `OSError`/a driver error (the database cannot be reached).

    SQLite: the file's lock, for the life of the process. Postgres: the migration lock,
    which the caller releases once the migrations are applied; several servers then share
    the database, each room leased to one of them (docs/scaling.md).
    """
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        database = url.database
        if not database or database == ":memory:":
            return ServerLock()  # an in-memory database belongs to its process anyway
        return _lock_sqlite_file(database)
    if url.get_backend_name() == "postgresql":
        holder = _AdvisoryLock(url.set(drivername="postgresql").render_as_string(False))
        holder.take()
        return holder
    return ServerLock()


def is_shared(database_url: str) -> bool:
    """Whether several server processes may serve this database (Postgres, with leases)."""
    return make_url(database_url).get_backend_name() == "postgresql"


def _lock_sqlite_file(database: str) -> ServerLock:
    path = f"{database}.lock"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode(errors="replace").strip()
        os.close(descriptor)
        raise DatabaseInUseError(
            f"another Mahjong Hall server{f' (pid {holder})' if holder else ''} already "
            f"serves the SQLite database {database} (it holds {path}): stop it first. "
            "A SQLite database serves one server process; to run several, give each its "
            "own Postgres database (DATABASE_URL=postgresql+asyncpg://...)."
        ) from None
    os.ftruncate(descriptor, 0)
    os.write(descriptor, f"{os.getpid()}\n".encode())
    return _FileLock(descriptor)


class _AdvisoryLock(ServerLock):
    """The migration lock on Postgres, on a connection a daemon thread keeps until released
    (a session lock goes with its session, so even a SIGKILL releases it)."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._taken = threading.Event()
        self._failure: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, name="migration-lock", daemon=True)

    def take(self) -> None:
        self._thread.start()
        self._taken.wait()
        if self._failure is not None:
            raise self._failure

    def release(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=10)
            self._loop = None  # released once; a second call does nothing

    def _run(self) -> None:
        asyncio.run(self._hold())

    async def _hold(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            connection = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT_SECONDS)
            # Waits for a process migrating now (they all start together in a cluster).
            await connection.execute("SELECT pg_advisory_lock($1)", ADVISORY_LOCK_KEY)
        except BaseException as error:
            self._failure = error
            self._taken.set()
            return
        self._taken.set()
        await self._stop.wait()
        with contextlib.suppress(Exception):  # a connection already dropped
            await connection.close()
