"""The table page over a slow mobile network: what it weighs and when the first state shows.

Starts a real server (temporary SQLite, quick bots), seats a player at a Hong Kong and a
3 Kaki table, and opens the table page in Chromium with the network throttled through
the DevTools protocol (`Network.emulateNetworkConditions`). Prints, per network profile
and table: the bytes that crossed the network on a first visit (compressed, headers
included, the WebSocket left out), the number of requests, the milliseconds from the
start of navigation to the first `state` drawn (the page's own `render-state` measure),
and the same for a second visit with the browser's cache warm.

    .venv/bin/python bench/bench_client_network.py
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from tests.web.live_server import CHROMIUM, CHROMIUM_ARGS, PHONE, LiveServer  # noqa: E402

# DevTools' throttling presets: throughput in bytes per second, latency in ms.
PROFILES = {
    "slow-3g": {
        "latency": 400,
        "downloadThroughput": 500 * 1024 / 8,
        "uploadThroughput": 500 * 1024 / 8,
    },
    "fast-3g": {
        "latency": 150,
        "downloadThroughput": 1.6 * 1024 * 1024 / 8,
        "uploadThroughput": 750 * 1024 / 8,
    },
}
FIRST_STATE = """() => new Promise((done) => {
  const look = () => {
    const drawn = performance.getEntriesByName('render-state')[0];
    if (drawn) done(drawn.startTime + drawn.duration); else setTimeout(look, 20);
  };
  look();
})"""


class NetworkLog:
    """What crossed the network for one page load, from the DevTools protocol's events."""

    def __init__(self) -> None:
        self.bytes = 0
        self.requests = 0
        self.from_cache = 0

    def finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))
        self.requests += 1

    def served_from_cache(self, _event: dict[str, Any]) -> None:
        self.from_cache += 1


def seated_table(server: LiveServer, variant: str) -> tuple[str, dict[str, Any]]:
    """A room with a seated player (answers the room and the seat to remember) and bots."""
    room = httpx.post(f"{server.url}/api/rooms", json={"variant": variant}, timeout=10).json()
    room_id = room["room_id"]
    joined = httpx.post(f"{server.url}/api/rooms/{room_id}/join", json={"name": "Ana"}, timeout=10)
    seat = {**joined.json(), "name": "Ana", "room_id": room_id, "joined_at": 1}
    httpx.post(f"{server.url}/api/rooms/{room_id}/bots", json={}, timeout=10)
    return room_id, seat


def load(page: Page, url: str, cdp: Any) -> dict[str, Any]:
    """One visit: bytes, requests and milliseconds to the first drawn state."""
    log = NetworkLog()
    cdp.on("Network.loadingFinished", log.finished)
    cdp.on("Network.requestServedFromCache", log.served_from_cache)
    page.goto(url)
    first_state = page.evaluate(FIRST_STATE)
    page.wait_for_timeout(300)  # late requests (the rules fetch is on demand, not here)
    cdp.remove_listener("Network.loadingFinished", log.finished)
    cdp.remove_listener("Network.requestServedFromCache", log.served_from_cache)
    return {
        "kb": round(log.bytes / 1024, 1),
        "requests": log.requests,
        "from_cache": log.from_cache,
        "first_state_ms": round(first_state),
    }


def measure(server: LiveServer, browser: Browser, variant: str, profile: str) -> dict[str, Any]:
    room_id, seat = seated_table(server, variant)
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(
        f"localStorage.setItem({json.dumps('mahjong-hall:seat:' + room_id)}, {json.dumps(json.dumps(seat))})"
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **PROFILES[profile]})
    url = f"{server.url}/rooms/{room_id}"
    first = load(page, url, cdp)
    second = load(page, url, cdp)
    context.close()
    return {"profile": profile, "variant": variant, "first_visit": first, "second_visit": second}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", default="slow-3g,fast-3g")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(f"sqlite+aiosqlite:///{folder}/bench.sqlite3", bot_delay=1.0)
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for profile in args.profiles.split(","):
                    for variant in ("hk", "kaki3"):
                        print(json.dumps(measure(server, browser, variant, profile)), flush=True)
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
