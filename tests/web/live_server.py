"""A real server and the browser settings for the browser tests.

The server is uvicorn serving `create_app` on a free port in a background thread, with a
temporary SQLite database. Screenshots go to `test-artifacts/` at the repository root.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import ConsoleMessage, Page

from server.api.limits import LimitSettings
from tests.live import CHROMIUM, CHROMIUM_ARGS, ServerThread, free_port

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Bots answer quickly so a whole deal plays in seconds; the pause between deals is long
# enough for a test to read the result panel before the next deal replaces it.
BOT_DELAY_SECONDS = 0.03
NEXT_DEAL_SECONDS = 120.0
# For tests that need the table to hold still: bots pause this long before each move.
UNHURRIED_BOT_DELAY = 3.0


class LiveServer:
    """uvicorn serving `create_app` in a background thread, stopped at the end of the test module."""

    def __init__(
        self,
        database_url: str,
        bot_delay: float = BOT_DELAY_SECONDS,
        port: int | None = None,
        next_deal_seconds: float = NEXT_DEAL_SECONDS,
        limits: LimitSettings | None = None,
    ) -> None:
        import uvicorn

        from server.app import create_app
        from server.rooms.settings import TableSettings
        from server.store import apply_migrations

        apply_migrations(database_url)
        app = create_app(
            database_url,
            table_settings=TableSettings(bot_delay=bot_delay, next_deal_seconds=next_deal_seconds),
            limits=limits,
        )
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.serving = ServerThread(config)
        self.server = self.serving.server

    def start(self) -> None:
        """Starts serving and waits until the socket accepts."""
        self.serving.start()

    def stop(self) -> None:
        """Asks uvicorn to shut down and waits for the thread."""
        self.serving.stop()


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
