"""ScoreResult.sets: the best reading's concealed tiles laid out as held and as read."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.melds import Meld
from server.engine.scoring import score_hand
from server.engine.scoring.types import WinningHand
from server.engine.tiles import FEI, parse_tiles
from tests.engine.scoring.hand_strategies import complete_hands


def hand(variant: str, concealed: str, winning: str, **fields) -> WinningHand:
    return WinningHand(
        variant=variant,
        seat_wind=fields.pop("seat", "S"),
        concealed=tuple(parse_tiles(concealed)),
        winning_tile=winning,
        **fields,
    )


def laid_out(result) -> list[tuple[str, str, str]]:
    return [(s.kind, " ".join(s.tiles), " ".join(s.stands_for)) for s in result.sets]


def test_hong_kong_standard_hand() -> None:
    result = score_hand(hand("hk", "123m 456m 789m 111z 55z", "9m"))
    assert laid_out(result) == [
        ("chow", "1m 2m 3m", "1m 2m 3m"),
        ("chow", "4m 5m 6m", "4m 5m 6m"),
        ("chow", "7m 8m 9m", "7m 8m 9m"),
        ("pong", "1z 1z 1z", "1z 1z 1z"),
        ("pair", "5z 5z", "5z 5z"),
    ]
    assert result.to_json()["sets"][4] == {
        "kind": "pair",
        "tiles": ["5z", "5z"],
        "stands_for": ["5z", "5z"],
    }


def test_best_reading_is_laid_out_not_the_first() -> None:
    # 111 222 333m reads as three pongs (all pungs with the 999s pong) rather than chows.
    result = score_hand(hand("hk", "111m 222m 333m 999s 55z", "5z", seat="E"))
    assert [s.kind for s in result.sets] == ["pong", "pong", "pong", "pong", "pair"]


def test_shown_sets_are_not_repeated() -> None:
    melds = (Meld("pong", ("7z", "7z", "7z")),)
    result = score_hand(hand("hk", "123m 456m 789m 55z", "9m", melds=melds))
    assert [s.kind for s in result.sets] == ["chow", "chow", "chow", "pair"]


def test_seven_pairs_and_thirteen_orphans() -> None:
    pairs = score_hand(hand("hk", "11m 22m 33p 44p 55s 55s 77z", "7z"))
    assert [s.kind for s in pairs.sets] == ["pair"] * 7
    assert [s.tiles for s in pairs.sets].count(("5s", "5s")) == 2
    orphans = score_hand(hand("hk", "19m 19p 19s 1234567z 1z", "1z"))
    assert laid_out(orphans) == [
        (
            "orphans",
            "1m 9m 1p 9p 1s 9s 1z 1z 2z 3z 4z 5z 6z 7z",
            "1m 9m 1p 9p 1s 9s 1z 1z 2z 3z 4z 5z 6z 7z",
        )
    ]


def test_fei_are_written_as_held_and_resolved_in_stands_for() -> None:
    result = score_hand(hand("kaki3", "111p j 3p 555p j j 777z 9p", "j"))
    assert result.valid
    assert laid_out(result) == [
        ("pong", "1p 1p 1p", "1p 1p 1p"),
        ("pong", "5p 5p 5p", "5p 5p 5p"),
        ("pong", "9p j j", "9p 9p 9p"),
        ("pong", "7z 7z 7z", "7z 7z 7z"),
        ("pair", "3p j", "3p 3p"),
    ]


def test_a_two_fei_eye_stands_for_the_tile_chosen() -> None:
    result = score_hand(hand("kaki3", "111z 555z 666z 777z j j", "j", seat="E"))
    eye = result.sets[-1]
    assert eye.kind == "pair" and eye.tiles == (FEI, FEI)
    assert eye.stands_for[0] == eye.stands_for[1] != FEI
    assert [s.kind for s in result.sets] == ["pong"] * 4 + ["pair"]


def test_no_winning_shape_has_no_sets() -> None:
    result = score_hand(hand("hk", "123m 456m 789m 11z 25z", "9m"))
    assert not result.valid and result.sets == () and result.to_json()["sets"] == []


@settings(max_examples=60, deadline=None)
@given(data=st.data(), variant=st.sampled_from(["hk", "kaki3"]))
def test_sets_hold_exactly_the_concealed_tiles(data, variant) -> None:
    tiles = data.draw(complete_hands(variant))
    if tiles.count(FEI) > 4:
        return
    result = score_hand(WinningHand(variant, "S", tuple(tiles), tiles[0], bonus=()))
    assert result.sets, "a complete hand has a best reading"
    held = [tile for reading_set in result.sets for tile in reading_set.tiles]
    assert Counter(held) == Counter(tiles)
    for reading_set in result.sets:
        assert FEI not in reading_set.stands_for
        for tile, meant in zip(reading_set.tiles, reading_set.stands_for, strict=True):
            assert tile in (FEI, meant)
        if reading_set.kind in ("pong", "pair"):
            assert len(set(reading_set.stands_for)) == 1


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_sets_do_not_change_the_score(variant) -> None:
    concealed = "123p 456p 789p 777z 55z"
    result = score_hand(hand(variant, concealed, "9p"))
    assert result.to_json()["fan"] == result.fan and len(result.sets) == 5
