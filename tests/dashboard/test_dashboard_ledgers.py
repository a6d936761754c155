"""Real-table nights on the dashboard, over a real server on SQLite and on Postgres: listed
beside the online games, and joining the standings only once their host chose so.

The online history is the dashboard tests' hand-made one (tests/dashboard/history.py):
Ana 5 deals, -4 points, 1 win (3 fan, self-drawn), dealt in twice, 2 rooms; Bo 3 deals,
+6, 1 win at 4 fan; Cy 3 deals, -2, no win.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.store import open_store
from tests.dashboard.history import load_history, write_history
from tests.ledger.hands import ANIMALS_THREE, ANIMALS_TWO, full_flush
from tests.ledger.ledger_hall import LedgerHall, add, open_ledger, served

ADMIN_TOKEN = "the-dashboards-admin-token"


def with_history(url: str) -> None:
    """The dashboard tests' online history, written into the migrated database."""

    async def fill() -> None:
        store = await open_store(url)
        try:
            await write_history(store, load_history())
        finally:
            await store.close()

    asyncio.run(fill())


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def hall(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LedgerHall]:
    folder = tmp_path_factory.mktemp("nights")
    with served(request.param, folder, with_history, admin_token=ADMIN_TOKEN) as hall:
        yield hall


@pytest.fixture
async def client(hall: LedgerHall) -> AsyncIterator[httpx.AsyncClient]:
    """The dashboard's admin: every ledger is private, so only the admin sees nights."""
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    async with httpx.AsyncClient(base_url=hall.http_url, timeout=20, headers=admin) as http:
        yield http


async def standings(client: httpx.AsyncClient, **query: str) -> dict[str, dict[str, Any]]:
    answer = await client.get("/api/dashboard/standings", params=query)
    assert answer.status_code == 200, answer.text
    return {row["name"]: row for row in answer.json()["players"]}


async def test_nights_are_listed_and_join_the_standings_when_the_host_chooses(
    client: httpx.AsyncClient,
) -> None:
    before = await standings(client)
    narrowed = {"room": "room-a"}, {"variant": "hk"}, {"outcome": "draw"}
    before_narrowed = [await standings(client, **query) for query in narrowed]
    assert (before["Ana"]["points"], before["Ana"]["deals"], before["Ana"]["rooms"]) == (-4, 5, 2)
    night = await open_ledger(client, name="Friday")
    # Bo wins on Ana's discard (5 fan, 8: Ana 8, Cy 4) and deals; Ana self-draws 6 fan (10 each).
    for hand in (full_flush(1, 0, ANIMALS_TWO), full_flush(0, None, ANIMALS_THREE)):
        assert (await add(client, night, hand)).status_code == 201
    apart = await open_ledger(client)
    assert (await add(client, apart, full_flush(0, None, ANIMALS_TWO))).status_code == 201

    listed = (await client.get("/api/dashboard/ledgers")).json()["ledgers"]
    by_id = {entry["ledger_id"]: entry for entry in listed}
    assert by_id[night["ledger_id"]] | {"created_at": 0, "updated_at": 0} == {
        "ledger_id": night["ledger_id"],
        "real_table": True,
        "name": "Friday",
        "variant": "kaki3",
        "players": ["Ana", "Bo", "Cy"],
        "hands": 2,
        "scores": {"Ana": 12, "Bo": 2, "Cy": -14},
        "in_standings": False,
        "created_at": 0,
        "updated_at": 0,
    }
    assert by_id[apart["ledger_id"]]["hands"] == 1
    # Not chosen: the standings are the online games' alone.
    assert await standings(client) == before

    host = {"Authorization": f"Bearer {night['host_token']}"}
    switch = {"in_standings": True, "invite": night["invite"]}
    answer = await client.patch(f"/api/ledgers/{night['ledger_id']}", json=switch, headers=host)
    assert answer.status_code == 200
    after = await standings(client)
    assert after["Ana"] == {
        "name": "Ana",
        "is_bot": False,
        "deals": 7,
        "points": 8,
        "wins": 2,
        "self_draws": 2,
        "dealt_in": 3,
        "rooms": 3,
        "average_winning_fan": 4.5,
    }
    assert (after["Bo"]["points"], after["Bo"]["wins"], after["Bo"]["average_winning_fan"]) == (
        8,
        2,
        4.5,
    )
    assert (after["Cy"]["points"], after["Cy"]["deals"], after["Cy"]["average_winning_fan"]) == (
        -16,
        5,
        None,
    )
    assert list(after)[:2] == ["Dee", "Ana"]  # best points first: Dee 15, Ana 8, Bo 8
    # The exact SQL (a date filter) and the summaries (a player filter) agree.
    assert (await standings(client, since="2000-01-01"))["Ana"] == after["Ana"]
    assert (await standings(client, player="Ana"))["Ana"] == after["Ana"]
    # Filters apply to the nights too: a room names an online table, the night was 3 Kaki,
    # and both its hands were wins.
    assert [await standings(client, **query) for query in narrowed] == before_narrowed
    assert (await standings(client, outcome="win"))["Ana"]["wins"] == 2


async def test_without_the_admin_token_no_night_is_shown(tmp_path: Path) -> None:
    """Every ledger is private: a dashboard with no admin token (a fresh install) lists no
    night and leaves their figures out of the standings, even once the host chose them."""
    with served("sqlite", tmp_path) as hall:
        async with httpx.AsyncClient(base_url=hall.http_url, timeout=20) as stranger:
            night = await open_ledger(stranger, name="Friday", players=["Xu", "Yan", "Zed"])
            assert (await add(stranger, night, full_flush(1, 0, ANIMALS_TWO))).status_code == 201
            host = {"Authorization": f"Bearer {night['host_token']}"}
            switch = {"in_standings": True, "invite": night["invite"]}
            path = f"/api/ledgers/{night['ledger_id']}"
            assert (await stranger.patch(path, json=switch, headers=host)).status_code == 200

            listed = await stranger.get("/api/dashboard/ledgers")
            assert listed.status_code == 200
            assert listed.json() == {"ledgers": []}
            names = {
                row["name"]
                for row in (await stranger.get("/api/dashboard/standings")).json()["players"]
            }
            assert not names & {"Xu", "Yan", "Zed"}
