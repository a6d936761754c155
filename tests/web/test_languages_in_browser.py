"""Each table in each language, as a player in Kuala Lumpur or Hong Kong would see it.

One page session per table and language: the browser's own language chooses the
catalogue; the player joins, fills the seats with bots and plays a whole deal by clicking,
at desktop width and then on a 360 px phone. On every screen no English is left in a
translated page, nothing scrolls sideways, and the console stays clean. Screenshots go
to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from server.engine.scoring import FAN_CAP
from server.engine.scoring.hk import HK_FAN, HK_LIMITS
from server.engine.scoring.kaki3 import KAKI3_FAN, KAKI3_LIMITS
from tests.web.catalogues import BROWSER_LOCALES, LANGUAGES, catalogue, english_leaks
from tests.web.live_server import DESKTOP, PHONE, LiveServer, PageProblems, save_screenshot
from tests.web.table_player import (
    INVITE_LINKS,
    PlayLog,
    create_room_over_http,
    play_until_result,
)

pytestmark = pytest.mark.browser

PATTERN_TABLES = {"hk": (HK_FAN, HK_LIMITS), "kaki3": (KAKI3_FAN, KAKI3_LIMITS)}

# Everything a person reads: the visible text and the names of tiles and buttons.
_READ_PAGE = """() => {
  const shown = (node) => node.offsetParent !== null || node.getClientRects().length > 0;
  const names = [...document.querySelectorAll('[aria-label], [title]')].filter(shown)
    .map((node) => `${node.getAttribute('aria-label') || ''} ${node.getAttribute('title') || ''}`);
  return [document.title, document.body.innerText, ...names].join('\\n');
}"""


def assert_worded(page: Page, language: str, moment: str) -> None:
    """No English left on the page (for a translated page), and the page's language set."""
    expect(page.locator("html")).to_have_attribute("lang", _LOCALE_TAGS[language])
    if language != "en":
        assert english_leaks(page.evaluate(_READ_PAGE), language) == [], moment


_LOCALE_TAGS = {"en": "en-GB", "ms": "ms-MY", "zh-Hant": "zh-HK", "zh-Hans": "zh-Hans-MY"}


# The elements that reach past the right edge, for a failure's message.
_WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
  .slice(-4).map((node) => `${node.tagName}.${node.className}`)"""


def assert_fits(page: Page, moment: str) -> None:
    """Nothing scrolls sideways, and every tile of the hand is on screen and tappable."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, (
        f"{moment}: the page scrolls sideways by {overflow}px: {page.evaluate(_WIDEST)}"
    )
    boxes = page.get_by_test_id("hand-tile").evaluate_all(
        "tiles => tiles.map(t => t.getBoundingClientRect()).map(r => [r.left, r.right, r.width])"
    )
    width = page.viewport_size["width"] if page.viewport_size else 0
    for left, right, tile_width in boxes:
        assert left >= 0 and right <= width and tile_width >= 20, f"{moment}: {boxes}"


def check_rules_panel(page: Page, variant: str, language: str) -> None:
    """The Rules panel lists the scorer's own patterns and fan, in the page's language."""
    page.get_by_test_id("rules-open").click()
    rows = page.get_by_test_id("rules-patterns").locator("tbody tr")
    expect(rows.first).to_be_visible()
    shown = rows.evaluate_all(
        "rows => rows.map(r => [r.dataset.pattern, Number(r.dataset.fan), r.dataset.limit])"
    )
    fan_table, limits = PATTERN_TABLES[variant]
    expected = [[pattern_id, fan, "false"] for pattern_id, fan in fan_table.items()]
    expected += [[pattern_id, FAN_CAP[variant], "true"] for pattern_id in limits]
    assert shown == expected
    words = catalogue(language)
    names = rows.locator(".rules-name").all_inner_texts()
    assert names == [words[f"pattern.{pattern_id}"] for pattern_id, _, _ in expected]
    assert rows.locator(".rules-example .tile").count() > len(expected)
    assert_worded(page, language, "rules panel")
    save_screenshot(page, f"{variant}-{language}-desktop-rules")
    page.get_by_test_id("rules-close").click()
    expect(page.get_by_test_id("rules")).to_be_hidden()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", ["kaki3", "hk"])
def test_a_whole_deal_in_each_language_on_a_desktop_and_a_phone(
    chromium_browser: Browser, live_server: LiveServer, variant: str, language: str
) -> None:
    context = chromium_browser.new_context(viewport=DESKTOP, locale=BROWSER_LOCALES[language])
    context.set_default_timeout(15000)
    problems = PageProblems()
    try:
        page = context.new_page()
        problems.watch(page)
        # Public, so that the dashboard (no admin token set) shows its deal at the end.
        room_id = create_room_over_http(live_server.url, variant=variant, public=True)
        page.goto(INVITE_LINKS[room_id])
        assert_worded(page, language, "join form")
        page.get_by_test_id("join-name").fill("Ana")
        page.get_by_test_id("join-submit").click()
        expect(page.get_by_test_id("fill-bots")).to_be_visible()
        assert_worded(page, language, "waiting room")
        page.get_by_test_id("fill-bots").click()
        expect(page.get_by_test_id("hand-tile").first).to_be_visible()
        log = PlayLog()
        while log.discards < 2 and not page.get_by_test_id("result").is_visible():
            play_until_result_or_discards(page, log)
        assert_worded(page, language, "mid-deal")
        save_screenshot(page, f"{variant}-{language}-desktop-deal")
        check_rules_panel(page, variant, language)
        page.set_viewport_size(PHONE)
        if page.get_by_test_id("hand-tile").count():
            assert_fits(page, "phone, mid-deal")
        save_screenshot(page, f"{variant}-{language}-phone-deal")
        play_until_result(page, 90, log)
        assert_worded(page, language, "result on a phone")
        assert_fits(page, "phone, result")
        save_screenshot(page, f"{variant}-{language}-phone-result")
        page.set_viewport_size(DESKTOP)
        result = page.get_by_test_id("result")
        expect(result.locator("table.scores tbody tr")).to_have_count(
            3 if variant == "kaki3" else 4
        )
        save_screenshot(page, f"{variant}-{language}-desktop-result")
        assert log.discards + len(log.choices) > 0, "the person never played"
        check_lobby_and_dashboard(page, live_server, variant, language)
    finally:
        context.close()
    assert problems.messages == []


def check_lobby_and_dashboard(page: Page, server: LiveServer, variant: str, language: str) -> None:
    """The lobby (with this table listed) and the dashboard (with this deal) in the language."""
    page.goto(f"{server.url}/")
    expect(page.get_by_test_id("my-rooms").locator("li.room-line").first).to_be_visible()
    assert_worded(page, language, "lobby")
    page.set_viewport_size(PHONE)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the phone lobby scrolls sideways by {overflow}px"
    save_screenshot(page, f"{variant}-{language}-phone-lobby")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{server.url}/dashboard")
    page.get_by_test_id("deal-row").first.click()
    expect(page.get_by_test_id("deal-actions").locator("li").first).to_be_visible()
    assert_worded(page, language, "dashboard")
    save_screenshot(page, f"{variant}-{language}-desktop-dashboard")
    # The seed exactly as the store keeps it: a number above 2**53 loses digits in a browser.
    shown_seed = page.get_by_test_id("deal-seed").inner_text().strip()
    deal_id = page.get_by_test_id("deal-row").first.get_attribute("data-deal-id")
    stored = page.request.get(f"{server.url}/api/dashboard/deals/{deal_id}").json()
    assert isinstance(stored["seed"], str) and shown_seed == stored["seed"]
    page.set_viewport_size(PHONE)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        " > innerWidth + 0.5).filter(e => !e.closest('thead')).slice(0, 4).map(e => e.tagName + '.' + e.className + '#' + e.id + ':' + Math.round(e.getBoundingClientRect().right))"
    )
    assert overflow <= 0, f"the phone dashboard scrolls sideways by {overflow}px: {wide}"
    save_screenshot(page, f"{variant}-{language}-phone-dashboard")
    page.set_viewport_size(DESKTOP)
    for tab, shows in (("standings", "standing-row"), ("charts", "chart-durations")):
        page.locator(f"button[data-tab={tab}]").click()
        expect(page.get_by_test_id(shows).first).to_be_visible()
        page.wait_for_function("document.getElementById('status').textContent === ''")
        assert_worded(page, language, f"dashboard {tab}")


def play_until_result_or_discards(page: Page, log: PlayLog) -> None:
    """One step of play (see table_player.play_one_step), for as long as the test wants."""
    from tests.web.table_player import play_one_step

    play_one_step(page, log)


def test_a_reload_keeps_the_language_tile_set_and_sound_choices(
    chromium_browser: Browser, live_server: LiveServer
) -> None:
    context = chromium_browser.new_context(viewport=PHONE, locale="en-GB")
    problems = PageProblems()
    try:
        page = context.new_page()
        problems.watch(page)
        room_id = create_room_over_http(live_server.url, variant="kaki3")
        page.goto(INVITE_LINKS[room_id])
        expect(page.locator("html")).to_have_attribute("lang", "en-GB")
        with page.expect_navigation():
            page.get_by_test_id("language").select_option("ms")
        expect(page.get_by_test_id("join-submit")).to_have_text(catalogue("ms")["join.submit"])
        with page.expect_navigation():
            page.get_by_test_id("tile-set").select_option("learner")
        sound = page.get_by_test_id("sound-toggle")
        expect(sound).to_have_attribute("aria-pressed", "false")
        sound.click()
        expect(sound).to_have_attribute("aria-pressed", "true")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "ms-MY")
        expect(page.get_by_test_id("language")).to_have_value("ms")
        expect(page.get_by_test_id("tile-set")).to_have_value("learner")
        expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("join-name").fill("Siti")
        page.get_by_test_id("join-submit").click()
        page.get_by_test_id("fill-bots").click()
        tile = page.get_by_test_id("hand-tile").first
        expect(tile).to_have_class(re.compile(r"tiles-learner"))
        assert_worded(page, "ms", "after the reload")
        save_screenshot(page, "kaki3-ms-phone-learner-tiles")
    finally:
        context.close()
    assert problems.messages == []


def test_reduced_motion_turns_the_animations_off(
    chromium_browser: Browser, live_server: LiveServer
) -> None:
    animations = {}
    problems = PageProblems()
    room_id = create_room_over_http(live_server.url, variant="hk")
    for motion in ("no-preference", "reduce"):
        context = chromium_browser.new_context(reduced_motion=motion)
        try:
            page = context.new_page()
            problems.watch(page)
            page.goto(INVITE_LINKS[room_id])
            expect(page.get_by_test_id("join-submit")).to_be_visible()
            animations[motion] = page.evaluate(
                """() => ['call-bubble', 'river'].map((kind) => {
                  const board = document.getElementById('board');
                  const node = document.createElement('div');
                  node.className = kind === 'river' ? 'river' : 'call-bubble pos-left';
                  const tile = document.createElement('span');
                  tile.className = 'tile arriving';
                  node.append(tile);
                  board.append(node);
                  const target = kind === 'river' ? tile : node;
                  return getComputedStyle(target).animationName;
                })"""
            )
        finally:
            context.close()
    assert animations["no-preference"] == ["call-pop", "discard-in"]
    assert animations["reduce"] == ["none", "none"]
    assert problems.messages == []
