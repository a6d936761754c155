"""A person at the table, as the browser tests play it: clicking tiles and buttons only."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

CLICK_TIMEOUT_MS = 400


@dataclass
class PlayLog:
    """What the player did during a deal, so a test can check it really played."""

    discards: int = 0
    choices: list[str] = field(default_factory=list)


# The invite link of every room `create_room_over_http` opened.
INVITE_LINKS: dict[str, str] = {}


def join_by_table_page(page: Page, base_url: str, room_id: str, name: str) -> None:
    """Opens the table page of a room by its invite link and joins through the page's form."""
    page.goto(INVITE_LINKS.get(room_id, f"{base_url}/rooms/{room_id}"))
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    page.locator("#table").wait_for(state="visible")


def create_room_over_http(base_url: str, **settings: object) -> str:
    """Creates a room with the public API (for tests about the table rather than the lobby)."""
    answer = httpx.post(f"{base_url}/api/rooms", json=settings, timeout=10)
    assert answer.status_code == 201, answer.text
    room_id = str(answer.json()["room_id"])
    INVITE_LINKS[room_id] = str(answer.json()["url"])
    return room_id


def invite_of(room_id: str) -> str:
    """The invite secret of a room `create_room_over_http` opened."""
    return INVITE_LINKS[room_id].split("#invite=", 1)[1]


def fill_with_bots_over_http(base_url: str, room_id: str) -> None:
    """Lets bots take every empty seat, which starts the first deal."""
    answer = httpx.post(
        f"{base_url}/api/rooms/{room_id}/bots", json={"invite": invite_of(room_id)}, timeout=10
    )
    assert answer.status_code == 200, answer.text


def hand_labels(page: Page) -> list[str]:
    """The tiles of my hand as the page shows them, left to right (drawn tile last)."""
    return [
        str(label)
        for label in page.get_by_test_id("hand-tile").evaluate_all(
            "tiles => tiles.map(t => t.dataset.tile)"
        )
    ]


def _click(page: Page, selector_index: tuple[str, int]) -> bool:
    selector, index = selector_index
    try:
        page.locator(selector).nth(index).click(timeout=CLICK_TIMEOUT_MS)
    except PlaywrightError:
        # The choice vanished under the pointer (a bot claimed first, or the timer ran out).
        return False
    return True


# One look at the page per step: which choice buttons and discardable tiles it offers.
_LOOK = """() => ({
  choices: [...document.querySelectorAll('[data-testid=action]:enabled')].map(b => b.textContent),
  discardable: document.querySelectorAll('[data-testid=hand-tile].discardable').length,
})"""


def play_one_step(page: Page, log: PlayLog) -> None:
    """Answers whatever the page asks now: a choice button first, else a discard."""
    offer = page.evaluate(_LOOK)
    labels = offer["choices"]
    if labels:
        # Take the win when offered; otherwise the page lists the strongest claim first.
        index = labels.index("Win") if "Win" in labels else 0
        if _click(page, ("[data-testid=action]:enabled", index)):
            log.choices.append(labels[index])
        return
    if offer["discardable"]:
        # The drawn tile when there is one (it is last), else the rightmost legal tile.
        if _click(page, ("[data-testid=hand-tile].discardable", offer["discardable"] - 1)):
            log.discards += 1
        return
    page.wait_for_timeout(30)


def pass_if_asked(page: Page) -> None:
    """Answers an open choice with Pass (the last button), so the deal comes round to us."""
    choices = page.locator("[data-testid=action]:enabled")
    if choices.count():
        _click(page, ("[data-testid=action]:enabled", choices.count() - 1))
    else:
        page.wait_for_timeout(30)


def play_until_result(page: Page, seconds: float, log: PlayLog) -> None:
    """Plays by clicking until the result panel shows, or fails after `seconds`."""
    result = page.get_by_test_id("result")
    deadline = time.monotonic() + seconds
    while not result.is_visible():
        assert time.monotonic() < deadline, f"no result after {seconds} s of play ({log})"
        play_one_step(page, log)
