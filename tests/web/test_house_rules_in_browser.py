"""House rules and the spectators switch in Chromium: the lobby offers the chosen table's
own house rules and sends them; the table's Rules panel lists that table's minimum, cap,
points and payments as the server works them out; the result panel names the house rules
a deal was scored by (and nothing at a seed-rules table); the host turns spectators off
and on from the controls panel, and a watching browser is told."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.web.conftest import DESKTOP
from tests.web.live_server import LiveServer, PageProblems, save_screenshot
from tests.web.table_player import (
    create_room_over_http,
    fill_with_bots_over_http,
    invite_of,
    join_by_table_page,
)

pytestmark = pytest.mark.browser

HOUSE = {"min_fan": 1, "fan_cap": 10, "points": "half", "win_payment": "everyone_full"}


def _options(page: object, test_id: str) -> list[str]:
    select = page.get_by_test_id(test_id)  # type: ignore[attr-defined]
    return [str(text).strip() for text in select.locator("option").all_inner_texts()]


def test_the_lobby_offers_each_tables_house_rules_and_opens_a_table_with_them(
    live_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    page.get_by_test_id("variant-kaki3").check()
    expect(page.get_by_test_id("rule-min-fan")).to_be_visible()
    assert _options(page, "rule-min-fan") == ["3 fan", "4 fan", "5 fan (standard)"]
    assert _options(page, "rule-fan-cap") == ["10 fan (standard)", "8 fan"]
    # 3 Kaki offers one points table and one way to pay: no choice is shown for them.
    expect(page.get_by_test_id("rule-points")).to_have_count(0)
    expect(page.get_by_test_id("rule-win-payment")).to_have_count(0)

    page.get_by_test_id("variant-hk").check()
    assert _options(page, "rule-min-fan") == ["0 fan", "1 fan", "2 fan", "3 fan (standard)"]
    assert _options(page, "rule-fan-cap") == ["8 fan (standard)", "10 fan", "13 fan"]
    assert _options(page, "rule-points") == ["full value (standard)", "half value"]
    assert len(_options(page, "rule-win-payment")) == 2
    page.get_by_test_id("rule-min-fan").select_option("1")
    page.get_by_test_id("rule-fan-cap").select_option("10")
    page.get_by_test_id("rule-points").select_option("half")
    page.get_by_test_id("rule-win-payment").select_option("everyone_full")
    page.get_by_test_id("time-bank").fill("20")
    save_screenshot(page, "lobby-house-rules")
    page.get_by_test_id("create-room").click()
    link = page.get_by_test_id("invite-link")
    expect(link).not_to_have_value("")
    url = link.input_value()
    room_id, invite = url.split("/rooms/", 1)[1].split("#invite=")
    room = httpx.get(
        f"{live_server.url}/api/rooms/{room_id}", params={"invite": invite}, timeout=10
    ).json()
    assert room["rules"] == {"variant": "hk", **HOUSE, "time_bank_seconds": 20}

    # The table's Rules panel shows this table's rules, worked out by the server.
    page.goto(url)
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join-submit").click()
    page.locator("#table").wait_for(state="visible")
    page.get_by_test_id("rules-open").click()
    panel = page.get_by_test_id("rules")
    expect(panel.locator(".rules-summary")).to_have_text(
        "A hand needs 1 fan to win; 10 fan is the limit."
    )
    house = page.get_by_test_id("rules-house")
    expect(house.locator("h3")).to_have_text("House rules at this table")
    expect(house.locator("li[data-rule='min_fan']")).to_have_text("Minimum to win: 1 fan")
    expect(house.locator("li[data-rule='fan_cap']")).to_have_text("Fan cap (the limit): 10 fan")
    expect(house.locator("li[data-rule='points']")).to_have_text("Points table: half value")
    expect(house.locator("li[data-rule='time_bank_seconds']")).to_have_text(
        "Time bank: 20 s per player"
    )
    worked = httpx.get(f"{live_server.url}/api/house-rules/hk", params=HOUSE, timeout=10).json()
    rows = page.get_by_test_id("rules-points").locator("tbody tr")
    expect(rows).to_have_count(len(worked["points"]))
    shown = [
        (row.get_attribute("data-fan"), row.get_attribute("data-points")) for row in rows.all()
    ]
    assert shown == [(str(row["fan"]), str(row["points"])) for row in worked["points"]]
    assert shown[0] == ("1", "1") and shown[-1] == ("10", "64")
    expect(
        page.get_by_test_id("rules-payments").locator("li[data-rule='discard_win']")
    ).to_have_text(
        "Win on a discard: the shooter pays the full value, the other player the full value."
    )
    save_screenshot(page, "rules-panel-house-rules")
    # Limit hands count the table's cap.
    limits = page.get_by_test_id("rules-patterns").locator("tr[data-limit='true']")
    expect(limits.first).to_have_attribute("data-fan", "10")
    assert page_problems.messages == []


def test_the_result_names_the_house_rules_a_deal_was_scored_by(
    live_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    house_table = create_room_over_http(
        live_server.url, variant="hk", turn_seconds=1, deal_seconds=10, rules=HOUSE
    )
    seed_table = create_room_over_http(
        live_server.url, variant="hk", turn_seconds=1, deal_seconds=10
    )
    pages = {}
    for room_id, name in ((house_table, "Ana"), (seed_table, "Bo")):
        page = browser_context.new_page()
        page_problems.watch(page)
        join_by_table_page(page, live_server.url, room_id, name)
        fill_with_bots_over_http(live_server.url, room_id)
        pages[room_id] = page
    # Both deals end within their ten seconds (a win, a draw or the deal's clock).
    for page in pages.values():
        expect(page.get_by_test_id("result")).to_be_visible(timeout=30000)
    expect(pages[house_table].get_by_test_id("result-house-rules")).to_have_text(
        "House rules: minimum 1 fan, cap 10 fan, half points, everyone pays in full on every win"
    )
    save_screenshot(pages[house_table], "result-house-rules")
    expect(pages[seed_table].get_by_test_id("result-house-rules")).to_be_hidden()
    expect(pages[seed_table].get_by_test_id("result-house-rules")).to_have_text("")
    # The seed table's Rules panel says it plays the standard rules.
    pages[seed_table].get_by_test_id("rules-open").click()
    expect(pages[seed_table].get_by_test_id("rules-house").locator("h3")).to_have_text(
        "This table plays the standard rules"
    )
    assert page_problems.messages == []


def test_the_host_turns_spectators_off_and_on_from_the_controls(
    live_server: LiveServer,
    browser_context: BrowserContext,
    chromium_browser: Browser,
    page_problems: PageProblems,
) -> None:
    room_id = create_room_over_http(live_server.url, variant="kaki3", turn_seconds=600)
    host = browser_context.new_page()
    page_problems.watch(host)
    join_by_table_page(host, live_server.url, room_id, "Ana")
    fill_with_bots_over_http(live_server.url, room_id)
    expect(host.get_by_test_id("turn-timer")).not_to_have_text("")
    watching = chromium_browser.new_context(viewport=DESKTOP)
    try:
        watcher = watching.new_page()
        page_problems.watch(watcher)
        watcher.goto(f"{live_server.url}/rooms/{room_id}#invite={invite_of(room_id)}")
        watcher.locator("#join-watch").click()
        watcher.locator("#table").wait_for(state="visible")

        host.get_by_test_id("controls-toggle").click()
        switch = host.get_by_test_id("host-spectators")
        expect(switch).to_be_checked()
        switch.uncheck()
        events = host.get_by_test_id("host-events")
        expect(events).to_contain_text("Ana turned spectators off")
        expect(host.get_by_test_id("host-spectators")).not_to_be_checked()
        expect(watcher.locator("#final-text")).to_have_text(
            "The host has turned spectators off at this table."
        )
        room = httpx.get(
            f"{live_server.url}/api/rooms/{room_id}",
            params={"invite": invite_of(room_id)},
            timeout=10,
        ).json()
        assert room["spectators_allowed"] is False and room["spectators"] == 0

        host.get_by_test_id("host-spectators").check()
        expect(events).to_contain_text("Ana let spectators watch")
        watcher = watching.new_page()
        page_problems.watch(watcher)
        watcher.goto(f"{live_server.url}/rooms/{room_id}#invite={invite_of(room_id)}")
        watcher.locator("#join-watch").click()
        watcher.locator("#table").wait_for(state="visible")
        expect(watcher.locator("#table")).to_contain_text("Ana")
        expect(watcher.locator("#final-text")).not_to_have_text(
            "The host has turned spectators off at this table."
        )
    finally:
        watching.close()
    assert page_problems.messages == []
