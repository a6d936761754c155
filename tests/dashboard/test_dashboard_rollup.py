"""The in-memory rollup answers exactly as the SQL queries do, and catches up with deals
that finish after it was loaded."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from server.dashboard import charts, operations, standings
from server.dashboard.filters import DealFilters
from server.dashboard.rollup import HistoryRollup
from server.store import Store, apply_migrations, open_store
from tests.dashboard.history import load_history, write_history
from tests.pg import drop_database, postgres_url_or_skip

pytestmark = pytest.mark.postgres

FILTERS = [
    DealFilters(),
    DealFilters(variant="hk"),
    DealFilters(variant="kaki3"),
    DealFilters(room_id="room-a"),
    DealFilters(player="Ana"),
    DealFilters(player="Bo", variant="hk"),
    DealFilters(since=datetime(2026, 11, 2, tzinfo=UTC)),
    DealFilters(until=datetime(2026, 11, 2, tzinfo=UTC)),
    DealFilters(player="Ana", since=datetime(2026, 11, 3, tzinfo=UTC)),
    DealFilters(player="Nobody"),
]


@pytest.mark.parametrize("filters", FILTERS, ids=repr)
async def test_rollup_matches_sql(history_store: Store, filters: DealFilters) -> None:
    rollup = HistoryRollup()
    await rollup.refresh(history_store.engine)
    assert HistoryRollup.can_answer(filters)
    async with history_store.engine.connect() as conn:
        for include_bots in (False, True):
            assert rollup.standings(filters, include_bots, 100) == await standings.standings(
                conn, filters, include_bots, 100
            )
        assert rollup.charts(filters) == await charts.charts(conn, filters)
        assert rollup.bot_cover(filters) == await operations.bot_cover(conn, filters)
        limited = await operations.deal_limit_endings(conn, filters)
        assert rollup.timeout_count(filters) == limited["count"]


def test_times_of_day_and_outcomes_go_to_sql() -> None:
    assert HistoryRollup.can_answer(DealFilters(since=datetime(2026, 11, 2, tzinfo=UTC)))
    assert not HistoryRollup.can_answer(DealFilters(since=datetime(2026, 11, 2, 9, 30, tzinfo=UTC)))
    assert not HistoryRollup.can_answer(DealFilters(outcome="win"))


@pytest.fixture
def fresh_database() -> Iterator[str]:
    url = postgres_url_or_skip()
    apply_migrations(url)
    yield url
    drop_database(url)


async def test_rollup_catches_up_with_deals_finished_after_loading(fresh_database: str) -> None:
    store = await open_store(fresh_database)
    try:
        history = load_history()
        ids = await write_history(store, history)
        rollup = HistoryRollup()
        await rollup.refresh(store.engine)
        ana_before = rollup.standings(DealFilters(player="Ana"), False, 10)["players"][0]
        assert rollup.charts(DealFilters())["outcomes"]["win"] == 3

        # d6 was in progress when the rollup loaded; a new deal starts after that. Both
        # must count once they finish: neither is lost because its id was already seen.
        started = datetime(2026, 11, 5, 20, 0, tzinfo=UTC)
        open_deal = ids["d6"]
        later_deal = await store.start_deal(
            "room-b", 1, 4, "kaki3", {}, 8, {"E": 1, "S": 2, "W": 0}, started, 300.0
        )
        await rollup.refresh(store.engine)
        assert rollup.charts(DealFilters())["outcomes"] == {"win": 3, "draw": 1, "timeout": 1}
        draw = {
            "outcome": "draw",
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
        }
        await store.finish_deal(
            later_deal, draw, started + timedelta(minutes=1), {0: 0, 1: 0, 2: 0}
        )
        result = {
            "outcome": "win",
            "winners": [
                {
                    "seat": "E",
                    "fan": 5,
                    "limit": False,
                    "points": 8,
                    "patterns": [{"id": "no_bonus", "fan": 5}],
                    "hand": {"self_drawn": True, "from": None},
                }
            ],
            "payments": [
                {"from": "S", "to": "E", "points": 8, "reason": "win"},
                {"from": "W", "to": "E", "points": 8, "reason": "win"},
            ],
            "scores": {"E": 16, "S": -8, "W": -8},
        }
        await store.finish_deal(
            open_deal, result, started + timedelta(minutes=2), {0: 16, 1: -8, 2: -8}
        )
        await rollup.refresh(store.engine)
        ana_after = rollup.standings(DealFilters(player="Ana"), False, 10)["players"][0]
        assert ana_after["points"] == ana_before["points"] + 16
        assert (ana_after["wins"], ana_after["self_draws"]) == (ana_before["wins"] + 1, 2)
        assert rollup.charts(DealFilters())["outcomes"] == {"win": 4, "draw": 2, "timeout": 1}
        # d6's bot-covered turn (Ana timed out once) counts now that it is over.
        assert {"name": "Ana", "timed_out": 3, "disconnected": 0} in rollup.bot_cover(DealFilters())
        async with store.engine.connect() as conn:
            assert rollup.standings(DealFilters(), True, 100) == await standings.standings(
                conn, DealFilters(), True, 100
            )
        # Refreshing again counts nothing twice.
        await rollup.refresh(store.engine)
        assert rollup.charts(DealFilters())["outcomes"]["win"] == 4
    finally:
        await store.close()
