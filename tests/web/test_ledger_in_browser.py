"""The ledger in Chromium at 360x740, a phone: the picker is the main screen; enter a 3 Kaki
hand with a Fei, bonus tiles and a liable discarder by taps alone, see the engine's
answer with every payment, save it, and see it on a second phone at once."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.live_server import PHONE, LiveServer, PageProblems, save_screenshot

pytestmark = pytest.mark.browser


def open_ledger(live_server: LiveServer) -> dict[str, str]:
    answer = httpx.post(
        f"{live_server.url}/api/ledgers",
        json={
            "variant": "kaki3",
            "players": ["Ana", "Bo", "Cy"],
            "point_value": {"currency": "MYR", "minor_per_point": 10},
        },
    )
    assert answer.status_code == 201
    opened: dict[str, str] = answer.json()
    return opened


def phone(context: BrowserContext, problems: PageProblems, url: str) -> Page:
    """A page at 360x740 on `url`, its console watched."""
    page = context.new_page()
    page.set_viewport_size(PHONE)
    problems.watch(page)
    page.goto(url)
    return page


def tap_tile(page: Page, tile: str) -> None:
    page.get_by_test_id("tile-picker").locator(f'[data-tile="{tile}"]').click()


def test_a_three_kaki_hand_entered_by_taps_shows_its_payments(
    live_server: LiveServer,
    chromium_browser: Browser,
    browser_context: BrowserContext,
    page_problems: PageProblems,
) -> None:
    opened = open_ledger(live_server)
    page = phone(browser_context, page_problems, opened["url"])
    # The invite leaves the address bar once the page holds it.
    expect(page).to_have_url(f"{live_server.url}/ledgers/{opened['ledger_id']}")
    watcher = chromium_browser.new_context(viewport=PHONE)
    other_phone = watcher.new_page()
    page_problems.watch(other_phone)
    other_phone.goto(opened["url"])
    expect(other_phone.get_by_test_id("ledger-scores")).to_contain_text("Bo")

    page.get_by_test_id("winner-1").click()
    page.get_by_test_id("discarder-2").click()
    # The picker is the main screen: on the first screen, every tile a fingertip wide.
    picker = page.get_by_test_id("tile-picker")
    box = picker.bounding_box()
    assert box is not None and box["y"] < PHONE["height"] / 2
    tile = picker.locator('[data-tile="9p"]').bounding_box()
    assert tile is not None and tile["width"] >= 34 and tile["x"] + tile["width"] <= PHONE["width"]

    page.get_by_test_id("pick-mode-pong").click()
    tap_tile(page, "5z")
    page.get_by_test_id("pick-with-fei").click()
    tap_tile(page, "6z")  # a pong of Green with a Fei
    page.get_by_test_id("pick-mode-hand").click()
    for tile in ("1p", "2p", "3p", "4p", "5p", "6p", "7z", "7z"):
        tap_tile(page, tile)
    page.get_by_test_id("pick-mode-bonus").click()
    tap_tile(page, "2f")
    tap_tile(page, "3a")
    tap_tile(page, "4a")
    tap_tile(page, "4a")  # tapped again: taken away
    expect(page.get_by_test_id("entered-bonus").locator(".tile")).to_have_count(2)
    expect(page.get_by_test_id("entered-sets")).to_contain_text("Fei = Green")
    # The losers, for the square-up: Ana's flower 1, season 4 and East pong; Cy's season
    # 3 and one Fei.
    page.get_by_test_id("pick-owner-0").click()
    tap_tile(page, "1f")
    tap_tile(page, "4n")
    page.get_by_test_id("pick-mode-pong").click()
    tap_tile(page, "1z")
    page.get_by_test_id("pick-owner-2").click()
    tap_tile(page, "3n")
    page.get_by_test_id("fei-2-1").click()
    # Bo shows two dragon sets: the page asks who threw the third.
    page.get_by_test_id("liable-2").click()

    answer = page.get_by_test_id("ledger-answer")
    expect(answer).to_have_attribute("data-valid", "true")
    expect(answer).to_contain_text("8 fan, 14 points")
    expect(page.get_by_test_id("ledger-patterns")).to_contain_text("Little dragons")
    payments = page.get_by_test_id("ledger-payments").locator("li")
    expect(payments).to_have_count(4)
    assert [line.split("\n")[:2] for line in payments.all_inner_texts()] == [
        ["Cy pays Bo", "14"],
        ["Cy pays Bo", "7"],
        ["Ana pays Bo", "1"],
        ["Cy pays Ana", "1"],
    ]
    expect(page.get_by_test_id("ledger-net")).to_have_text("Ana 0, Bo +22, Cy -22")
    save_screenshot(page, "ledger-phone-answer")
    page.get_by_test_id("save-hand").click()

    expect(page.get_by_test_id("ledger-hand")).to_have_count(1)
    expect(page.get_by_test_id("next-hand")).to_contain_text("Hand 2: Bo deals")
    # The other phone sees the hand at once, over the ledger's socket.
    expect(other_phone.get_by_test_id("ledger-hand")).to_have_count(1)
    expect(other_phone.get_by_test_id("ledger-scores")).to_contain_text("+22")
    save_screenshot(page, "ledger-phone-saved")
    watcher.close()
    assert page_problems.messages == []


def test_a_hand_short_of_fan_says_why_and_cannot_be_saved(
    live_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    opened = open_ledger(live_server)
    page = phone(browser_context, page_problems, opened["url"])
    page.get_by_test_id("winner-0").click()
    page.get_by_test_id("discarder-none").click()
    for tile in (
        "1p",
        "1p",
        "1p",
        "3p",
        "4p",
        "5p",
        "5p",
        "6p",
        "7p",
        "7p",
        "8p",
        "9p",
        "2p",
        "2p",
    ):
        tap_tile(page, tile)
    page.get_by_test_id("pick-mode-bonus").click()
    tap_tile(page, "1a")
    answer = page.get_by_test_id("ledger-answer")
    # A full flush and an animal are 4 fan; the table needs 5.
    expect(answer).to_have_attribute("data-valid", "false")
    expect(answer).to_contain_text("4 of 5 fan")
    expect(page.get_by_test_id("save-hand")).to_be_disabled()
    assert page_problems.messages == []


def test_the_lobby_opens_a_ledger_and_its_opener_is_the_host(
    live_server: LiveServer, browser_context: BrowserContext, page_problems: PageProblems
) -> None:
    page = phone(browser_context, page_problems, f"{live_server.url}/")
    page.get_by_test_id("ledger-link").click()
    page.get_by_test_id("ledger-variant-hk").check()
    for index, name in enumerate(("Ana", "Bo", "Cy", "Di")):
        page.get_by_test_id(f"player-name-{index}").fill(name)
    page.get_by_test_id("open-ledger-submit").click()
    expect(page.get_by_test_id("next-hand")).to_contain_text("Hand 1: Ana deals, East round")
    expect(page.get_by_test_id("ledger-scores").locator("li")).to_have_count(4)
    # Only the opener's browser holds the host's secret: the standings switch is theirs.
    switch = page.get_by_test_id("in-standings")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(page.get_by_test_id("in-standings")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("show-history").locator("summary").click()
    expect(page.get_by_test_id("ledger-history")).to_contain_text("counted the night")
    assert page_problems.messages == []
