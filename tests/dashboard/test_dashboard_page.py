"""The dashboard page in real Chromium (Debian's, through Playwright), against the real app
served by uvicorn on a free port, reading the hand-made history from Postgres."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.live import CHROMIUM, CHROMIUM_ARGS, ServerThread, free_port, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


@pytest.fixture(scope="module")
def live_app(postgres_history: tuple[str, dict[str, int]]) -> Iterator[tuple[str, Any]]:
    """(base URL, app) of the real app on the history database, served in a thread."""
    import uvicorn

    from server.app import create_app

    app = create_app(postgres_history[0])
    app.state.admin_token = ""  # open, unless a test sets one
    port = free_port()
    serving = ServerThread(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving.start()
    yield f"http://127.0.0.1:{port}", app
    serving.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium; skip without it unless MAHJONG_REQUIRE_BROWSER=1."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _open_page(chromium: Any) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    # Nothing may leave the machine: any request not to the local server is a failure.
    page.on(
        "request",
        lambda r: (
            None if r.url.startswith(("http://127.0.0.1", "data:")) else problems.append(r.url)
        ),
    )
    return context, page, problems


def test_dashboard_shows_deals_breakdown_standings_and_charts(
    live_app: tuple[str, Any], chromium: Any
) -> None:
    base, _app = live_app
    context, page, problems = _open_page(chromium)
    page.goto(f"{base}/dashboard")
    rows = page.get_by_test_id("deal-row")
    rows.first.wait_for()
    assert rows.count() == 5
    rows.nth(1).click()  # d4, the 3 Kaki win of Dee on Ana's discard
    detail = page.get_by_test_id("deal-detail")
    detail.get_by_test_id("deal-payments").wait_for()
    assert "Dee" in detail.get_by_test_id("deal-winner").inner_text()
    assert detail.get_by_test_id("deal-pattern").count() == 5
    assert detail.get_by_test_id("deal-payments").locator("tbody tr").count() == 2
    assert detail.get_by_test_id("deal-actions").locator("li").count() == 2

    page.get_by_role("button", name="Standings").click()
    page.get_by_test_id("standing-row").first.wait_for()
    assert page.get_by_test_id("standing-row").first.inner_text().startswith("Dee")

    page.get_by_role("button", name="Charts").click()
    for chart in ("winning-fan", "outcomes", "patterns", "durations"):
        bars = page.get_by_test_id(f"chart-{chart}").locator("svg rect")
        bars.first.wait_for(state="attached")
        assert bars.count() >= 3, chart
    outcome_values = (
        page.get_by_test_id("chart-outcomes")
        .locator("svg rect")
        .evaluate_all("rects => rects.map(r => Number(r.dataset.value))")
    )
    assert outcome_values == [3, 1, 1]  # win, draw, timeout
    duration_values = (
        page.get_by_test_id("chart-durations")
        .locator("svg rect")
        .evaluate_all("rects => rects.map(r => Number(r.dataset.value))")
    )
    assert duration_values == [0, 1, 1, 1, 1, 1]

    page.get_by_role("button", name="Operations").click()
    page.get_by_test_id("deal-limit-count").filter(has_text="1 deal").wait_for()
    assert page.get_by_test_id("bot-cover").locator("tbody tr").count() == 2

    # A filter narrows every view: 3 Kaki only.
    page.get_by_role("button", name="Deals").click()
    page.locator("select[name=variant]").select_option("kaki3")
    page.get_by_role("button", name="Apply").click()
    # Not wait_for_function: its polling evaluates a string, which the page's
    # Content-Security-Policy (no 'unsafe-eval') refuses.
    from playwright.sync_api import expect

    expect(page.get_by_test_id("deal-row")).to_have_count(2)
    context.close()
    assert problems == []


def test_dashboard_asks_for_the_admin_token(live_app: tuple[str, Any], chromium: Any) -> None:
    base, app = live_app
    app.state.admin_token = "let-me-in"
    try:
        context, page, problems = _open_page(chromium)
        page.goto(f"{base}/dashboard")
        form = page.get_by_test_id("token-form")
        form.wait_for(state="visible")
        assert page.get_by_test_id("deal-row").count() == 0
        page.locator("#token-input").fill("let-me-in")
        page.get_by_role("button", name="Open").click()
        page.get_by_test_id("deal-row").first.wait_for()
        assert form.is_hidden()
        # The token is remembered: a reload goes straight to the figures.
        page.reload()
        page.get_by_test_id("deal-row").first.wait_for()
        context.close()
        # The browser logs each refused (401) call as a failed resource load; anything
        # else is a real error.
        assert [p for p in problems if "401" not in p] == []
    finally:
        app.state.admin_token = ""
