"""The table's sounds: made in the page, only after a touch, and silent when muted.

Chromium's own Web Audio is watched (not replaced): an init script counts the audio
contexts the page creates and the sounds it starts on them.
"""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import (
    INVITE_LINKS,
    PlayLog,
    create_room_over_http,
    fill_with_bots_over_http,
    invite_of,
    play_one_step,
)

pytestmark = pytest.mark.browser

WATCH_AUDIO = """(() => {
  window.audioWatch = { contexts: 0, sounds: 0 };
  const Original = window.AudioContext;
  window.AudioContext = class extends Original {
    constructor(...args) { super(...args); window.audioWatch.contexts += 1; }
  };
  for (const name of ['createOscillator', 'createBufferSource']) {
    const make = BaseAudioContext.prototype[name];
    BaseAudioContext.prototype[name] = function (...args) {
      window.audioWatch.sounds += 1;
      return make.apply(this, args);
    };
  }
})();"""


def audio(page: Page) -> dict[str, int]:
    return dict(page.evaluate("window.audioWatch"))


def seated_at_a_table(browser: Browser, server: LiveServer) -> tuple[Page, PageProblems]:
    """A page that holds a seat (joined over HTTP, remembered as the page would) untouched."""
    room_id = create_room_over_http(server.url, variant="hk")
    joined = httpx.post(
        f"{server.url}/api/rooms/{room_id}/join",
        json={"name": "Ana", "invite": invite_of(room_id)},
        timeout=10,
    )
    seat = {**joined.json(), "name": "Ana", "room_id": room_id, "joined_at": 1}
    context = browser.new_context()
    context.add_init_script(WATCH_AUDIO)
    key = json.dumps(f"mahjong-hall:seat:{room_id}")
    context.add_init_script(f"localStorage.setItem({key}, {json.dumps(json.dumps(seat))})")
    page = context.new_page()
    problems = PageProblems()
    problems.watch(page)
    page.goto(INVITE_LINKS[room_id])
    expect(page.get_by_test_id("fill-bots")).to_be_visible()
    fill_with_bots_over_http(server.url, room_id)
    return page, problems


def play_a_little(page: Page, discards: int) -> None:
    log = PlayLog()
    while log.discards < discards and not page.get_by_test_id("result").is_visible():
        play_one_step(page, log)


def test_sounds_start_only_after_a_touch_and_stop_when_muted(
    chromium_browser: Browser, live_server: LiveServer
) -> None:
    page, problems = seated_at_a_table(chromium_browser, live_server)
    try:
        # The bots' discards and our turn would all sound, but nobody has touched the page.
        expect(page.locator("[data-testid=hand-tile].discardable").first).to_be_visible()
        page.wait_for_timeout(500)
        assert audio(page) == {"contexts": 0, "sounds": 0}
        # A real click (pointer events): now the page may make sound.
        play_a_little(page, 2)
        heard = audio(page)
        assert heard["contexts"] == 1 and heard["sounds"] > 0, heard
        sound = page.get_by_test_id("sound-toggle")
        sound.click()
        expect(sound).to_have_attribute("aria-pressed", "true")
        page.wait_for_timeout(100)
        before = audio(page)["sounds"]
        play_a_little(page, 2)
        assert audio(page)["sounds"] == before, "a muted table made sound"
    finally:
        page.context.close()
    assert problems.messages == []
