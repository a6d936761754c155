"""Fixtures of the browser tests: one Chromium per session, one live server per module,
a fresh browser profile per test. See `tests/web/live_server.py` for the pieces."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, sync_playwright

from tests.web.live_server import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    UNHURRIED_BOT_DELAY,
    LiveServer,
    PageProblems,
)


def _browser_available() -> bool:
    return CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Browser]:
    """One Chromium for the whole session (starting it costs about a second).

    When Chromium is missing the tests skip, unless `MAHJONG_REQUIRE_BROWSER=1` (CI):
    then they fail.
    """
    if not _browser_available():
        message = f"{CHROMIUM} is missing: the browser tests need Debian's chromium"
        if os.environ.get("MAHJONG_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server with its own SQLite database, one per test module."""
    database = tmp_path_factory.mktemp("web-db") / "hall.sqlite3"
    server = LiveServer(f"sqlite+aiosqlite:///{database}")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def unhurried_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server whose bots wait three seconds before each move, so the table holds still."""
    database = tmp_path_factory.mktemp("web-unhurried-db") / "hall.sqlite3"
    server = LiveServer(f"sqlite+aiosqlite:///{database}", bot_delay=UNHURRIED_BOT_DELAY)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def browser_context(chromium_browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (own localStorage) per test, at desktop size."""
    context = chromium_browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15000)
    yield context
    context.close()


@pytest.fixture
def page_problems() -> PageProblems:
    """Collects console errors; tests end with `assert page_problems.messages == []`."""
    return PageProblems()
