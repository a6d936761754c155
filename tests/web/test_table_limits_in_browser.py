"""The page keeps no copy of a table's limits: the result and Rules panels show the
server's figures, a house-rules table its own (real server, real Chromium)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext

from server.bots import LEVELS
from server.bots.simulation import play_deal
from server.engine.deal_result import DealOutcome
from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import create_room_over_http, invite_of

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "web"


def test_no_web_module_keeps_a_tables_minimum_or_cap() -> None:
    for module in sorted(WEB.glob("*.js")):
        text = module.read_text(encoding="utf-8")
        assert "FAN_CAP" not in text and "MIN_FAN" not in text, module.name
        # A table-to-number map such as `{ hk: 8, kaki3: 10 }` would be such a copy.
        assert not re.search(r"\bhk\s*:\s*\d", text), module.name
        assert not re.search(r"\bkaki3\s*:\s*\d", text), module.name


def a_won_result() -> dict[str, object]:
    """A real Hong Kong result with a winner, from the engine (bots play it)."""
    for number in range(40):
        result = play_deal("hk", f"limits:{number}", dict.fromkeys("ESWN", LEVELS[-1]), [])
        if result.outcome == DealOutcome.WIN:
            return result.to_json()
    raise AssertionError("no deal of forty was won")


def test_the_result_panel_shows_the_rooms_own_cap(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    room_id = create_room_over_http(live_server.url, variant="hk", rules={"fan_cap": 13})
    room = httpx.get(
        f"{live_server.url}/api/rooms/{room_id}",
        params={"invite": invite_of(room_id)},
        timeout=10,
    ).json()
    assert room["rules"]["fan_cap"] == 13
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    caps = page.evaluate(
        """async ([room, result]) => {
            const { ResultPanel, resultContext } = await import('/static/result_panel.js');
            const shown = [];
            for (const rules of [room.rules, { ...room.rules, fan_cap: 8 }]) {
                const panel = document.createElement('div');
                const reopen = document.createElement('button');
                new ResultPanel(panel, reopen, () => {}).render(
                    resultContext({ variant: 'hk', room: { ...room, rules }, result }, null), false);
                shown.push(panel.querySelector('tr.cap-row').textContent);
            }
            return shown;
        }""",
        [room, a_won_result()],
    )
    assert caps == ["Table cap13 fan", "Table cap8 fan"]
    assert page_problems.messages == []


def test_the_rules_panel_shows_the_servers_minimum_and_cap(
    browser_context: BrowserContext, live_server: LiveServer, page_problems: PageProblems
) -> None:
    page = browser_context.new_page()
    page_problems.watch(page)
    page.goto(f"{live_server.url}/")
    shown = page.evaluate(
        """async () => {
            const { RulesPanel } = await import('/static/rules_panel.js');
            const read = async (tableRules) => {
                const node = document.createElement('div');
                await new RulesPanel(node).open('hk', tableRules);
                const rows = [...node.querySelectorAll('[data-testid=rules-points] tbody tr')];
                return [node.querySelector('.rules-summary').textContent, rows.at(-1).dataset.fan];
            };
            return [await read(null), await read({ min_fan: 1, fan_cap: 10, points: 'seed' })];
        }"""
    )
    seed = httpx.get(f"{live_server.url}/api/variants/hk", timeout=10).json()
    house = httpx.get(
        f"{live_server.url}/api/variants/hk", params={"min_fan": 1, "fan_cap": 10}, timeout=10
    ).json()
    assert shown[0] == [
        f"A hand needs {seed['min_fan']} fan to win; {seed['fan_cap']} fan is the limit.",
        str(seed["fan_cap"]),
    ]
    assert shown[1] == ["A hand needs 1 fan to win; 10 fan is the limit.", str(house["fan_cap"])]
    assert house["fan_cap"] == 10
    assert page_problems.messages == []
