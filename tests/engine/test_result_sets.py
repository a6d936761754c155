"""The winning hand laid out as sets in the result (`winners[].hand.sets`).

The deals are golden scenario files (tests/scenarios), played through the engine with
the implied passes; the expected layouts are read off each file's hand by eye.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from server.engine import Action, DealSettings, apply, deal_from_wall, pending_seats

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CLAIMS = ("chow", "pong", "kong", "pass")


def winning_hand(name: str) -> dict:
    """Play scenario `name` to its end and return its one winner's `hand`."""
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text())
    settings = DealSettings(scenario["variant"], scenario.get("round_wind", "E"))
    state = deal_from_wall(settings, scenario["hands"], scenario["wall"])
    for raw in scenario["actions"]:
        action = Action.from_json(raw)
        deciding = action.type in CLAIMS or (
            action.type == "win" and action.seat in pending_seats(state)
        )
        while state.phase != "discard" and not deciding:
            state, _ = apply(state, Action("pass", pending_seats(state)[0]))
        state, _ = apply(state, action)
    assert state.result is not None and len(state.result.to_json()["winners"]) == 1
    return state.result.to_json()["winners"][0]["hand"]


def as_sets(*layout: tuple[str, str, str | None]) -> list[dict]:
    return [{"kind": k, "tiles": tiles.split(), "fei_as": fei_as} for k, tiles, fei_as in layout]


def test_sets_then_pair_of_a_plain_hand():
    hand = winning_hand("hk_self_draw_paid_by_each")
    assert hand["sets"] == as_sets(
        ("chow", "1m 2m 3m", None),
        ("chow", "4m 5m 6m", None),
        ("chow", "7m 8m 9m", None),
        ("pong", "2z 2z 2z", None),
        ("pair", "7z 7z", None),
    )


def test_a_fei_in_a_concealed_chow_says_what_it_stands_for():
    hand = winning_hand("kaki3_extra_fei_held_in_hand")
    assert {"kind": "chow", "tiles": ["7p", "j", "9p"], "fei_as": "8p"} in hand["sets"]
    assert hand["sets"][-1] == {"kind": "pair", "tiles": ["7z", "7z"], "fei_as": None}


def test_shown_sets_stay_in_melds_and_are_not_repeated():
    hand = winning_hand("kaki3_chow_with_one_fei_then_win")
    assert [meld["tiles"] for meld in hand["melds"]] == [["1p", "2p", "j"]]
    assert all(s["tiles"] != ["1p", "2p", "j"] for s in hand["sets"])
    assert [s["kind"] for s in hand["sets"]] == ["chow", "chow", "pong", "pair"]


def test_seven_pairs_are_laid_out_as_pairs():
    hand = winning_hand("hk_seven_pairs")
    assert [s["kind"] for s in hand["sets"]] == ["pair"] * 7


@pytest.mark.parametrize(
    "name",
    [
        "hk_self_draw_paid_by_each",
        "hk_seven_pairs",
        "kaki3_extra_fei_held_in_hand",
        "kaki3_chow_with_one_fei_then_win",
        "kaki3_sink_then_win_on_the_replacement",
        "hk_four_concealed_pungs_on_the_pair",
    ],
)
def test_the_sets_hold_exactly_the_concealed_tiles(name):
    hand = winning_hand(name)
    laid = Counter(tile for s in hand["sets"] for tile in s["tiles"])
    assert laid == Counter(hand["concealed"])
