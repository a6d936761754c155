"""The lobby under the server's limits: a bounded list of open tables with a "more" button,
no table of bots alone, and pages that run under the Content-Security-Policy (a violation
shows as a console error, which `page_problems` collects)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import BrowserContext, expect

from server.api.limits import LimitSettings
from tests.web.live_server import LiveServer, PageProblems

TABLES = 25


@pytest.fixture(scope="module")
def crowded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = tmp_path_factory.mktemp("web-crowded-db") / "hall.sqlite3"
    server = LiveServer(
        f"sqlite+aiosqlite:///{database}", limits=LimitSettings(rooms_per_minute=1000)
    )
    server.start()
    for number in range(TABLES):
        made = httpx.post(
            f"{server.url}/api/rooms",
            json={"variant": "hk", "name": f"Table {number}", "public": True},
        )
        assert made.status_code == 201, made.text
    yield server
    server.stop()


def test_the_lobby_shows_a_page_of_tables_and_more_on_request(
    crowded_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{crowded_server.url}/")
    lines = page.get_by_test_id("open-rooms").locator("li.room-line")
    expect(lines).to_have_count(20)
    expect(lines.first).to_contain_text(f"Table {TABLES - 1}")  # newest first
    expect(page.get_by_test_id("open-count")).to_have_text(f"Showing 20 of {TABLES} open tables.")
    page.get_by_test_id("more-rooms").click()
    expect(lines).to_have_count(TABLES)
    expect(lines.last).to_contain_text("Table 0")
    expect(page.get_by_test_id("more-rooms")).to_be_hidden()
    expect(page.get_by_test_id("open-count")).to_have_text("")
    assert page_problems.messages == []


def test_the_lobby_asks_for_a_seat_before_bots(
    crowded_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{crowded_server.url}/")
    page.get_by_test_id("variant-kaki3").check()
    page.get_by_test_id("create-room").click()
    expect(page.get_by_test_id("invite-link")).not_to_have_value("")
    page.get_by_test_id("lobby-bots").click()
    expect(page.locator("#created-status")).to_contain_text("Join under your name first")
    link, invite = page.get_by_test_id("invite-link").input_value().split("#invite=")
    room_id = link.rsplit("/", 1)[1]
    room = httpx.get(f"{crowded_server.url}/api/rooms/{room_id}", params={"invite": invite}).json()
    assert room["players"] == [] and room["status"] == "waiting"
    assert page_problems.messages == []
