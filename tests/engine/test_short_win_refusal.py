"""A win below the table's minimum is refused for what it is (issue 25, point 12).

The engine opens no claim window for a win that falls short, so play goes straight on:
the refusal used to name whatever the deal had moved on to ("W has no winning hand to
declare now", "it is E's turn, not S's"). It must say that the hand falls short, with its
fan against the minimum, at both tables, on a discard and on a self-draw.
"""

from __future__ import annotations

import pytest

from server.engine import Action, DealSettings, IllegalActionError, apply, deal_from_wall
from server.engine.deal_state import DealState
from server.engine.rules import TableRules
from server.engine.short_win import short_win
from tests.scenarios.tools.wall import build_wall

# Hong Kong (tests/scenarios/hk_chicken_hand_refused_at_the_seed_minimum.json): West's
# chicken hand waits on 7z; South throws it; nobody may claim it, so West draws.
HK_HANDS = {
    "E": "11m 22m 33m 44m 55m 66m 9p 1z",
    "S": "7z 11s 22s 33s 44s 55s 66s",
    "W": "123p 456p 789s 345m 7z",
    "N": "77s 88s 99s 1s 2p 3p 4m 5m 6m 2z",
}
HK_WALL = (
    "2z 112236777788889999m 111223344455566677778888999p 12233445566789s 11122333344445555666677z"
)

# 3 Kaki: South waits on 7z with 123p 456p 789p 555z and one animal: dragon set 1, half
# flush 1, animal 1 = 3 fan of the 5 the table needs. West throws 7z; East draws next.
KAKI_HANDS = {
    "E": "11p 22p 33p 44p 1z 2z 3z 4z 66z",
    "S": "123p 456p 789p 55z 5z 1a",
    "W": "55p 66p 77p 88p 99p 2z 3z 7z",
}
KAKI_WALL = build_wall("kaki3", KAKI_HANDS, front="4z 3z", back="7z")


def _deal(variant: str, hands: dict[str, str], wall: str, **rules: int) -> DealState:
    table = TableRules.from_json({**TableRules.default(variant).to_json(), **rules}, variant)
    return deal_from_wall(DealSettings(variant=variant, rules=table), hands, wall)


def _play(state: DealState, *moves: tuple[str, str, str | None]) -> DealState:
    for seat, kind, tile in moves:
        state, _ = apply(state, Action(kind, seat, tile=tile))
    return state


def _refusal(state: DealState, seat: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Action("win", seat))
    return refused.value


def test_hk_a_discard_win_short_of_three_fan_says_so():
    state = _play(_deal("hk", HK_HANDS, HK_WALL), ("E", "discard", "9p"), ("S", "discard", "7z"))
    assert state.turn == "W" and state.phase == "discard", "no window: West drew"
    refusal = _refusal(state, "W")
    assert refusal.code == "below_min_fan"
    assert str(refusal) == ("W's hand with 7z from S is worth 0 fan; this table needs 3 to win")
    found = short_win(state, "W")
    assert found is not None and (found.tile, found.discarder, found.fan, found.min_fan) == (
        "7z",
        "S",
        0,
        3,
    )


def test_kaki3_a_discard_win_short_of_five_fan_says_so_on_the_next_players_turn():
    state = _play(
        _deal("kaki3", KAKI_HANDS, KAKI_WALL),
        ("E", "discard", "1z"),
        ("S", "discard", "4z"),
        ("W", "discard", "7z"),
    )
    assert state.turn == "E", "no window: East drew"
    refusal = _refusal(state, "S")
    assert refusal.code == "below_min_fan"
    assert str(refusal) == "S's hand with 7z from W is worth 3 fan; this table needs 5 to win"


def test_the_same_win_at_a_lower_minimum_is_a_win():
    state = _play(
        _deal("kaki3", KAKI_HANDS, KAKI_WALL, min_fan=3),
        ("E", "discard", "1z"),
        ("S", "discard", "4z"),
        ("W", "discard", "7z"),
    )
    assert state.phase == "claim" and Action("win", "S") in state.options["S"]
    assert short_win(state, "S") is None


def test_hk_a_self_drawn_win_short_of_three_fan_says_so():
    # West draws the 7z it waits on: self-drawn (1 fan) and nothing else, at a 3-fan table.
    hands = {**HK_HANDS, "S": "3z 11s 22s 33s 44s 55s 66s"}
    wall = build_wall("hk", hands, front="2z 7z", back="")
    state = _play(_deal("hk", hands, wall), ("E", "discard", "9p"), ("S", "discard", "2z"))
    assert state.turn == "W" and state.players["W"].drawn == "7z", state.players["W"]
    refusal = _refusal(state, "W")
    assert refusal.code == "below_min_fan"
    assert str(refusal) == "W's hand with 7z drawn is worth 1 fan; this table needs 3 to win"


def test_a_win_with_no_hand_at_all_keeps_its_own_reason():
    state = _play(_deal("hk", HK_HANDS, HK_WALL), ("E", "discard", "9p"))
    refusal = _refusal(state, "N")
    assert refusal.code != "below_min_fan"
    assert short_win(state, "N") is None
