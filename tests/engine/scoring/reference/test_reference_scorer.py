"""The reference scorer against the engine's scorer, on thousands of random hands.

The hands come from `hand_maker.random_hand`, its random choices drawn by hypothesis (so a
failure shrinks, and prints the hand's JSON). Any difference in validity, fan, limit,
points or pattern ids fails: one of the two scorers is wrong, and the case belongs in
`golden/found_by_reference.jsonl` once the wrong one is fixed.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from server.engine.tiles import parse_tiles
from tests.engine.scoring.reference import fan_lists, scorer
from tests.engine.scoring.reference.compare import disagreement, engine_result, hand_for
from tests.engine.scoring.reference.fan_lists import HK_FAN, HK_LIMITS, KAKI3_FAN, KAKI3_LIMITS
from tests.engine.scoring.reference.hand_maker import random_hand
from tests.engine.scoring.reference.reading import Hand
from tests.engine.scoring.reference.scorer import reference_score
from tests.engine.scoring.reference.splits import concealed_splits

GOLDEN = Path(__file__).parent.parent / "golden"
FOUND = Path(__file__).parent / "golden"

HANDS_PER_TABLE = 2000


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
@settings(
    max_examples=HANDS_PER_TABLE,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(rng=st.randoms(use_true_random=False))
def test_the_reference_and_the_engine_agree(variant: str, rng: random.Random) -> None:
    hand = random_hand(rng, variant)
    note(json.dumps(hand))
    problem = disagreement(hand)
    assert problem is None, problem


def _golden_cases() -> list[Any]:
    cases = []
    for path in sorted(GOLDEN.glob("*.jsonl")) + sorted(FOUND.glob("*.jsonl")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            # The reference scores by the seeds' rules only: hands scored under house
            # rules (an input with "rules") are the engine's own golden data.
            if line.strip() and "rules" not in json.loads(line)["input"]:
                cases.append(pytest.param(json.loads(line), id=f"{path.name}:{number}"))
    return cases


def _patterns(result: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((p["id"], p["fan"]) for p in result["patterns"]))


@pytest.mark.parametrize("case", _golden_cases())
def test_the_reference_scores_every_golden_hand(case: dict[str, Any]) -> None:
    expected = case["expected"]
    result = reference_score(case["input"])
    assert (result.valid, result.fan, result.limit, result.points) == (
        expected["valid"],
        expected["fan"],
        expected["limit"],
        expected["points"],
    ), case["comment"]
    assert _patterns(expected) in (result.pattern_choices or {()}), case["comment"]


@pytest.mark.parametrize("case", [c for c in _golden_cases() if "found_by" in c.id])
def test_the_engine_scores_every_case_the_reference_found(case: Any) -> None:
    result = engine_result(case["input"])
    expected = case["expected"]
    assert {k: result[k] for k in ("valid", "fan", "limit", "points")} == {
        k: expected[k] for k in ("valid", "fan", "limit", "points")
    }, case["comment"]
    assert _patterns(result) == _patterns(expected), case["comment"]


def _split_texts(tiles: str) -> set[frozenset[str]]:
    """Each split as a set of groups, written as held '=' what they stand for."""
    return {
        frozenset(f"{''.join(g.held)}={''.join(g.stands)}" for g in split)
        for split in concealed_splits(parse_tiles(tiles))
    }


def _splits_of(*splits: str) -> set[frozenset[str]]:
    return {frozenset(split.split()) for split in splits}


def test_a_chow_fei_stands_below_inside_or_above_its_real_tiles() -> None:
    assert _split_texts("5p6p j 99p") == _splits_of(
        "5p6pj=5p6p7p 9p9p=9p9p",
        "j5p6p=4p5p6p 9p9p=9p9p",
    )
    assert _split_texts("4p j 6p 11z") == _splits_of("4pj6p=4p5p6p 1z1z=1z1z")


def test_two_fei_make_an_eye_a_pong_keeps_a_real_tile_and_a_chow_holds_one_fei() -> None:
    assert _split_texts("7z j j") == set()
    assert _split_texts("7zjj jj") == _splits_of("7zjj=7z7z7z jj=jj")
    assert _split_texts("3p jj 11z") == _splits_of(
        "3pjj=3p3p3p 1z1z=1z1z",
        "1z1zj=1z1z1z 3pj=3p3p",
    )
    # 1p j j: a pong of 1p with two Fei, never a chow with two Fei.
    assert _split_texts("1p jj 55z") == _splits_of(
        "1pjj=1p1p1p 5z5z=5z5z",
        "5z5zj=5z5z5z 1pj=1p1p",
    )


def test_a_reading_with_a_fifth_copy_of_an_honour_scores_no_honour_pattern() -> None:
    # Four White and a Fei: every reading has a White eye beside a White set, so there is
    # no Little Dragons; each dragon set still scores its own fan.
    hand = {
        "variant": "kaki3",
        "seat": "S",
        "concealed": "555z 5z j 777z 123p 456p",
        "bonus": "1a 2a 3a",
        "winning_tile": "1p",
    }
    result = reference_score(hand)
    assert (result.valid, result.fan, result.limit, result.points) == (True, 6, False, 10)
    expected = (("animal", 1),) * 3 + (("dragon_set", 1),) * 2 + (("half_flush", 1),)
    assert result.pattern_choices == {expected}


SWEEP_HANDS = 6000


def test_a_seeded_sweep_agrees_and_reaches_every_pattern_and_hard_place() -> None:
    # The same comparison on hands from seeded `random.Random`s (hand_maker's own odds),
    # checking that those odds reach every pattern id of both tables and the hard places.
    seen: Counter[str] = Counter()
    for number in range(SWEEP_HANDS):
        hand = hand_for("sweep", number)
        problem = disagreement(hand)
        assert problem is None, problem
        concealed = parse_tiles(hand["concealed"])
        melds = hand.get("melds", [])
        bonus = parse_tiles(hand.get("bonus", ""))
        shown = [tile for meld in melds for tile in parse_tiles(meld["tiles"])]
        fei = concealed.count("j") + shown.count("j") + bonus.count("j")
        honours = sum(1 for tile in concealed + shown if tile.endswith("z"))
        seen["several fei"] += fei >= 2
        seen["four fei"] += fei == 4
        seen["fei in a shown set"] += "j" in shown
        seen["sunk fei"] += "j" in bonus
        seen["fei winning tile"] += hand["winning_tile"] == "j"
        seen["kong"] += any(meld["kind"] == "kong" for meld in melds)
        seen["concealed kong"] += any(meld.get("concealed") for meld in melds)
        seen["honour heavy"] += honours >= 9
        seen["no bonus tiles"] += hand["variant"] == "kaki3" and not bonus
        for flag, value in hand["win"].items():
            seen[f"{flag}={value}"] += 1
        result = reference_score(hand)
        for choice in result.pattern_choices:
            seen.update({f"{hand['variant']}:{pattern}" for pattern, _ in choice})
        seen["limit"] += result.limit
        seen["valid"] += result.valid
        seen["not valid"] += not result.valid
        seen["fifth honour copy"] += _has_fifth_honour_copy(concealed + shown)
    wanted = [
        "several fei",
        "four fei",
        "fei in a shown set",
        "sunk fei",
        "fei winning tile",
        "kong",
        "concealed kong",
        "honour heavy",
        "no bonus tiles",
        "self_drawn=True",
        "replacement=bonus",
        "replacement=kong",
        "kong_upon_kong=True",
        "robbing_kong=True",
        "last_tile=True",
        "last_discard=True",
        "heavenly=True",
        "earthly=True",
        "limit",
        "valid",
        "not valid",
        "fifth honour copy",
    ]
    assert {name: seen[name] for name in wanted if seen[name] < 20} == {}
    every_id = [f"kaki3:{pattern}" for pattern in (*KAKI3_FAN, *KAKI3_LIMITS)]
    every_id += [f"hk:{pattern}" for pattern in (*HK_FAN, *HK_LIMITS)]
    assert [pattern for pattern in every_id if not seen[pattern]] == []


def _has_fifth_honour_copy(tiles: list[str]) -> bool:
    """Four real copies of an honour and a Fei beside them (a fifth copy is possible)."""
    counts = Counter(tiles)
    return counts["j"] > 0 and any(t.endswith("z") and n == 4 for t, n in counts.items())


def _first_disagreement(limit: int) -> int | None:
    for number in range(limit):
        if disagreement(hand_for("sweep", number)) is not None:
            return number
    return None


@pytest.mark.parametrize(
    "mistake",
    [
        "little dragons worth 2",
        "a fifth copy makes honour patterns",
        "a replacement win is not self-drawn",
        "a sunk Fei is no bonus tile",
        "kang kang hu on the eye",
    ],
)
def test_the_comparison_catches_a_wrong_scorer(
    mistake: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each mistake is one a scorer could plausibly make; the sweep's hands must expose it.
    if mistake == "little dragons worth 2":
        monkeypatch.setitem(fan_lists.KAKI3_FAN, "little_dragons", 2)
    elif mistake == "a fifth copy makes honour patterns":
        monkeypatch.setattr(fan_lists, "_honour_tiles_distinct", lambda reading: True)
    elif mistake == "a replacement win is not self-drawn":
        monkeypatch.setattr(
            fan_lists, "_hk_self_drawn", lambda hand: hand.self_drawn and not hand.robbing_kong
        )
    elif mistake == "a sunk Fei is no bonus tile":
        real_from_json = Hand.from_json

        def without_sunk_fei(obj: dict[str, Any]) -> Hand:
            hand = real_from_json(obj)
            if hand.bonus and all(tile == "j" for tile in hand.bonus):
                return dataclasses.replace(hand, bonus=())
            return hand

        monkeypatch.setattr(Hand, "from_json", staticmethod(without_sunk_fei))
    else:
        real_tally = fan_lists.kaki3_tally

        def eye_counts(hand: Hand, reading: fan_lists.Reading) -> fan_lists.Tally:
            if reading.winning_group.kind == "eye":
                pong = next((g for g in reading.sets if g.origin == "hand"), reading.eye)
                reading = reading._replace(winning_group=pong)
            return real_tally(hand, reading)

        monkeypatch.setattr(fan_lists, "kaki3_tally", eye_counts)
        monkeypatch.setattr(scorer, "kaki3_tally", eye_counts)
    assert _first_disagreement(SWEEP_HANDS) is not None
