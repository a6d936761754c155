"""One server per database: the lock `mahjong-hall serve` takes before it touches the data.

Each server process keeps every open room in its own memory, so two servers on one
database would both reopen the same rooms and play them apart (the constraints keep the
rows consistent, but each copy of a room goes stale). Until rooms are leased one by one,
a second server refuses to start:

- Postgres: a session advisory lock (`pg_try_advisory_lock`) on a connection of its own,
  held by a thread for the life of the process. Advisory locks belong to one database, so
  several servers can share one Postgres server with a database each. Should the
  connection drop (Postgres restarted), the thread reconnects and takes the lock again.
- SQLite: an exclusive `flock` on `<database file>.lock`, which the kernel releases when
  the process ends, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import threading

import asyncpg
from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

# The advisory lock key every Mahjong Hall server takes: "MJHALL" and a version byte.
ADVISORY_LOCK_KEY = 0x4D4A48414C4C0001
RECHECK_SECONDS = 2.0
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
    holds it) or `OSError`/a driver error (the database cannot be reached)."""
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
    """The Postgres lock, on a connection a daemon thread keeps for the process's life."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._taken = threading.Event()
        self._failure: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, name="server-lock", daemon=True)

    def take(self) -> None:
        self._thread.start()
        self._taken.wait()
        if self._failure is not None:
            raise self._failure

    def release(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=10)

    def _run(self) -> None:
        asyncio.run(self._hold())

    async def _lock(self) -> asyncpg.Connection:
        connection = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT_SECONDS)
        if await connection.fetchval("SELECT pg_try_advisory_lock($1)", ADVISORY_LOCK_KEY):
            return connection
        database = await connection.fetchval("SELECT current_database()")
        await connection.close()
        raise DatabaseInUseError(
            f"another Mahjong Hall server already serves the Postgres database {database} "
            "(it holds the server's advisory lock): stop it first, or give this server a "
            "database of its own. One server per database."
        )

    async def _hold(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            connection = await self._lock()
        except BaseException as error:
            self._failure = error
            self._taken.set()
            return
        self._taken.set()
        while not self._stop.is_set():
            try:
                await asyncio.wait_for(self._stop.wait(), RECHECK_SECONDS)
                break
            except TimeoutError:
                pass
            try:
                await connection.fetchval("SELECT 1")
                continue
            except Exception:
                log.warning("the database lock's connection dropped; taking the lock again")
            try:
                connection = await self._lock()
                log.info("the database lock is held again")
            except DatabaseInUseError as error:  # someone started while we were cut off
                log.error("%s", error)
            except Exception as error:  # still down: try again at the next check
                log.debug("the database lock cannot be taken yet: %s", error)
        with contextlib.suppress(Exception):  # a connection already dropped
            await connection.close()
