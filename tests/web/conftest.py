"""Fixtures of the browser tests: one Chromium for a run of browser tests, one live server
per module, a fresh browser profile per test. See `tests/web/live_server.py` for the pieces."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

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


WEB_TESTS = Path(__file__).resolve().parent


class SharedChromium:
    """Sync Playwright and one Chromium, shared by consecutive browser tests.

    While sync Playwright is started, its event loop counts as running in the main thread,
    so an asyncio test run meanwhile fails ("Runner.run() cannot be called from a running
    event loop"). Hence it is stopped as soon as the next test is not a browser test (see
    `pytest_runtest_teardown` below) and started again should a browser test come later.
    """

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def browser(self) -> Browser:
        """The running Chromium, started on first use (about a second)."""
        if self._browser is None:
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
        return self._browser

    def stop(self) -> None:
        """Close Chromium and stop Playwright, giving the main thread its event loop back."""
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


_CHROMIUM = SharedChromium()


@pytest.hookimpl(trylast=True)  # after the test's own fixtures (its browser context) are gone
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop the shared Chromium when the next test is not one of these browser tests."""
    if nextitem is None or not nextitem.path.is_relative_to(WEB_TESTS):
        _CHROMIUM.stop()


@pytest.fixture
def chromium_browser() -> Browser:
    """The Chromium shared by consecutive browser tests (see `SharedChromium`).

    When Chromium is missing the tests skip, unless `MAHJONG_REQUIRE_BROWSER=1` (CI):
    then they fail.
    """
    if not _browser_available():
        message = f"{CHROMIUM} is missing: the browser tests need Debian's chromium"
        if os.environ.get("MAHJONG_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return _CHROMIUM.browser()


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
