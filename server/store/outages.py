"""Telling an outage (the database stopped, restarting, out of disk) from a refused
request, and raising every outage as one `StoreUnavailable`, so the rooms need to know
no driver's exceptions."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, ParamSpec, TypeVar

import asyncpg
import sqlalchemy.exc

from server.store.errors import StoreError, StoreUnavailable


def is_outage(error: BaseException) -> bool:
    """Whether `error` says the database is out of reach or cannot write, so that the same
    request may succeed later: a lost or refused connection, a server shutting down or
    starting up, a full disk, an I/O error, a timeout. A refused request (a constraint, bad
    SQL, bad data) is not an outage: retrying it would fail the same way."""
    if isinstance(error, StoreError):
        return isinstance(error, StoreUnavailable)
    if isinstance(error, _REQUEST_ERRORS):
        return False
    return isinstance(error, _OUTAGE_ERRORS)


_REQUEST_ERRORS = (
    sqlalchemy.exc.IntegrityError,
    sqlalchemy.exc.DataError,
    sqlalchemy.exc.ProgrammingError,
    sqlalchemy.exc.NotSupportedError,
    sqlite3.IntegrityError,
    sqlite3.ProgrammingError,
    sqlite3.DataError,
)
_OUTAGE_ERRORS = (
    OSError,  # refused or reset connections, ENOSPC
    TimeoutError,
    sqlalchemy.exc.DBAPIError,  # OperationalError (disk full, I/O), InterfaceError (gone)...
    sqlalchemy.exc.DisconnectionError,
    sqlalchemy.exc.TimeoutError,  # the pool had no connection to give
    sqlite3.DatabaseError,  # the action log's own connection: disk full, I/O error
    asyncpg.PostgresConnectionError,  # refused, shutting down, starting up
    asyncpg.InterfaceError,  # the connection was closed under us
    asyncpg.exceptions.OperatorInterventionError,  # terminated by an administrator
)


@asynccontextmanager
async def reaching_database() -> AsyncIterator[None]:
    """Raise what the driver says about an outage (a lost connection, a full disk) as one
    `StoreUnavailable`, so the rooms need to know no driver's exceptions; a refused
    request (a constraint, bad input) passes through as it was."""
    try:
        yield
    except Exception as error:
        if isinstance(error, StoreUnavailable) or not is_outage(error):
            raise
        raise StoreUnavailable(f"the database is unavailable: {_describe(error)}") from error


P = ParamSpec("P")
R = TypeVar("R")


def outages_unavailable(
    method: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """A store method whose outages raise `StoreUnavailable` (see `reaching_database`)."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        async with reaching_database():
            return await method(*args, **kwargs)

    return guarded


def _describe(error: BaseException) -> str:
    # The driver's own first line (SQLAlchemy appends SQL and a link): enough for a log.
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    return f"{type(cause).__name__}: {text}"[:300]
