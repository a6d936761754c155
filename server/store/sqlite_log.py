"""The action log's batch INSERT on SQLite: one plain `sqlite3` call, not a dozen hops.

Through SQLAlchemy and aiosqlite, one batch (begin, cursor, execute, close, commit, the
pool's reset) crosses to the database thread and back half a dozen times, each crossing a
wake-up of two threads and a fight for the GIL. At a human pace, with batches of one or
two rows, those hops were most of the server's CPU per action (docs/benchmarks.md,
"Server load"). Here the whole batch (executemany and commit) is one call on a plain
`sqlite3` connection: on the event loop's thread itself under synchronous=NORMAL (no
fsync to wait for), else in a single-thread executor, where waiting for the disk blocks
nothing else.

The values are converted by SQLAlchemy's own bind processors for this dialect, so the rows
are stored exactly as `deal_actions.insert()` would store them; everything else (reads, the
one-row retries that explain a refused batch) still goes through SQLAlchemy. The same
thread also runs a finished deal's whole transaction (`run_transaction`, SQLAlchemy on a
synchronous connection): one hop instead of one per statement.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.store.database import apply_sqlite_pragmas, checked_synchronous
from server.store.schema import deal_actions

log = logging.getLogger(__name__)


def sqlite_file(engine: AsyncEngine) -> str | None:
    """The SQLite file behind `engine`, or None for an in-memory database."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return database


# Commits on the loop's connection between two checkpoints (SQLite's own default is a
# checkpoint once the WAL holds 1,000 pages; each small commit adds a page or two).
CHECKPOINT_EVERY = 500


class SqliteBatchInsert:
    """Inserts action rows and commits, on its own connection and thread."""

    def __init__(self, engine: AsyncEngine, path: str, synchronous: str = "NORMAL") -> None:
        dialect = engine.dialect
        columns = list(deal_actions.columns)
        self._names = [column.name for column in columns]
        self._processors: list[Callable[[Any], Any] | None] = [
            column.type.dialect_impl(dialect).bind_processor(dialect) for column in columns
        ]
        self._sql = (
            f"INSERT INTO deal_actions ({', '.join(self._names)}) "
            f"VALUES ({', '.join('?' for _ in columns)})"
        )
        self._path = path
        self._synchronous = checked_synchronous(synchronous)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="action-log")
        self._db: sqlite3.Connection | None = None  # the thread's connection
        self._inline: sqlite3.Connection | None = None  # the event loop thread's
        self._transactions: Engine | None = None  # SQLAlchemy, on the thread (run_transaction)
        self.commits = 0  # batches committed (tests check that appends share commits)
        self._since_checkpoint = 0

    def _row(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row[name] if process is None else process(row[name])
            for name, process in zip(self._names, self._processors, strict=True)
        )

    async def insert(self, rows: list[dict[str, Any]]) -> None:
        """Insert and commit `rows`; a refused batch raises SQLAlchemy's IntegrityError."""
        values = [self._row(row) for row in rows]
        try:
            if self._synchronous == "NORMAL" and self._write_inline(values):
                return
            await asyncio.get_running_loop().run_in_executor(self._executor, self._write, values)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(self._sql, None, error) from error

    def _write_inline(self, values: list[tuple[Any, ...]]) -> bool:
        """Write on the event loop's own thread; False if the file is busy (then the thread
        waits for it instead). Only with synchronous=NORMAL: the commit then goes to the WAL
        without waiting for the disk, tens of microseconds for a few rows, which is cheaper
        than the hop to a thread and back (but an fsync there would stall every table)."""
        db = self._inline if self._inline is not None else self._open(inline=True)
        try:
            db.executemany(self._sql, values)
            db.commit()
        except sqlite3.OperationalError as error:
            db.rollback()
            if "locked" in str(error) or "busy" in str(error):
                return False  # another process writes: never block the loop waiting for it
            raise
        except BaseException:
            db.rollback()
            raise
        self.commits += 1
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            # SQLite would checkpoint inside a commit, i.e. on the loop, fsync included:
            # the loop's connection never does; the thread does it without blocking anyone.
            self._since_checkpoint = 0
            checkpoint = asyncio.get_running_loop().run_in_executor(
                self._executor, self._checkpoint
            )
            checkpoint.add_done_callback(_report_failure)
        return True

    async def run_transaction(self, work: Callable[..., Any], *arguments: Any) -> Any:
        """Run `work(connection, *arguments)` in one SQLAlchemy transaction on this log's
        thread, and return what it returns: a whole transaction for one hop to a thread,
        where through aiosqlite every statement is a hop (and a wait for the busy loop)."""
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, self._transaction, work, arguments
        )

    def _transaction(self, work: Callable[..., Any], arguments: tuple[Any, ...]) -> Any:
        if self._transactions is None:
            engine = create_engine(f"sqlite:///{self._path}", connect_args={"timeout": 30})
            synchronous = self._synchronous

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                apply_sqlite_pragmas(dbapi_connection, synchronous)

            self._transactions = engine
        with self._transactions.begin() as connection:
            return work(connection, *arguments)

    def _checkpoint(self) -> None:
        db = self._db if self._db is not None else self._open(inline=False)
        db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _write(self, values: list[tuple[Any, ...]]) -> None:
        db = self._db if self._db is not None else self._open(inline=False)
        try:
            db.executemany(self._sql, values)
            db.commit()
        except BaseException:
            db.rollback()
            raise
        self.commits += 1

    def _open(self, *, inline: bool) -> sqlite3.Connection:
        # The same settings as the store's other connections (database.py); the loop's own
        # connection does not wait for a lock held by another process.
        busy_ms = 0 if inline else 30000
        db = sqlite3.connect(self._path, timeout=busy_ms / 1000)
        apply_sqlite_pragmas(db, self._synchronous, busy_ms)
        if inline:
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._inline = db
        else:
            self._db = db
        return db

    async def close(self) -> None:
        """Close the connections and stop the thread."""

        def close() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None
            if self._transactions is not None:
                self._transactions.dispose()
                self._transactions = None

        if self._inline is not None:
            self._inline.close()
            self._inline = None
        await asyncio.get_running_loop().run_in_executor(self._executor, close)
        self._executor.shutdown(wait=True)


def _report_failure(done: asyncio.Future[None]) -> None:
    # A failed checkpoint loses nothing (the WAL keeps every commit); say so and go on.
    if not done.cancelled() and done.exception() is not None:
        log.warning("WAL checkpoint failed: %s", done.exception())
