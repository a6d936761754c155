"""Golden hands: each line of golden/*.jsonl is a `mahjong-hall score` input, the output
worked out by hand from docs/rules.md and docs/scoring.md, and a comment naming the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.cli.score import hand_from_json, rules_from_json
from server.engine.scoring import score_hand

GOLDEN = Path(__file__).parent / "golden"


def _cases(name: str) -> list[Any]:
    lines = (GOLDEN / name).read_text().splitlines()
    return [
        pytest.param(json.loads(line), id=f"{name}:{number}")
        for number, line in enumerate(lines, 1)
        if line.strip()
    ]


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    # Pattern order is presentation only; compare them as a multiset.
    return {
        "valid": result["valid"],
        "fan": result["fan"],
        "limit": result["limit"],
        "patterns": sorted((p["id"], p["fan"]) for p in result["patterns"]),
        "points": result["points"],
    }


@pytest.mark.parametrize(
    "case", _cases("hk.jsonl") + _cases("kaki3.jsonl") + _cases("house_rules.jsonl")
)
def test_golden_hand(case: dict[str, Any]) -> None:
    # house_rules.jsonl gives each hand a "rules" object (docs/rules.md, "House rules").
    hand = hand_from_json(case["input"])
    result = score_hand(hand, rules_from_json(case["input"])).to_json()
    assert _comparable(result) == _comparable(case["expected"]), case["comment"]
    assert ("reason" in result) == (not result["valid"])


def test_golden_files_are_big_enough() -> None:
    assert len(_cases("hk.jsonl")) >= 45
    assert len(_cases("kaki3.jsonl")) >= 65
    assert len(_cases("house_rules.jsonl")) >= 30


def test_every_house_rule_option_that_changes_a_score_has_a_golden_hand() -> None:
    seen = set()
    for param in _cases("house_rules.jsonl"):
        case = param.values[0]
        for name, value in case["input"]["rules"].items():
            seen.add((case["input"]["variant"], name, value))
    wanted = {("hk", "min_fan", fan) for fan in (0, 1, 2, 3)}
    wanted |= {("hk", "fan_cap", cap) for cap in (10, 13)} | {("hk", "points", "half")}
    wanted |= {("kaki3", "min_fan", fan) for fan in (3, 4)}
    wanted |= {("kaki3", "fan_cap", cap) for cap in (8, 10)}
    assert wanted <= seen


@pytest.mark.parametrize("name", ["hk.jsonl", "kaki3.jsonl", "house_rules.jsonl"])
def test_every_golden_hand_has_a_comment(name: str) -> None:
    for case in _cases(name):
        assert case.values[0]["comment"].strip()
