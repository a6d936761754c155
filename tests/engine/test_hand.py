"""Examples of hand analysis, each worked out by hand."""

from __future__ import annotations

import pytest

from server.engine.errors import HandError
from server.engine.hand import Decomposition, HandSet, decompositions, is_complete, shanten, waits
from server.engine.tiles import parse_tiles


def tiles(text: str) -> list[str]:
    return parse_tiles(text)


def test_111222333_44_has_three_readings():
    found = decompositions(tiles("111222333m 44m"), "hk")
    readings = sorted((d.eye, tuple(s.tiles for s in d.sets)) for d in found)
    assert readings == [
        ("1m", (("1m", "2m", "3m"), ("2m", "3m", "4m"), ("2m", "3m", "4m"))),
        ("4m", (("1m", "1m", "1m"), ("2m", "2m", "2m"), ("3m", "3m", "3m"))),
        ("4m", (("1m", "2m", "3m"), ("1m", "2m", "3m"), ("1m", "2m", "3m"))),
    ]


def test_two_fei_never_make_a_chow():
    found = decompositions(tiles("5p j j 2p 2p"), "kaki3")
    assert set(found) == {
        Decomposition((HandSet("pong", ("5p", "5p", "5p"), (1, 2)),), "2p", 0),
        Decomposition((HandSet("pong", ("2p", "2p", "2p"), (2,)),), "5p", 1),
    }


def test_two_fei_alone_are_an_eye_that_stands_for_any_tile():
    assert decompositions(["j", "j"], "kaki3") == [Decomposition((), "j", 2)]


def test_a_set_keeps_a_real_tile():
    # jjj could only be a set of Fei alone; 1z + Fei is the eye, and nothing is left for jj.
    assert decompositions(tiles("jjj 1z 2z"), "kaki3") != []
    assert all(s.fei_count < 3 for d in decompositions(tiles("jjj 1z 2z"), "kaki3") for s in d.sets)
    assert not is_complete(tiles("123p jjj 4z 5z 6z"), "kaki3")


def test_fei_in_a_chow_can_stand_below_the_lowest_real_tile():
    found = decompositions(tiles("j 5p 6p 11z"), "kaki3")
    runs = {d.sets[0].tiles for d in found}
    assert runs == {("4p", "5p", "6p"), ("5p", "6p", "7p")}


def test_hk_special_shapes_are_complete_only_at_hk():
    seven_pairs = tiles("11p 33p 55p 77p 99p 11z 22z")
    assert is_complete(seven_pairs, "hk")
    assert not is_complete(seven_pairs, "kaki3")
    assert decompositions(seven_pairs, "hk") == []
    assert is_complete(tiles("19m 19p 19s 1234567z 9s"), "hk")


def test_wrong_tile_counts_are_never_complete():
    assert is_complete(tiles("123m 456m 789m 11z"), "hk")  # 11 tiles: one set is shown
    assert not is_complete(tiles("123m 456m 789m 111z"), "hk")
    assert decompositions(tiles("123m 456m 789m 111z"), "hk") == []


@pytest.mark.parametrize(
    ("hand", "variant", "expected"),
    [
        ("19m 19p 19s 1234567z", "hk", 0),  # thirteen orphans, thirteen-sided wait
        ("123m 456p 789s 1122z", "hk", 0),
        ("147m 147p 147s 1234z", "hk", 6),  # seven kinds of orphans: 13 - 7
        ("123m 456p 789s 1122z 3z", "hk", 0),  # 14 tiles: throw 3z and be ready
        ("1m", "hk", 0),
        ("j", "kaki3", 0),
        ("jjjj 1p", "kaki3", -1),
        ("jjjj", "kaki3", 0),
        ("123p 456p 789p 1z 2z 3z 4z", "kaki3", 2),
        ("123p 456p 789p 1z j 3z 4z", "kaki3", 1),
        ("111p 222p 3p", "kaki3", 0),  # two sets shown
    ],
)
def test_shanten_examples(hand, variant, expected):
    assert shanten(tiles(hand), variant) == expected


def test_waits_of_nine_gates():
    assert waits(tiles("1112345678999p"), "kaki3") == [f"{r}p" for r in range(1, 10)] + ["j"]
    assert waits(tiles("1112345678999m"), "hk") == [f"{r}m" for r in range(1, 10)]


def test_a_fifth_copy_is_never_a_wait():
    hand = tiles("1111m 234p 567p 789s")
    assert waits(hand, "hk") == []


def test_waits_of_a_hand_of_the_wrong_size_are_empty():
    assert waits(tiles("123m 456m 789m 11z"), "hk") == []


@pytest.mark.parametrize(
    ("hand", "variant"),
    [
        ("123m 1f", "hk"),
        ("123m j", "hk"),
        ("1m 23p", "kaki3"),
        ("11111p", "kaki3"),
        ("jjjjj", "kaki3"),
    ],
)
def test_impossible_hands_raise(hand, variant):
    with pytest.raises(HandError):
        shanten(tiles(hand), variant)


def test_unknown_variant_raises():
    with pytest.raises(HandError):
        is_complete(tiles("11m"), "riichi")
