"""The words the client puts on buttons and tiles, read from its own modules in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext

from tests.web.live_server import LiveServer, PageProblems

pytestmark = pytest.mark.browser

# Each case: a legal action as the server sends it, the discard on offer, and the label.
ACTION_LABELS = [
    ({"type": "chow", "seat": "S", "tiles": "46p"}, "5p", "Chow 4-5-6 Dots"),
    (
        {"type": "chow", "seat": "S", "tiles": "4p j", "fei_as": "6p"},
        "5p",
        "Chow 4-5-6 Dots (Fei as 6 Dots)",
    ),
    ({"type": "chow", "seat": "S", "tiles": "78m"}, "9m", "Chow 7-8-9 Characters"),
    ({"type": "pong", "seat": "W", "tiles": "55p"}, "5p", "Pong 5 Dots"),
    ({"type": "pong", "seat": "W", "tiles": "7z j", "fei_as": "7z"}, "7z", "Pong Red with Fei"),
    ({"type": "kong", "seat": "E", "tiles": "222s"}, "2s", "Kong 2 Bamboo"),
    ({"type": "concealed_kong", "seat": "E", "tile": "1z"}, None, "Kong East (concealed)"),
    ({"type": "added_kong", "seat": "E", "tile": "9p"}, None, "Kong 9 Dots (add to pong)"),
    ({"type": "win", "seat": "N"}, "3m", "Win"),
    ({"type": "pass", "seat": "N"}, "3m", "Pass"),
    ({"type": "sink", "seat": "S"}, None, "Sink Fei"),
    ({"type": "swap", "seat": "S", "tile": "4p"}, None, "Swap 4 Dots for Fei"),
]

TILE_NAMES = {
    "5p": "5 of dots",
    "1s": "1 of bamboo",
    "9m": "9 of characters",
    "3z": "West wind",
    "5z": "White dragon",
    "6z": "Green dragon",
    "7z": "Red dragon",
    "2f": "Flower 2",
    "4n": "Season 4",
    "1a": "Animal 1",
    "3c": "Face 3",
    "j": "Fei (joker)",
}


def test_buttons_and_tiles_are_named_in_words(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    labels = page.evaluate(
        """async (cases) => {
            const { actionLabel } = await import('/static/labels.js');
            return cases.map(([action, onOffer]) => actionLabel(action, onOffer));
        }""",
        [[action, on_offer] for action, on_offer, _ in ACTION_LABELS],
    )
    assert labels == [label for _, _, label in ACTION_LABELS]
    names = page.evaluate(
        """async (tiles) => {
            const { tileElement } = await import('/static/tiles.js');
            return tiles.map((tile) => tileElement(tile).getAttribute('aria-label'));
        }""",
        list(TILE_NAMES),
    )
    assert names == list(TILE_NAMES.values())
    assert page_problems.messages == []


def test_unknown_pattern_ids_still_read_as_words(
    browser_context: BrowserContext, live_server: LiveServer
) -> None:
    page = browser_context.new_page()
    page.goto(f"{live_server.url}/")
    names = page.evaluate(
        """async () => {
            const { patternName, paymentReason } = await import('/static/labels.js');
            return [patternName('dragon_set'), patternName('some_new_pattern'),
                    paymentReason('square_up'), paymentReason('extra_fei')];
        }"""
    )
    assert names == ["Dragon set", "Some new pattern", "Squaring up", "Extra Fei"]


def test_tiles_are_named_in_the_pages_language(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    page.evaluate("localStorage.setItem('mahjong-hall:pref:language', 'zh-Hant')")
    page.reload()
    names = page.evaluate(
        """async (tiles) => {
            const { tileElement } = await import('/static/tiles.js');
            return tiles.map((tile) => tileElement(tile).getAttribute('aria-label'));
        }""",
        ["5p", "9m", "1s", "7z", "1f", "4n", "4a", "j"],
    )
    assert names == [
        "五筒",
        "九萬",
        "一索",
        "紅中",
        "梅（花一）",
        "冬（季四）",
        "蜈蚣（動物四）",
        "飛（百搭）",
    ]
    assert page_problems.messages == []


def test_a_claimed_tile_turns_towards_the_seat_it_came_from(
    browser_context: BrowserContext, live_server: LiveServer
) -> None:
    page = browser_context.new_page()
    page.goto(f"{live_server.url}/")
    laid = page.evaluate(
        """async () => {
            const { meldElement } = await import('/static/seats.js');
            const lay = (owner, from, seats, kind = 'pong') => {
              const meld = { kind, tiles: ['5p', '5p', '5p'], claimed: '5p', from };
              const tiles = [...meldElement(meld, 'sm', { owner, seats }).querySelectorAll('.tile')];
              return tiles.map((tile) => tile.classList.contains('claimed')
                ? [...tile.classList].find((name) => name.startsWith('claimed-')) : '-').join(' ');
            };
            const hk = ['E', 'S', 'W', 'N'];
            const kaki3 = ['E', 'S', 'W'];
            return [lay('E', 'N', hk), lay('E', 'S', hk), lay('E', 'W', hk),
                    lay('S', 'E', kaki3), lay('S', 'W', kaki3)];
        }"""
    )
    assert laid == [
        "claimed-left - -",
        "- - claimed-right",
        "- claimed-across -",
        "claimed-left - -",
        "- - claimed-right",
    ]


# The same buttons in each language: the words players say, never a tile code.
WORDED_LABELS = {
    "zh-Hant": ["上 四五六筒", "碰五筒", "槓東", "打九萬"],
    "zh-Hans": ["吃 四五六筒", "碰五筒", "杠东", "打九万"],
    "ms": ["Chow 4-5-6 Tong", "Pong 5 Tong", "Kong Timur", "Buang 9 Wan"],
    "en": ["Chow 4-5-6 Dots", "Pong 5 Dots", "Kong East", "Discard 9 Characters"],
}


@pytest.mark.parametrize("language", list(WORDED_LABELS))
def test_labels_and_moves_say_tiles_in_the_pages_words(
    browser_context: BrowserContext, live_server: LiveServer, language: str
) -> None:
    page = browser_context.new_page()
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('mahjong-hall:pref:language', '{language}')")
    page.reload()
    worded = page.evaluate(
        """async () => {
            const { actionLabel, moveLabel, playerName } = await import('/static/labels.js');
            const { t } = await import('/static/i18n.js');
            return {
              labels: [actionLabel({ type: 'chow', tiles: '46p' }, '5p'),
                       actionLabel({ type: 'pong', tiles: '55p' }, '5p'),
                       actionLabel({ type: 'kong', tiles: '111z' }, '1z'),
                       actionLabel({ type: 'discard', tile: '9m' })],
              // A stored chow does not repeat the discard it took: the move before says it.
              move: moveLabel({ type: 'chow', seat: 'S', tiles: '46p' }, '5p'),
              chow: actionLabel({ type: 'chow', tiles: '46p' }, '5p'),
              bot: playerName({ name: 'Bot 2', is_bot: true }),
              botWord: t('seat.bot_name', { number: 2 }),
              person: playerName({ name: 'Bot 2', is_bot: false }),
            };
        }"""
    )
    expected = WORDED_LABELS[language]
    assert worded["labels"] == expected
    assert worded["move"] == worded["chow"] == expected[0]
    assert worded["bot"] == worded["botWord"] and worded["person"] == "Bot 2"
    if language.startswith("zh"):
        assert "Bot" not in worded["bot"]
    for text in worded["labels"]:
        assert not re.search(r"\b[1-9]+[mpsz]\b", text), text
