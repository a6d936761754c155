"""How fast the browser client draws the table, and how much it weighs.

Starts a real server (temporary SQLite, quick bots), opens a table played by bots in Chromium
as a spectator and as a seated player at phone and desktop size, lets the deals run, and
reads the page's own `render-state` measures (one per `state` message drawn). Also sums
the bytes of every file the table page loads.

    .venv/bin/python bench/bench_client.py --seconds 20
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from tests.web.live_server import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, LiveServer  # noqa: E402

WEB = Path(__file__).resolve().parents[1] / "web"


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def render_times(page: Page) -> list[float]:
    """Milliseconds of every state the page drew."""
    return list(page.evaluate("performance.getEntriesByName('render-state').map(e => e.duration)"))


def watch_bots(
    server: LiveServer, browser: Browser, variant: str, viewport: dict[str, int], seconds: float
) -> dict[str, object]:
    """Spectates a bots-only room for `seconds`; answers render figures and page weight."""
    opened = httpx.post(
        f"{server.url}/api/rooms", json={"variant": variant, "rounds": 4}, timeout=10
    ).json()
    room, invite = opened["room_id"], opened["invite"]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    loaded: set[str] = set()
    page.on("request", lambda request: loaded.add(request.url.split("?")[0]))
    page.goto(opened["url"])
    page.click("#join-watch")
    page.wait_for_selector("[data-testid=fill-bots]")
    # The server fills no table with bots alone: one seated (absent) human, played by
    # its bot after the join grace, and bots in the other seats.
    httpx.post(
        f"{server.url}/api/rooms/{room}/join",
        json={"name": "Host", "invite": invite},
        timeout=10,
    )
    httpx.post(f"{server.url}/api/rooms/{room}/bots", json={"invite": invite}, timeout=10)
    page.wait_for_timeout(seconds * 1000)
    times = render_times(page)
    context.close()
    return {
        "variant": variant,
        "viewport": f"{viewport['width']}x{viewport['height']}",
        "states": len(times),
        "render_ms_p50": round(statistics.median(times), 2),
        "render_ms_p99": round(percentile(times, 0.99), 2),
        "render_ms_max": round(max(times), 2),
        "page_bytes": page_weight(loaded),
    }


def page_weight(urls: set[str]) -> int:
    """Bytes of the client's own files among `urls` (the page and everything under /static/)."""
    total = 0
    for url in urls:
        path = url.split("/", 3)[3] if url.count("/") >= 3 else ""
        # The pages link the client under a version path: /static/v/<version>/<file>.
        path = re.sub(r"^static/v/[^/]+/", "static/", path)
        if path.startswith("static/"):
            total += (WEB / path.removeprefix("static/")).stat().st_size
        elif path.startswith("rooms/"):
            total += (WEB / "table.html").stat().st_size
    return total


def main() -> int:
    """Runs the measurements and prints one line per table and screen size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to watch each table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(
            f"sqlite+aiosqlite:///{folder}/bench.sqlite3", bot_delay=0.02, next_deal_seconds=1.0
        )
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for variant in ("kaki3", "hk"):
                    for viewport in (PHONE, DESKTOP):
                        print(
                            watch_bots(server, browser, variant, viewport, args.seconds), flush=True
                        )
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
