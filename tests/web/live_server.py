"""A real server and the browser settings for the browser tests.

The server is uvicorn serving `create_app` on a free port in a background thread, with a
temporary SQLite database. Screenshots go to `test-artifacts/` at the repository root.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from pathlib import Path

from playwright.sync_api import ConsoleMessage, Page

CHROMIUM = Path(os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Bots answer quickly so a whole deal plays in seconds; the pause between deals is long
# enough for a test to read the result panel before the next deal replaces it.
BOT_DELAY_SECONDS = 0.03
NEXT_DEAL_SECONDS = 120.0
# For tests that need the table to hold still: bots pause this long before each move.
UNHURRIED_BOT_DELAY = 3.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """uvicorn serving `create_app` in a background thread, stopped at the end of the test module."""

    def __init__(
        self,
        database_url: str,
        bot_delay: float = BOT_DELAY_SECONDS,
        port: int | None = None,
        next_deal_seconds: float = NEXT_DEAL_SECONDS,
    ) -> None:
        import uvicorn

        from server.app import create_app
        from server.rooms.settings import TableSettings
        from server.store import apply_migrations

        apply_migrations(database_url)
        app = create_app(
            database_url,
            table_settings=TableSettings(bot_delay=bot_delay, next_deal_seconds=next_deal_seconds),
        )
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, name="live-server", daemon=True)

    def _serve(self) -> None:
        asyncio.run(self.server.serve())

    def start(self) -> None:
        """Starts serving and waits until the socket accepts."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Asks uvicorn to shut down and waits for the thread."""
        self.server.should_exit = True
        self.thread.join(timeout=20)


class PageProblems:
    """Console errors and uncaught exceptions a page produced; a test asserts there are none."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def watch(self, page: Page) -> None:
        """Starts collecting from `page`."""
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.messages.append(f"pageerror: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.messages.append(f"console error: {message.text}")


def save_screenshot(page: Page, name: str) -> Path:
    """Saves a full-page screenshot into test-artifacts/ and answers its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
