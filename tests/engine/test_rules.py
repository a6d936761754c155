"""House rules (`TableRules`): the defaults are the seed's table, strict JSON, the points
schedules, and their effect on a deal's win legality and payments."""

from __future__ import annotations

import json

import pytest

from server.engine import DealSettings, Game, deal_from_wall, legal_actions
from server.engine.deal_result import Payment
from server.engine.errors import EngineError
from server.engine.rules import RulesError, TableRules
from server.engine.settlement import Win, hk_win_payments
from server.engine.variants import get_variant
from tests.scenarios.tools.wall import build_wall

HK = get_variant("hk")


def test_the_defaults_are_the_seed_tables():
    hk, kaki3 = TableRules.default("hk"), TableRules.default("kaki3")
    assert (hk.min_fan, hk.fan_cap, hk.points, hk.win_payment) == (3, 8, "seed", "seed")
    assert (kaki3.min_fan, kaki3.fan_cap, kaki3.points, kaki3.win_payment) == (
        5,
        10,
        "seed",
        "seed",
    )
    assert hk.time_bank_seconds == kaki3.time_bank_seconds == 0
    assert hk.points_table() == {3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64}
    assert kaki3.points_table() == {5: 8, 6: 10, 7: 12, 8: 14, 9: 16, 10: 24}
    assert hk.is_default and kaki3.is_default
    assert DealSettings("hk").table_rules == hk


def test_the_points_tables_of_every_option():
    half = TableRules.from_json({"points": "half", "fan_cap": 13, "min_fan": 0}, "hk")
    assert half.points_table() == {
        0: 1, 1: 1, 2: 2, 3: 4, 4: 8, 5: 12, 6: 16,
        7: 24, 8: 32, 9: 48, 10: 64, 11: 96, 12: 128, 13: 192,
    }  # fmt: skip
    full = TableRules.from_json({"fan_cap": 13, "min_fan": 0}, "hk")
    assert full.points_table() == {
        0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 24, 6: 32,
        7: 48, 8: 64, 9: 96, 10: 128, 11: 192, 12: 256, 13: 384,
    }  # fmt: skip
    low = TableRules.from_json({"min_fan": 3, "fan_cap": 8}, "kaki3")
    assert low.points_table() == {3: 4, 4: 6, 5: 8, 6: 10, 7: 12, 8: 24}
    assert low.win_points(8, limit=False) == low.win_points(3, limit=True) == 24
    assert low.win_points(2, limit=False) == 0


def test_json_round_trip_and_partial_objects():
    rules = TableRules.from_json(
        {
            "variant": "hk",
            "min_fan": 1,
            "fan_cap": 10,
            "points": "half",
            "win_payment": "everyone_full",
            "time_bank_seconds": 30,
        }
    )
    assert TableRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert TableRules.from_json({}, "kaki3") == TableRules.default("kaki3")
    assert TableRules.from_json({"min_fan": 4}, "kaki3").fan_cap == 10


@pytest.mark.parametrize(
    ("obj", "variant", "field"),
    [
        ({"min_fan": 4}, "hk", "rules.min_fan"),
        ({"min_fan": 2}, "kaki3", "rules.min_fan"),
        ({"min_fan": "3"}, "hk", "rules.min_fan"),
        ({"min_fan": True}, "hk", "rules.min_fan"),
        ({"min_fan": 3.0}, "hk", "rules.min_fan"),
        ({"fan_cap": 9}, "hk", "rules.fan_cap"),
        ({"fan_cap": 13}, "kaki3", "rules.fan_cap"),
        ({"points": "double"}, "hk", "rules.points"),
        ({"points": "half"}, "kaki3", "rules.points"),
        ({"win_payment": "everyone_full"}, "kaki3", "rules.win_payment"),
        ({"win_payment": None}, "hk", "rules.win_payment"),
        ({"time_bank_seconds": -1}, "hk", "rules.time_bank_seconds"),
        ({"time_bank_seconds": 301}, "hk", "rules.time_bank_seconds"),
        ({"time_bank_seconds": 1.5}, "hk", "rules.time_bank_seconds"),
        ({"cap": 10}, "hk", "rules.cap"),
        ({"variant": "riichi"}, None, "rules.variant"),
        ({"variant": "kaki3"}, "hk", "rules.variant"),
        ({}, None, "rules.variant"),
        ([], "hk", "rules"),
    ],
)
def test_bad_rules_name_the_field(obj, variant, field):
    with pytest.raises(RulesError) as caught:
        TableRules.from_json(obj, variant)
    assert str(caught.value).startswith(field)


def test_rules_of_another_table_are_refused():
    with pytest.raises(EngineError, match="rules of the kaki3 table"):
        DealSettings("hk", rules=TableRules.default("kaki3"))
    with pytest.raises(EngineError, match="rules of the hk table"):
        Game("kaki3", 1, rules=TableRules.default("hk"))


def test_everyone_full_makes_every_loser_pay_a_discard_win():
    rules = TableRules.from_json({"win_payment": "everyone_full"}, "hk")
    paid = hk_win_payments(HK, Win("W", 16, "S"), rules)
    assert [(p.payer, p.points) for p in paid] == [("S", 16), ("E", 16), ("N", 16)]
    assert hk_win_payments(HK, Win("W", 16, "S")) == [Payment("S", "W", 16, "win")]
    self_drawn = hk_win_payments(HK, Win("W", 16, None), rules)
    assert self_drawn == hk_win_payments(HK, Win("W", 16, None))


def test_a_game_deals_under_its_rules():
    rules = TableRules.from_json({"min_fan": 1, "time_bank_seconds": 20}, "hk")
    game = Game("hk", 3, rules=rules)
    assert game.start_deal().settings.rules == rules
    assert game.settings().table_rules.time_bank_seconds == 20


# West holds a hand with no fan at all, waiting on 7z that South throws (the scenario
# hk_house_min_fan_zero_chicken_hand_wins builds the same deal as a file).
CHICKEN = {
    "E": "11m 22m 33m 44m 55m 66m 9p 1z",
    "S": "7z 11s 22s 33s 44s 55s 66s",
    "W": "123p 456p 789s 345m 7z",
    "N": "77s 88s 99s 1s 2p 3p 4m 5m 6m 2z",
}


@pytest.mark.parametrize(("min_fan", "may_win"), [(0, True), (1, False), (3, False)])
def test_the_minimum_fan_decides_whether_a_win_is_offered(fixed, min_fan, may_win):
    rules = TableRules.from_json({"min_fan": min_fan}, "hk")
    settings = DealSettings("hk", rules=rules)
    state = deal_from_wall(settings, CHICKEN, build_wall("hk", CHICKEN, front="2z", back=""))
    state = fixed.play(state, "E", "discard", tile="9p")
    state = fixed.play(state, "S", "discard", tile="7z")
    offered = [action.type for action in legal_actions(state, "W")]
    assert ("win" in offered) == may_win
