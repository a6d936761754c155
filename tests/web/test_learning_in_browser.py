"""Learning at the table, in Chromium against a real server: the hand meter during a real
deal, a "why can't I win" notice for a short win, and a finished deal replayed to its end
with the scores of the result panel.

Deals at a real table use secret seeds, so the short win is scripted in the engine (the
same deal as tests/engine/test_analysis.py) and its real analysis drawn by the page's own
meter module, loaded from the server.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from server.engine import view
from server.engine.analysis import analyse
from tests.engine.conftest import build_deal, play
from tests.engine.test_analysis import SHORT_SOUTH
from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import (
    PlayLog,
    create_room_over_http,
    fill_with_bots_over_http,
    join_by_table_page,
    play_until_result,
)

pytestmark = pytest.mark.browser


def test_the_meter_follows_my_hand_during_a_real_deal(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    room_id = create_room_over_http(live_server.url, variant="kaki3")
    join_by_table_page(page, live_server.url, room_id, "Mei")
    fill_with_bots_over_http(live_server.url, room_id)
    steps = page.get_by_test_id("analysis-steps")
    expect(steps).to_be_visible()
    expect(steps).to_have_text(re.compile(r"from ready|Ready|complete"))
    assert page_problems.messages == []


def short_state() -> dict[str, object]:
    """South's state when West throws 4p: the shape is complete, the fan 3 of 5."""
    state = build_deal("kaki3", SHORT_SOUTH, front="5z 4p", back="9p")
    state = play(state, "E", "discard", tile="1z")
    state = play(state, "S", "discard", tile="5z")
    state = play(state, "W", "discard", tile="4p")
    shown = view(state, "S")
    return {**shown, "analysis": analyse(shown)}


def test_a_short_win_says_why_it_cannot_win(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    page.evaluate(
        """async (state) => {
            const meter = await import('/static/analysis_meter.js');
            const box = document.createElement('div');
            box.id = 'scripted-meter';
            document.body.append(box);
            meter.renderAnalysis(box, state);
        }""",
        short_state(),
    )
    notice = page.locator("#scripted-meter [data-testid=why-not]")
    expect(notice).to_contain_text("4 Dots completes your hand, but 3 of 5 fan")
    expect(notice).to_contain_text("Full flush 3")
    expect(notice).to_contain_text("2 fan short")
    waits = page.locator("#scripted-meter [data-testid=wait]")
    expect(waits).to_have_count(3)
    expect(page.locator("#scripted-meter [data-testid=wait].short")).to_have_count(3)
    expect(page.locator("#scripted-meter [data-testid=wait][data-tile='4p']")).to_contain_text(
        "3 unseen"
    )
    assert page_problems.messages == []


def deal_scores(page: Page) -> list[int]:
    """This deal's points per seat, as the result panel lists them."""
    cells = page.locator("[data-testid=result] table.scores tbody tr td:nth-child(2)")
    return [int(text.replace("−", "-").replace("+", "")) for text in cells.all_inner_texts()]


def test_a_finished_deal_replays_to_its_end_with_the_result_panels_scores(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    room_id = create_room_over_http(live_server.url, variant="hk")
    join_by_table_page(page, live_server.url, room_id, "Lin")
    fill_with_bots_over_http(live_server.url, room_id)
    play_until_result(page, 120, PlayLog())
    panel_scores = deal_scores(page)
    link = page.get_by_test_id("replay-link")
    expect(link).to_have_attribute("href", f"/rooms/{room_id}/deals/1")

    replay = browser_context.new_page()
    page_problems.watch(replay)
    replay.goto(f"{live_server.url}/rooms/{room_id}/deals/1")
    expect(replay.get_by_test_id("replay-move")).to_have_text("The tiles as dealt")
    hands = replay.get_by_test_id("replay-hand")
    expect(hands).to_have_count(4)
    # Every hand is open: East holds 14 tiles as dealt, the others 13.
    assert [hand.locator(".tile").count() for hand in hands.all()] == [14, 13, 13, 13]
    replay.get_by_test_id("replay-forward").click()
    expect(replay.get_by_test_id("replay-move")).to_contain_text(re.compile(r"Move 1 of \d+"))
    replay.get_by_test_id("replay-back").click()
    expect(replay.get_by_test_id("replay-move")).to_have_text("The tiles as dealt")
    replay.get_by_test_id("replay-speed").select_option("16")
    replay.get_by_test_id("replay-play").click()
    result = replay.get_by_test_id("replay-result")
    expect(result).to_be_visible(timeout=60000)
    points = replay.locator("[data-testid=replay-scores] li").evaluate_all(
        "items => items.map(item => Number(item.dataset.points))"
    )
    assert points == panel_scores
    assert sum(points) == 0
    assert page_problems.messages == []


def test_the_hint_button_follows_the_tables_setting(
    browser_context: BrowserContext, unhurried_server: LiveServer, page_problems: PageProblems
) -> None:
    for allowed in (False, True):
        page = browser_context.new_page()
        page_problems.watch(page)
        room_id = create_room_over_http(
            unhurried_server.url, variant="hk", turn_seconds=600, hints=allowed
        )
        join_by_table_page(page, unhurried_server.url, room_id, "Hu" if allowed else "Ho")
        fill_with_bots_over_http(unhurried_server.url, room_id)
        # East throws first: the dealer's first decision is ours.
        expect(page.locator("[data-testid=hand-tile].discardable").first).to_be_visible()
        button = page.get_by_test_id("hint-button")
        if not allowed:
            expect(button).to_be_hidden()
            continue
        expect(button).to_be_visible()
        button.click()
        expect(page.get_by_test_id("hint-text")).to_contain_text("The bot would play")
        expect(page.get_by_test_id("hint-text")).to_contain_text("Discard")
    assert page_problems.messages == []
