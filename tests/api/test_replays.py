"""The replay routes on a live server: finished deals replay and export, deals in play 404.

A room of bots and one absent human plays its deals through the real room manager into
SQLite; each finished deal's export is fed to a real `mahjong-hall replay` process, which must print the stored
result exactly, and the replay JSON must end on that same result.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.rooms.settings import TableSettings
from tests.api.live_server import (
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    get_room,
    invited,
    join,
)

REPLAY = Path(sys.executable).with_name("mahjong-hall")


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server whose bots play at once and whose next deal follows at once."""
    server = LiveServer(
        tmp_path / "hall.sqlite3",
        table_settings=TableSettings(
            bot_delay=0,
            next_deal_seconds=0.05,
            join_grace_seconds=0,
            bot_level="baseline",
            # Its absent human never connects; the deals must still follow one another.
            hold_deals_without_humans=False,
        ),
    ).start()
    yield server
    server.stop()


async def finished_bot_deals(client: httpx.AsyncClient, variant: str, count: int) -> str:
    room_id = await create_room(client, variant)
    # No table is filled with bots alone: a human sits first, and (never connecting) is
    # played by the seat's bot.
    await join(client, room_id, "Ana")
    assert (await add_bots(client, room_id)).status_code == 200
    for _ in range(600):
        results = (await get_room(client, room_id, "/results")).json()
        if len(results["deals"]) >= count:
            return room_id
        await asyncio.sleep(0.05)
    raise AssertionError("the bots did not finish their deals in time")


def run_replay(document: dict[str, Any]) -> dict[str, Any]:
    completed = subprocess.run(
        [str(REPLAY), "replay"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    printed: dict[str, Any] = json.loads(completed.stdout)
    return printed


@pytest.mark.parametrize("variant", ["kaki3", "hk"])
async def test_finished_deals_replay_and_export_to_the_stored_result(
    quick: LiveServer, variant: str
) -> None:
    async with httpx.AsyncClient(base_url=quick.http_url, timeout=20) as client:
        room_id = await finished_bot_deals(client, variant, 2)
        for deal_no in (1, 2):
            path = f"/api/rooms/{room_id}/deals/{deal_no}"
            # A private table's deal needs what watching it needs: a stranger is refused.
            for refused_path in (path, f"{path}/export"):
                refused = await client.get(refused_path)
                assert refused.status_code == 403, refused_path
                assert refused.json()["error"]["code"] == "invite_required"
                assert "hand" not in refused.text and "seed" not in refused.text
            replay = (await client.get(path, params=invited(room_id))).json()
            export = await client.get(replay["export"], params=invited(room_id))
            assert export.status_code == 200
            assert "attachment" in export.headers["content-disposition"]
            document = export.json()
            assert run_replay(document) == document["expect"]
            # The replay ends on the stored result, every hand open from the first step.
            stored = replay["result"]
            assert document["expect"]["scores"] == stored["scores"]
            steps = replay["steps"]
            assert len(steps) == len(document["actions"]) + 1
            assert steps[-1]["view"]["result"] == stored
            assert all("hand" in seat for seat in steps[0]["view"]["players"].values())
            assert all(step["by_bot"] for step in steps[1:] if step["seat"] is not None)
            marks = {mark["kind"] for step in steps for mark in step["marks"]}
            if stored["outcome"] == "win" and not stored["winners"][0]["hand"]["self_drawn"]:
                assert "winning_discard" in marks
            page = await client.get(f"/rooms/{room_id}/deals/{deal_no}")
            assert page.status_code == 200 and "replay" in page.text
        missing = await client.get(f"/api/rooms/{room_id}/deals/999", params=invited(room_id))
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "deal_not_found"


async def test_a_deal_in_play_is_never_viewable(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.http_url, timeout=20) as client:
        room_id = await create_room(client, "kaki3", turn_seconds=600)
        seat = await join(client, room_id, "Ana")
        await add_bots(client, room_id)
        player = await TableClient.open(live.ws_url(room_id, seat["token"]), "Ana")
        try:
            state = await player.receive()
            while state.get("phase") in (None, "waiting"):
                state = await player.receive()
            for path in (
                f"/rooms/{room_id}/deals/1",
                f"/api/rooms/{room_id}/deals/1",
                f"/api/rooms/{room_id}/deals/1/export",
            ):
                answer = await client.get(path, params=invited(room_id))
                assert answer.status_code == 404, path
                assert "hand" not in answer.text and "seed" not in answer.text
        finally:
            await player.close()


async def test_a_stranger_cannot_count_a_private_tables_deals(quick: LiveServer) -> None:
    """Issue 25, point 7: without the right to see the table, every deal number gets the
    same answer, so nobody learns how many deals it has finished."""
    async with httpx.AsyncClient(base_url=quick.http_url, timeout=20) as client:
        room_id = await finished_bot_deals(client, "kaki3", 2)
        answers = {}
        for number in ("1", "2", "99", "0", "abc", "²"):
            for path in (
                f"/api/rooms/{room_id}/deals/{number}",
                f"/api/rooms/{room_id}/deals/{number}/export",
                f"/rooms/{room_id}/deals/{number}",
            ):
                answer = await client.get(path)
                answers[path] = (answer.status_code, answer.content)
        api = {answers[p] for p in answers if p.startswith("/api/") and "export" not in p}
        exports = {answers[p] for p in answers if p.endswith("/export")}
        pages = {answers[p] for p in answers if p.startswith("/rooms/")}
        assert len(api) == 1 and len(exports) == 1 and len(pages) == 1, answers
        status, body = api.pop()
        assert status == 403 and json.loads(body)["error"]["code"] == "invite_required"
        assert exports.pop()[0] == 403
        assert pages.pop()[0] == 200  # the page holds nothing; its script asks with rights

        # With the invite the numbers are told apart, as before.
        seen = await client.get(f"/api/rooms/{room_id}/deals/1", params=invited(room_id))
        assert seen.status_code == 200 and seen.json()["deal_no"] == 1
        missing = await client.get(f"/api/rooms/{room_id}/deals/99", params=invited(room_id))
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "deal_not_found"
        # An unknown room is no secret (docs/protocol.md, "Private tables").
        assert (await client.get("/api/rooms/nosuchroom/deals/1")).status_code == 404
