"""Bots read the table's house rules from the seat's view, never from a copy of their own."""

from __future__ import annotations

from server.bots.seat_view import read_view
from server.engine import Game, view
from server.engine.rules import TableRules


def test_the_bot_reads_the_minimum_fan_from_the_views_rules():
    for variant, obj, expected in (("hk", {"min_fan": 1}, 1), ("kaki3", {"min_fan": 3}, 3)):
        rules = TableRules.from_json(obj, variant)
        state = Game(variant, 5, rules=rules).start_deal()
        seat_view = read_view(view(state, "E"))
        assert seat_view.min_fan == expected
        assert seat_view.rules == rules


def test_a_view_without_rules_means_the_seed_rules():
    state = Game("kaki3", 5).start_deal()
    shown = view(state, "S")
    del shown["rules"]
    assert read_view(shown).min_fan == 5
