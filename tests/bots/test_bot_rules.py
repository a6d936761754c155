"""Bots plan for the table's house rules, given beside the view (not a copy of their own)."""

from __future__ import annotations

import pytest

from server.bots import choose_action
from server.bots.seat_view import read_view
from server.engine import Game, legal_actions, view
from server.engine.rules import TableRules


def test_the_bot_reads_the_minimum_fan_from_the_tables_rules():
    for variant, obj, expected in (("hk", {"min_fan": 1}, 1), ("kaki3", {"min_fan": 3}, 3)):
        rules = TableRules.from_json(obj, variant)
        state = Game(variant, 5, rules=rules).start_deal()
        seat_view = read_view(view(state, "E"), state.settings.rules)
        assert seat_view.min_fan == expected
        assert seat_view.rules == rules


def test_no_rules_means_the_seed_rules():
    state = Game("kaki3", 5).start_deal()
    assert read_view(view(state, "S")).min_fan == 5


def test_rules_of_another_table_are_refused():
    state = Game("hk", 5).start_deal()
    legal = legal_actions(state, "E")
    with pytest.raises(ValueError, match="rules of the kaki3 table"):
        choose_action(view(state, "E"), legal, "full", TableRules.default("kaki3"))
