"""Group commit for the action log: many tables' actions share one transaction.

Every action must be committed before the room broadcasts it, and a commit costs an fsync
(a few milliseconds on an ordinary disk) plus a driver round trip. One commit per action
caps a whole server at a few hundred actions per second; measured figures are in
docs/benchmarks.md ("Persistence").

So `append` queues the row and then waits for the flush lock. Whoever holds the lock
writes *everything* queued so far in one INSERT and one commit; the callers whose rows
went out with that batch find their future already resolved and return without touching
the database. A lone table still pays one commit per action (no added delay); under load
the batches grow by themselves. Nobody returns before their own row is committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.errors import DuplicateRecordError, StoreError, UnknownDealError
from server.store.leases import LeaseFence
from server.store.schema import deal_actions, deals

Transaction = Callable[[], AbstractAsyncContextManager[AsyncConnection]]
InsertMany = Callable[[list[dict[str, Any]]], Awaitable[None]]


class ActionLogWriter:
    """Appends rows to `deal_actions`, committing concurrent appends together."""

    def __init__(self, transaction: Transaction, insert_many: InsertMany | None = None) -> None:
        self._transaction = transaction
        # A faster way to write and commit a whole batch, when the database has one
        # (SQLite: `sqlite_log`); refused batches are still retried row by row below.
        self._insert_many = insert_many
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._flush_lock = asyncio.Lock()
        # Several processes on one Postgres (docs/scaling.md): a row is written only by the
        # owner of its room's lease, and only as the next seq of its deal.
        self.fence: LeaseFence | None = None

    async def append(self, row: dict[str, Any]) -> None:
        """Return once `row` is committed; raise if it was refused (duplicate seq, no deal)."""
        committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, committed))
        if len(self._pending) == 1 and not self._flush_lock.locked():
            # The first row of a batch lets the loop finish its turn, so the rows other
            # tables append in the same turn share the commit even when a commit itself
            # never waits (SQLite under synchronous=NORMAL writes without an fsync).
            await asyncio.sleep(0)
        async with self._flush_lock:
            # Our row may already be in a batch still committing (its flusher was
            # cancelled and let go of the lock): then there may be nothing left to flush.
            if not committed.done() and self._pending:
                # Shielded: the batch carries other tables' rows, so cancelling this caller
                # (a room shutting down) must not abandon theirs halfway.
                await asyncio.shield(self._flush())
        await committed

    async def _flush(self) -> None:
        """Commit every queued row; resolve (never raise into) each row's future."""
        batch, self._pending = self._pending, []
        if not batch:
            return
        refused: dict[int, StoreError] = {}
        try:
            rows = [row for row, _ in batch]
            if self._insert_many is not None:
                await self._insert_many(rows)
            else:
                async with self._transaction() as conn:
                    refused = await self._insert(conn, rows)
        except Exception as error:
            if len(batch) == 1 and not isinstance(error, IntegrityError):
                _fail(batch[0][1], error)
            else:
                # One bad row must not sink the other tables' actions: write them one at a
                # time so each caller learns about its own row only.
                for row, committed in batch:
                    await self._write_alone(row, committed)
        else:
            for index, (_, committed) in enumerate(batch):
                if index in refused:
                    _fail(committed, refused[index])
                elif not committed.done():
                    committed.set_result(None)
        finally:
            # Whatever happened, no caller may wait forever.
            for _, committed in batch:
                _fail(committed, RuntimeError("action not committed: the flush was interrupted"))

    async def _write_alone(self, row: dict[str, Any], committed: asyncio.Future[None]) -> None:
        try:
            async with self._transaction() as conn:
                refused = await self._insert(conn, [row])
            if refused:
                _fail(committed, refused[0])
                return
        except IntegrityError as error:
            try:
                refusal = await self._explain(row, error)
            except Exception as failure:
                refusal = failure
            _fail(committed, refusal)
        except Exception as error:
            _fail(committed, error)
        else:
            if not committed.done():
                committed.set_result(None)

    async def _insert(
        self, conn: AsyncConnection, rows: list[dict[str, Any]]
    ) -> dict[int, StoreError]:
        """Write the rows the fence lets through (all, without one); returns the others."""
        refused = {} if self.fence is None else await self.fence.refusals(conn, rows)
        allowed = [row for index, row in enumerate(rows) if index not in refused]
        if allowed:
            await conn.execute(deal_actions.insert(), allowed)
        return refused

    async def _explain(self, row: dict[str, Any], error: IntegrityError) -> Exception:
        """Say which constraint the row broke: an unknown deal, or a seq already logged."""
        async with self._transaction() as conn:
            found = await conn.scalar(
                select(deals.c.deal_id).where(deals.c.deal_id == row["deal_id"])
            )
        if found is None:
            refusal: Exception = UnknownDealError(f"no deal {row['deal_id']}")
        else:
            refusal = DuplicateRecordError(
                f"deal {row['deal_id']} already has action seq {row['seq']}"
            )
        refusal.__cause__ = error
        return refusal


def _fail(committed: asyncio.Future[None], error: BaseException) -> None:
    if not committed.done():
        committed.set_exception(error)
        # The caller may have been cancelled meanwhile; do not warn about an unread error.
        committed.exception()
