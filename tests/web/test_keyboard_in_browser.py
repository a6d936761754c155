"""Playing without a mouse: choosing and discarding a tile with the keyboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import (
    create_room_over_http,
    fill_with_bots_over_http,
    hand_labels,
    join_by_table_page,
)

pytestmark = pytest.mark.browser


def test_number_keys_choose_a_tile_and_enter_discards_it(
    browser_context: BrowserContext, unhurried_server: LiveServer, page_problems: PageProblems
) -> None:
    room_id = create_room_over_http(unhurried_server.url, variant="hk")
    page = browser_context.new_page()
    page_problems.watch(page)
    join_by_table_page(page, unhurried_server.url, room_id, "Flo")
    fill_with_bots_over_http(unhurried_server.url, room_id)
    # We sit East and deal: 14 tiles, our turn, and the bots take seconds to move.
    expect(page.locator("[data-testid=hand-tile].discardable")).to_have_count(14)
    hand = hand_labels(page)
    page.keyboard.press("1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.tile")
    assert focused == hand[2]
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hand-tile")).to_have_count(13)
    expect(page.locator(".seat-panel.mine .discards .tile")).to_have_count(1)
    assert page.locator(".seat-panel.mine .discards .tile").get_attribute("data-tile") == hand[2]
    remaining = hand_labels(page)
    assert sorted(remaining + [hand[2]]) == sorted(hand)
    assert page_problems.messages == []
