"""Coming back to the table: a page reload, and a server restart, land in the same seat
with the same hand.

These tests use a server whose bots pause for seconds, so that nothing touches our hand
while the page is away: right after our discard, every other seat must still decide a
claim and then play before the deal comes back to us.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.web.live_server import UNHURRIED_BOT_DELAY, LiveServer, PageProblems, save_screenshot
from tests.web.table_player import (
    create_room_over_http,
    fill_with_bots_over_http,
    hand_labels,
    join_by_table_page,
)

pytestmark = pytest.mark.browser


def discard_first_tile_as_dealer(page: Page) -> None:
    """We joined first, so we sit East and deal: throw a tile and wait for the 13 left."""
    expect(page.locator(".seat-panel.mine")).to_have_attribute("data-seat", "E")
    discardable = page.locator("[data-testid=hand-tile].discardable")
    expect(discardable.first).to_be_visible()
    discardable.last.click()
    expect(page.get_by_test_id("hand-tile")).to_have_count(13)
    expect(discardable).to_have_count(0)


def my_table(page: Page) -> tuple[str | None, list[str], int]:
    """Our seat, our hand, and how many tiles we have discarded, as the page shows them."""
    mine = page.locator(".seat-panel.mine")
    return (
        mine.get_attribute("data-seat"),
        hand_labels(page),
        mine.locator(".discards .tile").count(),
    )


def test_a_reload_mid_deal_returns_to_the_same_seat_and_hand(
    browser_context: BrowserContext, unhurried_server: LiveServer, page_problems: PageProblems
) -> None:
    room_id = create_room_over_http(unhurried_server.url, variant="hk")
    page = browser_context.new_page()
    page_problems.watch(page)
    join_by_table_page(page, unhurried_server.url, room_id, "Di")
    fill_with_bots_over_http(unhurried_server.url, room_id)
    discard_first_tile_as_dealer(page)
    before = my_table(page)
    page.reload()
    expect(page.get_by_test_id("hand-tile")).to_have_count(13)
    expect(page.locator("#join")).to_be_hidden()
    assert my_table(page) == before
    assert page_problems.messages == []


def test_a_server_restart_shows_reconnecting_then_returns_to_the_seat(
    browser_context: BrowserContext, tmp_path: Path, page_problems: PageProblems
) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"
    server = LiveServer(database_url, bot_delay=UNHURRIED_BOT_DELAY)
    server.start()
    try:
        room_id = create_room_over_http(server.url, variant="kaki3")
        page = browser_context.new_page()
        page_problems.watch(page)
        join_by_table_page(page, server.url, room_id, "Ed")
        fill_with_bots_over_http(server.url, room_id)
        discard_first_tile_as_dealer(page)
        before = my_table(page)
        assert page_problems.messages == []
        server.stop()
        expect(page.locator("#connection")).to_contain_text("Reconnecting")
        expect(page.locator("body")).to_have_class(re.compile(r"\breconnecting\b"))
        save_screenshot(page, "kaki3-desktop-reconnecting")
        server = LiveServer(database_url, bot_delay=UNHURRIED_BOT_DELAY, port=server.port)
        server.start()
        expect(page.locator("#connection")).to_have_text("Connected", timeout=15000)
        # Chromium logs each refused attempt while the server was down; nothing else.
        outage = [
            message for message in page_problems.messages if "WebSocket connection" not in message
        ]
        assert outage == []
        page_problems.messages.clear()
        expect(page.get_by_test_id("hand-tile")).to_have_count(13)
        assert my_table(page) == before
    finally:
        server.stop()
    assert page_problems.messages == []
