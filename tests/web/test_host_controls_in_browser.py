"""The host's controls and the settle-up panel in Chromium: the host pauses and resumes
(everyone sees who paused), removes a player (a bot plays on), sets a bot's level, and
settles up in ringgit, the lines matching the server's own; then ends the game."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import BrowserContext, expect

from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import (
    create_room_over_http,
    fill_with_bots_over_http,
    invite_of,
    join_by_table_page,
)

pytestmark = pytest.mark.browser


def test_the_host_runs_the_table_and_settles_up(
    unhurried_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    server = unhurried_server
    room_id = create_room_over_http(server.url, variant="kaki3", turn_seconds=600)
    page = browser_context.new_page()
    page_problems.watch(page)
    join_by_table_page(page, server.url, room_id, "Ana")
    bo = httpx.post(
        f"{server.url}/api/rooms/{room_id}/join",
        json={"name": "Bo", "invite": invite_of(room_id)},
        timeout=10,
    )
    assert bo.status_code == 200, bo.text
    fill_with_bots_over_http(server.url, room_id)
    expect(page.get_by_test_id("turn-timer")).not_to_have_text("")

    page.get_by_test_id("controls-toggle").click()
    controls = page.get_by_test_id("controls")
    expect(controls).to_contain_text("You host this table")
    expect(page.get_by_test_id("house-rules")).to_have_text(
        "House rules: at least 5 fan, capped at 10; time bank 0 s"
    )
    page.get_by_test_id("host-pause").click()
    expect(page.get_by_test_id("paused-banner")).to_have_text(
        "Paused by Ana. The clocks are stopped."
    )
    expect(page.get_by_test_id("action")).to_have_count(0)
    page.get_by_test_id("host-resume").click()
    expect(page.get_by_test_id("paused-banner")).to_be_hidden()

    page.get_by_test_id("host-remove-1").click()
    events = page.get_by_test_id("host-events")
    expect(events).to_contain_text("Ana removed Bo; a bot plays on")
    expect(controls.locator("li[data-player-index='1']")).to_contain_text("Bo (bot)")
    page.get_by_test_id("host-bot-level-2").select_option("easy")
    expect(events).to_contain_text("to easy")

    page.get_by_test_id("open-settle-up").click()
    page.get_by_test_id("settle-value").fill("0.10")
    page.get_by_test_id("settle-currency").select_option("MYR")
    page.get_by_test_id("settle-show").click()
    expected = httpx.get(
        f"{server.url}/api/rooms/{room_id}/settle-up",
        params={"currency": "MYR", "minor_per_point": "10", "invite": invite_of(room_id)},
        timeout=10,
    ).json()["text"]
    lines = page.get_by_test_id("settle-lines").locator("li")
    expect(lines).to_have_text(expected.split("\n"))
    expect(page.get_by_test_id("settle-copy")).to_be_visible()
    page.get_by_test_id("settle-scope").select_option("night")
    page.get_by_test_id("settle-show").click()
    expect(lines.first).not_to_have_text("")
    page.locator("#settle-close").click()

    page.get_by_test_id("host-end-game").click()
    page.get_by_test_id("host-end-game-confirm").click()
    expect(events).to_contain_text("Ana ended the game; scores stand")
    room = httpx.get(
        f"{server.url}/api/rooms/{room_id}", params={"invite": invite_of(room_id)}, timeout=10
    ).json()
    assert room["status"] == "finished" and room["players"][1]["is_bot"]
    assert page_problems.messages == []
