"""The dashboard page in real Chromium against the real app (uvicorn) on a store written
through the store's own API: a house-rules table's deals say their rules, a seed table's
say "Seed rules", and the room's page settles its game exactly as the engine's
`settle_up` does, in points and then at RM 0.10 a point."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from server.engine.settle_up import RINGGIT, PointValue, render_text, settle_up
from server.store import apply_migrations, open_store
from tests.live import CHROMIUM, CHROMIUM_ARGS, ServerThread, free_port, require_chromium
from tests.web.live_server import save_screenshot

pytestmark = pytest.mark.browser

HOUSE = {"variant": "hk", "min_fan": 1, "fan_cap": 10, "points": "seed", "win_payment": "seed"}
HOUSE_NAMES = ["Ana", "Bo", "Cy", "Dee"]
# Two deals of one game at the house-rules table, by seat (E, S, W, N sit 0, 1, 2, 3).
HOUSE_SCORES = [{"E": 24, "S": -8, "W": -8, "N": -8}, {"E": -2, "S": -2, "W": -2, "N": 6}]


async def _write_tables(url: str) -> None:
    """A house-rules table with a game of two deals and a seed table with one, stored
    through the store's own API as the rooms write them."""
    store = await open_store(url)
    start = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    try:
        tables = (("room-house", {"rules": HOUSE}, HOUSE_SCORES), ("room-seed", {}, []))
        for room_id, settings, scores in tables:
            await store.create_room(
                room_id, "hk", {"rounds": 1, "name": room_id, **settings}, start
            )
            for index, name in enumerate(HOUSE_NAMES):
                await store.add_player(room_id, index, name, f"hash-{name}", False, start)
            for deal_no, by_seat in enumerate(scores or [{"E": 0, "S": 0, "W": 0, "N": 0}], 1):
                began = start + timedelta(minutes=10 * deal_no)
                seats = {"E": 0, "S": 1, "W": 2, "N": 3}
                deal_id = await store.start_deal(
                    room_id, 1, deal_no, "hk", {"round_wind": "E", **settings}, deal_no,
                    seats, began, 300.0,
                )  # fmt: skip
                result = {"outcome": "draw", "winners": [], "payments": [], "scores": by_seat}
                nets = {seats[seat]: points for seat, points in by_seat.items()}
                await store.finish_deal(deal_id, result, began + timedelta(minutes=5), nets)
            await store.set_room_status(room_id, "finished")
    finally:
        await store.close()


@pytest.fixture(scope="module")
def tables_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app, served by uvicorn, on a store holding the two tables above."""
    import uvicorn

    from server.app import create_app

    path: Path = tmp_path_factory.mktemp("dashboard-tables") / "hall.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    apply_migrations(url)
    # On a thread of its own: no event loop of the test run is disturbed.
    failures: list[BaseException] = []

    def write() -> None:
        try:
            asyncio.run(_write_tables(url))
        except BaseException as error:
            failures.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    writer.join()
    if failures:
        raise failures[0]
    app = create_app(url)
    app.state.admin_token = ""
    port = free_port()
    serving = ServerThread(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving.start()
    yield f"http://127.0.0.1:{port}"
    serving.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium; skip without it unless MAHJONG_REQUIRE_BROWSER=1."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _house_balances() -> dict[str, int]:
    balances = dict.fromkeys(HOUSE_NAMES, 0)
    for by_seat in HOUSE_SCORES:
        for index, seat in enumerate("ESWN"):
            balances[HOUSE_NAMES[index]] += by_seat[seat]
    return balances


def test_the_dashboard_shows_house_rules_and_settles_a_game(tables_app: str, chromium: Any) -> None:
    from playwright.sync_api import expect

    context = chromium.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{tables_app}/dashboard")
    rows = page.get_by_test_id("deal-row")
    expect(rows).to_have_count(3)
    house_line = "House rules: minimum 1 fan, cap 10 fan"
    expect(rows.filter(has_text="room-house")).to_have_count(2)
    for row in rows.filter(has_text="room-house").all():
        expect(row.locator("td").last).to_have_text(house_line)
    expect(rows.filter(has_text="room-seed").locator("td").last).to_have_text("Seed rules")
    rows.filter(has_text="room-house").first.click()
    expect(page.get_by_test_id("deal-rules")).to_have_text(house_line)

    # The room's page: the game's transfers, the engine's own, in points and then ringgit.
    page.get_by_test_id("room-games-link").click()
    game = page.get_by_test_id("game-settlement")
    expect(game).to_have_count(1)
    expect(game.get_by_test_id("game-rules")).to_have_text(house_line)
    balances = _house_balances()
    in_points = settle_up(balances)
    transfers = game.get_by_test_id("game-transfers").locator("li")
    expect(transfers).to_have_text(
        [
            f"{transfer.payer} pays {transfer.payee} {transfer.points} points"
            for transfer in in_points.transfers
        ]
    )
    assert len(in_points.transfers) == 3  # Ana is owed by each of the three others
    page.get_by_test_id("room-settle-value").fill("0.10")
    page.get_by_test_id("room-settle-currency").select_option("MYR")
    page.get_by_test_id("room-settle-show").click()
    in_ringgit = settle_up(balances, PointValue(RINGGIT, 10))
    expect(transfers).to_have_text(render_text(in_ringgit).split("\n"))
    save_screenshot(page, "dashboard-room-games")
    # The page's own address opens the room again (a link to share with the other admins).
    assert page.url.endswith("#room=room-house")
    page.goto(f"{tables_app}/dashboard#room=room-seed")
    page.reload()
    expect(page.get_by_test_id("game-settlement").get_by_test_id("game-rules")).to_have_text(
        "Seed rules"
    )
    expect(page.get_by_test_id("game-transfers").locator("li")).to_have_text(
        ["Everyone is square."]
    )
    context.close()
    assert problems == []
