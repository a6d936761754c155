"""Fixtures for the dashboard tests: one throwaway Postgres database per run, migrated and
filled with the hand-made history, and an HTTP client on the real app."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from fastapi import FastAPI

from server.app import create_app
from server.rooms.clock import SystemClock
from server.rooms.manager import RoomManager
from server.rooms.settings import TableSettings
from server.store import Store, apply_migrations, open_store
from tests.dashboard.history import load_history, write_history
from tests.pg import drop_database, postgres_url_or_skip


def _in_thread(work: object) -> object:
    """Run a coroutine factory on its own loop in a thread (fixtures here are sync)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(work())  # type: ignore[operator]
        except BaseException as error:
            outcome["error"] = error

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]


def _filled(url: str) -> dict[str, int]:
    """Migrate the database at ``url`` and write the history; returns the deal ids."""
    apply_migrations(url)

    async def fill() -> dict[str, int]:
        store = await open_store(url)
        try:
            return await write_history(store, load_history())
        finally:
            await store.close()

    return _in_thread(fill)  # type: ignore[return-value]


@pytest.fixture(scope="session")
def postgres_history() -> Iterator[tuple[str, dict[str, int]]]:
    """(database URL, deal ids by key) of a throwaway Postgres database with the history."""
    url = postgres_url_or_skip()
    yield url, _filled(url)
    drop_database(url)


@pytest.fixture(scope="session")
def sqlite_history(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, dict[str, int]]:
    """The same history in a SQLite file (the default database of a fresh install)."""
    path = tmp_path_factory.mktemp("dashboard") / "history.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    return url, _filled(url)


@pytest.fixture(scope="session", params=["postgres", "sqlite"])
def history_database(request: pytest.FixtureRequest) -> tuple[str, dict[str, int]]:
    """The history on each database kind the server supports."""
    return request.getfixturevalue(f"{request.param}_history")  # type: ignore[no-any-return]


@pytest.fixture
def deal_ids(history_database: tuple[str, dict[str, int]]) -> dict[str, int]:
    """The history's deal ids by their key (d1..d5)."""
    return history_database[1]


@pytest.fixture
async def history_store(history_database: tuple[str, dict[str, int]]) -> AsyncIterator[Store]:
    """A store open on the history database."""
    store = await open_store(history_database[0])
    yield store
    await store.close()


@pytest.fixture
def dashboard_app(history_store: Store) -> FastAPI:
    """The real app reading the history, with no admin token set."""
    app = create_app(store=history_store)
    # The ASGI transport does not run the lifespan, so the store and an idle room manager
    # (no open rooms: the history's rooms are all finished) are set here.
    app.state.store = history_store
    app.state.rooms = RoomManager(history_store, SystemClock(), TableSettings())
    return app


@pytest.fixture
async def dashboard(dashboard_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on `dashboard_app`."""
    transport = httpx.ASGITransport(app=dashboard_app)
    # A name the server answers to by default (docs/operations.md, "Limits": Host check).
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        yield client
