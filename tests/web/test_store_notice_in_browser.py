"""The table page while the server's database cannot write: "Reconnecting to the
database…" shows, then goes once the disk has room again, and the held discard is there.

The database sits on a tmpfs the test fills (or, where it cannot mount one, under a
file-size limit on this process, which runs the server's thread).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.faults.disk import FileSizeLimit, small_disk
from tests.web.live_server import LiveServer, PageProblems
from tests.web.table_player import (
    create_room_over_http,
    fill_with_bots_over_http,
    join_by_table_page,
)

pytestmark = pytest.mark.browser


def test_the_page_shows_the_database_notice_while_the_disk_is_full(
    browser_context: BrowserContext, page_problems: PageProblems, tmp_path: Path
) -> None:
    folder = tmp_path / "disk"
    with small_disk(folder) as disk:
        server = LiveServer(f"sqlite+aiosqlite:///{folder / 'hall.sqlite3'}", bot_delay=3.0)
        server.start()
        fault = disk if disk is not None else FileSizeLimit(folder)
        try:
            room_id = create_room_over_http(server.url, variant="hk")
            page = browser_context.new_page()
            page_problems.watch(page)
            join_by_table_page(page, server.url, room_id, "Di")
            fill_with_bots_over_http(server.url, room_id)
            discardable = page.locator("[data-testid=hand-tile].discardable")
            expect(discardable.first).to_be_visible()
            notice = page.locator("#store-notice")
            expect(notice).to_be_hidden()

            fault.fill()
            discardable.last.click()
            expect(notice).to_be_visible()
            expect(notice).to_have_text("Reconnecting to the database…")
            expect(page.locator("body")).to_have_class(re.compile(r"\bstore-down\b"))

            fault.free()
            expect(notice).to_be_hidden(timeout=15000)
            expect(page.locator("body")).not_to_have_class(re.compile(r"\bstore-down\b"))
            expect(page.get_by_test_id("hand-tile")).to_have_count(13)
            expect(page.locator(".seat-panel.mine .discards .tile")).to_have_count(1)
            assert page_problems.messages == []
        finally:
            fault.free()
            server.stop()
