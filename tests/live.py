"""What every live test shares: a free port, uvicorn serving an app in a thread, and
Debian's Chromium with the flags this offline machine needs."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn

CHROMIUM = Path(os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium"))
# Without the background-networking flags Chromium keeps dialling hosts this closed
# network refuses; --no-sandbox because CI runs as root.
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


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def require_chromium() -> None:
    """Skip without Chromium, or fail when MAHJONG_REQUIRE_BROWSER=1 (CI sets it)."""
    if CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK):
        return
    if os.environ.get("MAHJONG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{CHROMIUM} is missing, and MAHJONG_REQUIRE_BROWSER=1")
    pytest.skip(f"{CHROMIUM} is missing")


class ServerThread:
    """A uvicorn server running its own event loop in a daemon thread."""

    def __init__(self, config: uvicorn.Config) -> None:
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="live-server", daemon=True)

    def start(self) -> None:
        """Start serving and wait until the socket accepts."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        """Ask uvicorn to shut down and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(timeout=20)
