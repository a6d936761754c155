"""The ``easy`` level: weaker than the baseline, reproducible, and always legal."""

from __future__ import annotations

import json

import pytest

from server.bots import LEVELS, choose_action
from server.bots.simulation import level_strength, mixed_levels, simulate
from server.cli.main import main
from server.engine import apply, legal_actions, new_deal, pending_seats, view
from server.engine.deal_state import DealSettings


def test_levels_are_listed_weakest_first():
    assert LEVELS == ("easy", "baseline", "full")
    assert mixed_levels("kaki3") == ["easy", "baseline", "full"]
    assert mixed_levels("hk") == ["easy", "baseline", "full", "baseline"]


def test_easy_is_weaker_than_the_baseline_over_a_fixed_sample():
    # 300 deals of 3 Kaki, one easy bot against two baselines, players rotating seats.
    summary = simulate("kaki3", 300, 4242, ["easy", "baseline", "baseline"]).summary()
    easy, *baselines = summary["players"]
    assert easy["level"] == "easy"
    assert easy["wins"] < min(b["wins"] for b in baselines)
    assert easy["net_points"] < min(b["net_points"] for b in baselines)
    assert easy["net_points"] < 0


def test_easy_is_weaker_than_the_baseline_at_hong_kong_too():
    # Hong Kong deals are often drawn (3 fan to win), so the sample is smaller in wins.
    summary = simulate("hk", 80, 99, ["easy", "baseline", "baseline", "baseline"]).summary()
    easy, *baselines = summary["players"]
    assert easy["wins"] < sum(b["wins"] for b in baselines) / len(baselines)
    assert easy["net_points"] < sum(b["net_points"] for b in baselines) / len(baselines)


def _play(variant: str, seed: str, level: str) -> tuple[list[object], int, int]:
    """Every action of one deal with `level` at every seat, and how often the easy
    choice differed from what a baseline bot would have chosen at the same decision."""
    state = new_deal(DealSettings(variant), seed)
    actions: list[object] = []
    differs = decisions = 0
    while not state.is_over:
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        seat_view = view(state, seat)
        action = choose_action(seat_view, legal, level)
        assert action in legal
        if len(legal) > 1:
            decisions += 1
            differs += action != choose_action(seat_view, legal, "baseline")
        actions.append(action)
        state, _ = apply(state, action)
    return actions, differs, decisions


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_easy_slips_sometimes_and_the_same_way_every_time(variant):
    differs = decisions = 0
    for number in range(4):
        first, slips, choices = _play(variant, f"easy:{number}", "easy")
        second, _, _ = _play(variant, f"easy:{number}", "easy")
        assert first == second  # the slips follow from the deal alone
        differs += slips
        decisions += choices
    assert 0.05 * decisions < differs < 0.6 * decisions


def test_compare_levels_prints_a_strength_ordering(capsys: pytest.CaptureFixture[str]):
    argv = ["simulate", "--variant", "kaki3", "--deals", "30", "--seed", "5"]
    assert main([*argv, "--compare-levels", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    strength = summary["strength"]
    assert {row["level"] for row in strength} == set(LEVELS)
    nets = [row["net_points_per_player_deal"] for row in strength]
    assert nets == sorted(nets, reverse=True)
    assert strength == level_strength(summary)
    assert main([*argv, "--compare-levels"]) == 0
    assert "strength, strongest first:" in capsys.readouterr().out


def test_simulate_takes_house_rules(capsys: pytest.CaptureFixture[str]):
    argv = ["simulate", "--variant", "hk", "--deals", "3", "--seed", "2", "--json"]
    assert main([*argv, "--rules", '{"min_fan": 0, "fan_cap": 13}']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rules"]["min_fan"] == 0
    assert main([*argv, "--rules", '{"min_fan": 7}']) == 2
    assert "rules.min_fan" in capsys.readouterr().err
    assert main([*argv, "--rules", "{"]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main([*argv, "--compare-levels", "--levels", "full"]) == 2
    assert "--compare-levels" in capsys.readouterr().err
