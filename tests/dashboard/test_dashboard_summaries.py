"""The summary tables that ``finish_deal`` maintains equal a recomputation from scratch:
their answers match the exact SQL over the stored deals, and migration 0002's backfill
writes exactly the rows the deal-by-deal upkeep wrote. On SQLite and Postgres."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from server.dashboard import charts, operations, standings, summaries
from server.dashboard.charts import DURATION_BUCKETS
from server.dashboard.filters import DealFilters
from server.store import Store, apply_migrations, downgrade_migrations, open_store
from server.store.figures import DURATION_UPPER_BOUNDS, duration_bucket
from server.store.schema import chart_counts, player_totals
from tests.dashboard.history import load_history, write_history
from tests.pg import drop_database, postgres_url_or_skip

SUMMARY_FILTERS = [
    DealFilters(),
    DealFilters(variant="hk"),
    DealFilters(variant="kaki3"),
    DealFilters(player="Ana"),
    DealFilters(player="Bo", variant="hk"),
    DealFilters(player="Nobody"),
    DealFilters(player="Bot 1"),
    DealFilters(player="Eve", variant="kaki3"),
]


def test_duration_buckets_share_their_bounds() -> None:
    assert tuple(upper for _, _, upper in DURATION_BUCKETS if upper) == DURATION_UPPER_BOUNDS
    assert [label for label, _, _ in DURATION_BUCKETS] == [
        "< 1 min",
        "1-2 min",
        "2-3 min",
        "3-4 min",
        "4-5 min",
        "5 min +",
    ]
    assert [duration_bucket(s) for s in (0, 59.9, 60, 299, 300, 4000)] == [0, 0, 1, 4, 5, 5]


def test_only_variant_and_player_filters_use_the_summaries() -> None:
    assert summaries.answered_by_summaries(DealFilters(variant="hk", player="Ana"))
    assert not summaries.answered_by_summaries(DealFilters(room_id="room-a"))
    assert not summaries.answered_by_summaries(DealFilters(outcome="win"))
    assert not summaries.answered_by_summaries(DealFilters(since=datetime(2026, 11, 2, tzinfo=UTC)))


async def assert_summaries_match_sql(store: Store) -> None:
    """Every answer the summaries give equals the exact SQL over the stored deals."""
    async with store.engine.connect() as conn:
        for filters in SUMMARY_FILTERS:
            for include_bots in (False, True):
                assert await summaries.standings(
                    conn, filters, include_bots, 100
                ) == await standings.standings(conn, filters, include_bots, 100), filters
            assert await summaries.bot_cover(conn, filters) == await operations.bot_cover(
                conn, filters
            )
            assert await summaries.charts(conn, filters) == await charts.charts(conn, filters)
            limited = await operations.deal_limit_endings(conn, filters)
            assert await summaries.timeout_count(conn, filters) == limited["count"]


async def test_summaries_of_the_history_match_sql(history_store: Store) -> None:
    await assert_summaries_match_sql(history_store)


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind, at the newest schema."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'summaries.sqlite3'}"
        apply_migrations(url)
        yield url
        return
    url = postgres_url_or_skip()
    apply_migrations(url)
    yield url
    drop_database(url)


async def finish_more_deals(store: Store) -> None:
    """A series of deals after the history: a new room, a player's second room, a limit
    hand with two patterns of one id, a draw, and a long deal."""
    started = datetime(2026, 11, 6, 9, 0, tzinfo=UTC)
    await store.create_room("room-c", "hk", {}, started)
    for index, name in enumerate(["Ana", "Eve", "Bot 2", "Cy"]):
        await store.add_player("room-c", index, name, None, name.startswith("Bot"), started)
    seats = {"E": 0, "S": 1, "W": 2, "N": 3}
    win = {
        "outcome": "win",
        "winners": [
            {
                "seat": "S",
                "fan": 7,
                "limit": False,
                "points": 48,
                "patterns": [{"id": "dragon_set", "fan": 1}, {"id": "dragon_set", "fan": 1}],
                "hand": {"self_drawn": False, "from": "E"},
            }
        ],
        "payments": [{"from": "E", "to": "S", "points": 48, "reason": "win"}],
        "scores": {"E": -48, "S": 48, "W": 0, "N": 0},
    }
    draw = {"outcome": "draw", "winners": [], "payments": [], "scores": {}}
    for deal_no, (result, minutes) in enumerate([(win, 2), (draw, 7), (win, 1)], start=1):
        begun = started + timedelta(hours=deal_no)
        deal_id = await store.start_deal(
            "room-c", 1, deal_no, "hk", {}, deal_no, seats, begun, 300.0
        )
        await store.append_action(
            deal_id, 1, "E", {"type": "discard"}, begun, True, "timeout", 300.0
        )
        await store.append_action(
            deal_id, 2, "S", {"type": "discard"}, begun, True, "disconnected", 299.0
        )
        nets = {seats[seat]: points for seat, points in result["scores"].items()}
        await store.finish_deal(deal_id, result, begun + timedelta(minutes=minutes), nets)


async def summary_rows(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Both summary tables' rows, in key order."""
    async with store.engine.connect() as conn:
        players = (await conn.execute(select(player_totals).order_by(*player_totals.c))).all()
        counts = (await conn.execute(select(chart_counts).order_by(*chart_counts.c))).all()
    return [tuple(row) for row in players], [tuple(row) for row in counts]


async def test_upkeep_equals_recomputation_and_backfill(empty_database: str) -> None:
    store = await open_store(empty_database)
    try:
        await write_history(store, load_history())
        await finish_more_deals(store)
        await assert_summaries_match_sql(store)
        kept = await summary_rows(store)
        assert kept[0] and kept[1]
    finally:
        await store.close()

    # Back to the schema before the summaries, and up again: the migration recomputes
    # them from the stored rows with INSERT ... SELECT.
    downgrade_migrations(empty_database, "0001")
    apply_migrations(empty_database)
    store = await open_store(empty_database)
    try:
        assert await summary_rows(store) == kept
        await assert_summaries_match_sql(store)
    finally:
        await store.close()


PATTERN_IDS = ("dragon_set", "seat_wind_set", "half_flush", "all_pungs", "self_draw", "flower")


def random_result(rng: random.Random, seats: list[str]) -> dict[str, object]:
    """An engine-shaped result: a draw, a timeout, or one or two winners (two only on
    a discard) with fan, repeated patterns, the discarder, and scores that sum to 0."""
    outcome = rng.choice(["win", "win", "win", "draw", "timeout"])
    if outcome != "win":
        return {"outcome": outcome, "winners": [], "payments": [], "scores": {}}
    self_drawn = rng.random() < 0.3
    count = 1 if self_drawn or rng.random() < 0.8 else 2
    winners = rng.sample(seats, count)
    shooter = rng.choice([seat for seat in seats if seat not in winners])
    scores = dict.fromkeys(seats, 0)
    listed = []
    for seat in winners:
        fan = rng.randint(3, 10)
        points = fan * 8
        payers = [s for s in seats if s not in winners] if self_drawn else [shooter]
        for payer in payers:
            scores[payer] -= points
            scores[seat] += points
        listed.append(
            {
                "seat": seat,
                "fan": fan,
                "limit": fan >= 8,
                "points": points,
                "patterns": [{"id": rng.choice(PATTERN_IDS), "fan": 1} for _ in range(3)],
                "hand": {"self_drawn": self_drawn, "from": None if self_drawn else shooter},
            }
        )
    return {"outcome": "win", "winners": listed, "payments": [], "scores": scores}


async def finish_random_deals(store: Store, rng: random.Random, deals: int) -> None:
    """`deals` random deals over four rooms of both tables, through the store's own API,
    with shared names across rooms, bots, logged bot cover and durations either side of
    every bucket bound."""
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Bot 1", "Bot 2"]
    started = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)
    rooms = []
    for number, variant in enumerate(["hk", "kaki3", "hk", "kaki3"]):
        room_id = f"random-{number}"
        seats = ["E", "S", "W", "N"] if variant == "hk" else ["E", "S", "W"]
        await store.create_room(room_id, variant, {}, started)
        for index, name in enumerate(rng.sample(names, len(seats))):
            await store.add_player(room_id, index, name, None, name.startswith("Bot"), started)
        rooms.append((room_id, variant, seats))
    for deal_no in range(1, deals + 1):
        room_id, variant, seats = rng.choice(rooms)
        order = rng.sample(range(len(seats)), len(seats))  # the seats move with the deal
        seat_players = dict(zip(seats, order, strict=True))
        begun = started + timedelta(minutes=10 * deal_no)
        deal_id = await store.start_deal(
            room_id, 1, deal_no, variant, {}, deal_no, seat_players, begun, 300.0
        )
        for seq in range(1, rng.randint(1, 6)):
            reason = rng.choice(["timeout", "disconnected", "bot_seat", None])
            await store.append_action(
                deal_id,
                seq,
                rng.choice(seats),
                {"type": "discard"},
                begun,
                reason is not None,
                reason,
                300.0,
            )
        result = random_result(rng, seats)
        scores = result["scores"]
        assert isinstance(scores, dict)
        nets = {seat_players[seat]: points for seat, points in scores.items()}
        seconds = rng.choice([rng.uniform(1, 400), float(rng.choice(DURATION_UPPER_BOUNDS))])
        await store.finish_deal(deal_id, result, begun + timedelta(seconds=seconds), nets)


async def test_many_random_deals_upkeep_equals_sql_and_backfill(empty_database: str) -> None:
    rng = random.Random(20261201)
    store = await open_store(empty_database)
    try:
        await finish_random_deals(store, rng, 150)
        await assert_summaries_match_sql(store)
        async with store.engine.connect() as conn:
            every = await summaries.charts(conn, DealFilters())
        assert sum(every["outcomes"].values()) == 150
        assert sum(bucket["count"] for bucket in every["durations"]) == 150
        kept = await summary_rows(store)
    finally:
        await store.close()
    downgrade_migrations(empty_database, "0001")
    apply_migrations(empty_database)
    store = await open_store(empty_database)
    try:
        assert await summary_rows(store) == kept
    finally:
        await store.close()
