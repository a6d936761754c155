"""Deals: the append-only log, finishing a deal, running scores, rebuilding open rooms, results."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from server.store import (
    DealFinishedError,
    DuplicateRecordError,
    Store,
    UnknownDealError,
    UnknownRoomError,
    hash_token,
)
from server.store.schema import deal_players, deals

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SEATS = {"E": 0, "S": 1, "W": 2, "N": 3}
NAMES = ["Ana", "Bo", "Cy", "Bot 3"]
RESULTS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "results.json").read_text()
)


async def seat_four(store: Store, room_id: str = "r1") -> None:
    """A 4-player Hong Kong room: three people and one bot."""
    await store.create_room(room_id, "hk", {"turn_seconds": 40, "deal_seconds": 300}, T0)
    for index, name in enumerate(NAMES):
        is_bot = name.startswith("Bot")
        token_hash = None if is_bot else hash_token(f"token-{name}")
        await store.add_player(room_id, index, name, token_hash, is_bot, T0)


async def start(store: Store, room_id: str = "r1", deal_no: int = 1, seats=SEATS) -> int:
    return await store.start_deal(
        room_id, 1, deal_no, "hk", {"variant": "hk"}, 1000 + deal_no, seats, T0, 300.0
    )


def discard(tile: str) -> dict[str, Any]:
    return {"type": "discard", "tile": tile}


def nets(result: dict[str, Any], seats: dict[str, int] = SEATS) -> dict[int, int]:
    """Each player's net for the deal, as the rooms pass it to finish_deal."""
    return {seats[seat]: net for seat, net in result["scores"].items()}


async def test_log_comes_back_exact_and_in_seq_order(store: Store) -> None:
    await seat_four(store)
    deal_id = await start(store)
    # Logged out of order on purpose: the log is ordered by seq, not by arrival.
    for seq in [2, 0, 1, 3]:
        await store.append_action(
            deal_id,
            seq,
            "ESWN"[seq],
            {"type": "chow", "tiles": ["3p", "4p", "5p"], "seq_was": seq},
            T0 + timedelta(seconds=seq),
            by_bot=seq == 1,
            bot_reason="timeout" if seq == 1 else None,
            deal_seconds_left=300.0 - seq,
        )
    [room] = await store.load_open_rooms()
    deal = room.open_deal
    assert deal is not None and deal.deal_id == deal_id
    assert [a.seq for a in deal.actions] == [0, 1, 2, 3]
    assert [a.seat for a in deal.actions] == ["E", "S", "W", "N"]
    assert deal.actions[1].action == {"type": "chow", "tiles": ["3p", "4p", "5p"], "seq_was": 1}
    assert [a.by_bot for a in deal.actions] == [False, True, False, False]
    assert [a.bot_reason for a in deal.actions] == [None, "timeout", None, None]
    assert deal.actions[3].at == T0 + timedelta(seconds=3)
    # The deal timer at the last action *by seq*.
    assert deal.deal_seconds_left == 297.0


async def test_timeout_action_with_no_seat_is_logged(store: Store) -> None:
    await seat_four(store)
    deal_id = await start(store)
    await store.append_action(deal_id, 0, None, {"type": "timeout"}, T0, False, None, 0.0)
    [room] = await store.load_open_rooms()
    assert room.open_deal is not None
    assert room.open_deal.actions[0].seat is None
    assert room.open_deal.deal_seconds_left == 0.0


async def test_a_logged_seq_is_never_overwritten(store: Store) -> None:
    await seat_four(store)
    deal_id = await start(store)
    await store.append_action(deal_id, 0, "E", discard("5p"), T0, False, None, 300.0)
    with pytest.raises(DuplicateRecordError, match="seq 0"):
        await store.append_action(deal_id, 0, "E", discard("9s"), T0, False, None, 299.0)
    assert await store.count_actions(deal_id) == 1
    [room] = await store.load_open_rooms()
    assert room.open_deal is not None
    assert room.open_deal.actions[0].action == discard("5p")


async def test_append_to_unknown_deal_is_refused(store: Store) -> None:
    with pytest.raises(UnknownDealError):
        await store.append_action(999, 0, "E", discard("5p"), T0, False, None, None)


async def test_start_deal_refuses_unknown_room_duplicate_deal_and_huge_seed(store: Store) -> None:
    with pytest.raises(UnknownRoomError):
        await start(store, room_id="nope")
    await seat_four(store)
    await start(store)
    with pytest.raises(DuplicateRecordError):
        await start(store)
    with pytest.raises(ValueError, match="seed"):
        await store.start_deal("r1", 1, 2, "hk", {}, 2**64, SEATS, T0, None)
    [room] = await store.load_open_rooms()
    assert room.open_deal is not None and room.open_deal.deal_no == 1


async def test_large_seed_and_settings_round_trip(store: Store) -> None:
    await seat_four(store)
    settings = {"variant": "hk", "round_wind": "S", "dealer_player": 2, "nested": {"x": [1, 2]}}
    deal_id = await store.start_deal(
        "r1", 2, 5, "hk", settings, 2**63 - 1, {"E": 2, "S": 3, "W": 0, "N": 1}, T0, None
    )
    [room] = await store.load_open_rooms()
    deal = room.open_deal
    assert deal is not None
    assert (deal.deal_id, deal.game_no, deal.deal_no, deal.variant) == (deal_id, 2, 5, "hk")
    assert deal.seed == 2**63 - 1
    assert deal.settings == settings
    assert deal.seat_players == {"E": 2, "S": 3, "W": 0, "N": 1}
    assert deal.started_at == T0
    assert deal.deal_seconds_left is None
    assert deal.actions == []


async def test_finish_deal_stores_outcome_rows_and_running_scores(store: Store) -> None:
    await seat_four(store)
    result = RESULTS["discard_win"]
    deal_id = await start(store)
    await store.finish_deal(deal_id, result, T0 + timedelta(minutes=5), nets(result))

    async with store.engine.connect() as conn:
        deal = (await conn.execute(select(deals).where(deals.c.deal_id == deal_id))).one()
        rows = {
            row.seat: row
            for row in await conn.execute(
                select(deal_players).where(deal_players.c.deal_id == deal_id)
            )
        }
    assert deal.outcome == "win"
    assert deal.fan == 6
    assert deal.winners == result["winners"]
    assert deal.payments == result["payments"]
    assert [p["id"] for p in deal.patterns] == ["dragon_set", "all_pongs", "half_flush"]
    assert {p["seat"] for p in deal.patterns} == {"S"}
    assert deal.ended_at == T0 + timedelta(minutes=5)

    assert {seat: row.net_points for seat, row in rows.items()} == result["scores"]
    assert {seat: row.player_name for seat, row in rows.items()} == dict(
        zip("ESWN", NAMES, strict=True)
    )
    assert [seat for seat, row in rows.items() if row.won] == ["S"]
    assert [seat for seat, row in rows.items() if row.dealt_in] == ["E"]
    assert not any(row.self_drawn for row in rows.values())
    assert [seat for seat, row in rows.items() if row.is_bot] == ["N"]
    assert {row.variant for row in rows.values()} == {"hk"}

    [room] = await store.load_open_rooms()
    assert room.scores == {0: -8, 1: 10, 2: 0, 3: -2}
    assert room.deals_played == 1
    assert room.open_deal is None


async def test_running_scores_add_up_over_deals_with_rotating_seats(store: Store) -> None:
    await seat_four(store)
    first = await start(store, deal_no=1)
    await store.finish_deal(first, RESULTS["discard_win"], T0, nets(RESULTS["discard_win"]))
    rotated = {"E": 1, "S": 2, "W": 3, "N": 0}
    second = await start(store, deal_no=2, seats=rotated)
    result = RESULTS["self_drawn_win"]
    await store.finish_deal(second, result, T0, nets(result, rotated))
    third = await start(store, deal_no=3)
    await store.finish_deal(third, RESULTS["draw"], T0, nets(RESULTS["draw"]))

    [room] = await store.load_open_rooms()
    # Deal 1: E=Ana -8, S=Bo +10, N=Bot -2. Deal 2: E=Bo -8, S=Cy -4, W=Bot +16, N=Ana -4.
    assert room.scores == {0: -12, 1: 2, 2: -4, 3: 14}
    assert room.deals_played == 3
    async with store.engine.connect() as conn:
        drawn = list(
            await conn.execute(select(deal_players).where(deal_players.c.deal_id == second))
        )
    assert [(r.seat, r.self_drawn, r.dealt_in) for r in drawn if r.won] == [("W", True, False)]
    assert not any(r.dealt_in for r in drawn)


async def test_finish_deal_is_all_or_nothing(store: Store) -> None:
    await seat_four(store)
    deal_id = await start(store)
    result = RESULTS["discard_win"]
    # Player 7 is not in the room: the whole finish must be refused.
    with pytest.raises(ValueError, match="not in the room"):
        await store.finish_deal(deal_id, result, T0, {**nets(result), 7: 5})
    with pytest.raises(ValueError, match="outcome"):
        await store.finish_deal(deal_id, {"scores": {"E": 5}}, T0, {0: 5})
    # A score that is not a number fails last, after the deal row and the per-player rows
    # were written inside the transaction: they must be rolled back too.
    with pytest.raises(ValueError):
        await store.finish_deal(deal_id, result, T0, {**nets(result), 3: "lots"})

    [room] = await store.load_open_rooms()
    assert room.scores == {0: 0, 1: 0, 2: 0, 3: 0}
    assert room.deals_played == 0
    assert room.open_deal is not None and room.open_deal.deal_id == deal_id
    async with store.engine.connect() as conn:
        assert list(await conn.execute(select(deal_players))) == []
    # And the deal can still be finished properly afterwards.
    await store.finish_deal(deal_id, result, T0, nets(result))
    assert (await store.room_results("r1"))["scores"]["Bo"] == 10


async def test_finish_deal_twice_or_unknown_is_refused(store: Store) -> None:
    await seat_four(store)
    deal_id = await start(store)
    result = RESULTS["discard_win"]
    await store.finish_deal(deal_id, result, T0, nets(result))
    with pytest.raises(DealFinishedError):
        await store.finish_deal(deal_id, result, T0, nets(result))
    with pytest.raises(UnknownDealError):
        await store.finish_deal(deal_id + 100, result, T0, nets(result))
    [room] = await store.load_open_rooms()
    assert room.scores[1] == 10  # counted once


async def test_load_open_rooms_returns_only_the_unfinished_deal(store: Store) -> None:
    await seat_four(store)
    finished = await start(store, deal_no=1)
    for seq in range(3):
        await store.append_action(finished, seq, "E", discard("1p"), T0, False, None, 250.0)
    await store.finish_deal(finished, RESULTS["draw"], T0, nets(RESULTS["draw"]))
    unfinished = await start(store, deal_no=2)
    for seq in range(2):
        await store.append_action(unfinished, seq, "S", discard("2p"), T0, False, None, 120.5)

    [room] = await store.load_open_rooms()
    assert room.open_deal is not None
    assert room.open_deal.deal_id == unfinished
    assert [a.seq for a in room.open_deal.actions] == [0, 1]
    assert {a.action["tile"] for a in room.open_deal.actions} == {"2p"}
    assert room.open_deal.deal_seconds_left == 120.5


async def test_load_open_rooms_skips_finished_and_closed_rooms(store: Store) -> None:
    for room_id, status in [("a", "waiting"), ("b", "playing"), ("c", "finished"), ("d", "closed")]:
        await seat_four(store, room_id)
        if status != "waiting":
            await store.set_room_status(room_id, status)
    rooms = await store.load_open_rooms()
    assert [(r.room_id, r.status) for r in rooms] == [("a", "waiting"), ("b", "playing")]
    assert [p.name for p in rooms[0].players] == NAMES
    assert rooms[0].players[0].token_hash == hash_token("token-Ana")
    assert rooms[0].players[3].token_hash is None and rooms[0].players[3].is_bot
    assert rooms[0].settings == {"turn_seconds": 40, "deal_seconds": 300}
    assert all(r.open_deal is None and r.deals_played == 0 for r in rooms)


async def test_room_results_shape(store: Store) -> None:
    assert await store.room_results("nope") is None
    await seat_four(store)
    assert await store.room_results("r1") == {
        "scores": {"Ana": 0, "Bo": 0, "Cy": 0, "Bot 3": 0},
        "deals": [],
    }
    first = await start(store, deal_no=1)
    await store.finish_deal(
        first, RESULTS["discard_win"], T0 + timedelta(minutes=4), nets(RESULTS["discard_win"])
    )
    await start(store, deal_no=2)  # in progress: not a result yet

    results = await store.room_results("r1")
    assert results is not None
    assert results["scores"] == {"Ana": -8, "Bo": 10, "Cy": 0, "Bot 3": -2}
    [deal] = results["deals"]
    assert deal["deal_no"] == 1 and deal["outcome"] == "win" and deal["fan"] == 6
    assert deal["winners"] == RESULTS["discard_win"]["winners"]
    assert deal["payments"] == RESULTS["discard_win"]["payments"]
    assert deal["patterns"][0] == {"seat": "S", "id": "dragon_set", "fan": 1}
    assert deal["players"] == {"E": "Ana", "S": "Bo", "W": "Cy", "N": "Bot 3"}
    assert deal["started_at"] == T0.isoformat()
    assert deal["ended_at"] == (T0 + timedelta(minutes=4)).isoformat()
    assert "seed" not in deal
    json.dumps(results)  # it goes straight out as an HTTP response


async def test_room_results_keep_players_with_the_same_name_apart(store: Store) -> None:
    await store.create_room("r1", "kaki3", {}, T0)
    for index in range(3):
        await store.add_player("r1", index, "Sam", None, False, T0)
    results = await store.room_results("r1")
    assert results is not None
    assert sorted(results["scores"]) == ["Sam #0", "Sam #1", "Sam #2"]
