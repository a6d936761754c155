"""score_hand's contract beyond the golden hands: validation, win points, table limits,
the settlement helpers of 3 Kaki, and properties over random complete hands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.errors import EngineError, HandError
from server.engine.melds import Meld
from server.engine.rules import FAN_CAP_CHOICES, MIN_FAN_CHOICES, POINTS_CHOICES, TableRules
from server.engine.scoring import FAN_CAP, MIN_FAN, score_hand, win_points
from server.engine.scoring.kaki3 import complete_families, honour_set_fan, scoring_bonus_count
from server.engine.scoring.shape import NO_HONOUR_PATTERNS, HonourPatterns, honour_patterns
from server.engine.scoring.types import WinFlags, WinningHand
from server.engine.tiles import parse_tiles
from tests.engine.scoring.hand_strategies import complete_hands


def hand(variant: str, concealed: str, winning: str, **fields) -> WinningHand:
    return WinningHand(
        variant=variant,
        seat_wind=fields.pop("seat", "S"),
        concealed=tuple(parse_tiles(concealed)),
        winning_tile=winning,
        **fields,
    )


def test_tables():
    assert MIN_FAN == {"hk": 3, "kaki3": 5}
    assert FAN_CAP == {"hk": 8, "kaki3": 10}


@pytest.mark.parametrize(
    ("variant", "fan", "limit", "points"),
    [
        ("hk", 2, False, 0),
        ("hk", 3, False, 8),
        ("hk", 4, False, 16),
        ("hk", 5, False, 24),
        ("hk", 6, False, 32),
        ("hk", 7, False, 48),
        ("hk", 8, False, 64),
        ("hk", 11, False, 64),
        ("hk", 8, True, 64),
        ("kaki3", 4, False, 0),
        ("kaki3", 5, False, 8),
        ("kaki3", 6, False, 10),
        ("kaki3", 7, False, 12),
        ("kaki3", 8, False, 14),
        ("kaki3", 9, False, 16),
        ("kaki3", 10, False, 24),
        ("kaki3", 10, True, 24),
    ],
)
def test_win_points(variant, fan, limit, points):
    assert win_points(variant, fan, limit) == points


@pytest.mark.parametrize(
    "bad",
    [
        dict(concealed="123m 456p 789s 555z 99m", winning="1p"),  # winning tile not in hand
        dict(concealed="11111m 456p 789s 55z 9m", winning="9m"),  # five of a tile
        dict(
            concealed="123m 456p 789s 55z", winning="5z", melds=(Meld("pong", ("5z", "5z", "5z")),)
        ),  # 5z x5
        dict(
            concealed="123m 456p 789s 55z", winning="5z", melds=(Meld("chow", ("1m", "3m", "4m")),)
        ),
        dict(
            concealed="123m 456p 789s 55z",
            winning="5z",
            melds=(Meld("pong", ("1m", "1m", "1m"), concealed=True),),
        ),
        dict(concealed="123m 456p 789s 55z 1f", winning="5z"),  # bonus tile in the hand
        dict(
            concealed="123m 456p 789s 555z 99m", winning="9m", bonus=("1f",)
        ),  # no bonus tiles at hk
        dict(concealed="123m 456p 789s 555z 99m", winning="9m", seat="X"),
    ],
)
def test_impossible_hk_hands_raise(bad):
    fields = dict(bad)
    with pytest.raises(HandError):
        score_hand(hand("hk", fields.pop("concealed"), fields.pop("winning"), **fields))


@pytest.mark.parametrize(
    "melds",
    [
        (Meld("pong", ("5p", "j", "j")),),  # a shown set with two Fei
        (Meld("kong", ("5p", "5p", "5p", "j")),),  # a kong never holds a Fei
        (Meld("chow", ("4p", "j", "6p"), fei_as="7p"),),  # not a run
        (Meld("chow", ("4p", "5p", "j")),),  # ambiguous: 3p or 6p, fei_as needed
    ],
)
def test_impossible_kaki3_sets_raise(melds):
    with pytest.raises(HandError):
        score_hand(hand("kaki3", "123p 456p 789p 11z", "1z", melds=melds, bonus=("1f",)))


def test_five_fei_counting_sunk_ones_raise():
    with pytest.raises(HandError):
        score_hand(hand("kaki3", "jjj 1p 123p 456p 789p 11z", "1z", bonus=("j", "j")))


def test_kaki3_has_no_north_seat_and_only_an_east_round():
    with pytest.raises(HandError):
        score_hand(hand("kaki3", "123p 456p 789p 234p 11z", "1z", seat="N", bonus=("1f",)))
    with pytest.raises(HandError):
        score_hand(hand("kaki3", "123p 456p 789p 234p 11z", "1z", round_wind="S", bonus=("1f",)))


def test_hand_error_is_an_engine_error():
    assert issubclass(HandError, EngineError)


def test_not_winning_results_carry_a_reason_and_no_points():
    result = score_hand(hand("hk", "123m 456p 789s 1357z 9m", "9m"))
    assert (result.valid, result.fan, result.points) == (False, 0, 0)
    assert result.reason


def test_a_shown_chow_with_one_possible_fei_tile_needs_no_fei_as():
    result = score_hand(
        hand(
            "kaki3",
            "555z 123p 789p 22p",
            "2p",
            melds=(Meld("chow", ("3p", "j", "5p")),),
            bonus=("1a", "2a", "3a"),
        )
    )
    assert result.valid and result.fan == 5


def test_scoring_bonus_count_counts_what_scores_for_the_seat():
    bonus = parse_tiles("1f 2f 4n 1a 3c 3n j")
    assert scoring_bonus_count("S", bonus) == 5  # 2f own, 4n, 1a, 3c, the sunk Fei; not 1f, 3n
    assert scoring_bonus_count("E", bonus) == 5  # 1f own, 4n, 1a, 3c, the sunk Fei
    assert scoring_bonus_count("W", bonus) == 5  # 3n own, 4n, 1a, 3c, the sunk Fei
    assert scoring_bonus_count("S", parse_tiles("j j 1f")) == 2  # each sunk Fei scores 1
    assert scoring_bonus_count("S", []) == 0


def test_complete_families():
    assert complete_families(parse_tiles("1234f 123n 1234c")) == ["flowers", "faces"]
    assert complete_families(parse_tiles("1234n 1234a j")) == ["seasons", "animals"]
    assert complete_families([]) == []


def test_honour_set_fan():
    east = Meld("pong", ("1z", "1z", "1z"))
    assert honour_set_fan("E", [east]) == 2  # the East set, and the dealer's seat wind
    assert honour_set_fan("S", [east]) == 1
    assert honour_set_fan("S", [Meld("pong", ("2z", "2z", "2z"))]) == 1
    assert honour_set_fan("W", [Meld("pong", ("2z", "2z", "2z"))]) == 0
    assert honour_set_fan("W", [Meld("kong", ("4z",) * 4, concealed=True)]) == 1
    assert (
        honour_set_fan("S", [Meld("pong", ("7z", "j", "7z")), Meld("chow", ("1p", "2p", "3p"))])
        == 1
    )
    assert honour_set_fan("S", [Meld("pong", ("5p", "5p", "5p"))]) == 0


@settings(max_examples=150, deadline=None)
@given(data=st.data(), variant=st.sampled_from(["hk", "kaki3"]))
def test_every_built_hand_scores_within_the_table_limits(data, variant):
    tiles = data.draw(complete_hands(variant))
    winning = data.draw(st.sampled_from(tiles))
    seat = data.draw(st.sampled_from(["E", "S", "W"]))
    bonus = (
        tuple(data.draw(st.lists(st.sampled_from(["1f", "2n", "3a", "4c"]), unique=True)))
        if variant == "kaki3"
        else ()
    )
    if variant == "kaki3" and tiles.count("j") + 0 > 4:
        return
    result = score_hand(
        WinningHand(
            variant,
            seat,
            tuple(tiles),
            winning,
            bonus=bonus,
            flags=WinFlags(self_drawn=data.draw(st.booleans())),
        )
    )
    assert 0 <= result.fan <= FAN_CAP[variant]
    assert result.valid == (result.fan >= MIN_FAN[variant])
    assert result.points == (win_points(variant, result.fan, result.limit) if result.valid else 0)
    if result.limit:
        assert result.fan == FAN_CAP[variant]
        assert all(p.fan == FAN_CAP[variant] for p in result.patterns)
    else:
        assert min(sum(p.fan for p in result.patterns), FAN_CAP[variant]) == result.fan


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_more_bonus_tiles_never_lower_a_kaki3_hand(data):
    tiles = data.draw(complete_hands("kaki3"))
    base = ("2f",)  # scores nothing for South, but keeps "no bonus tiles" out of the way
    extra = tuple(
        data.draw(
            st.lists(st.sampled_from(["1a", "2c", "4f", "4n", "3a"]), unique=True, min_size=1)
        )
    )
    plain = score_hand(WinningHand("kaki3", "S", tuple(tiles), tiles[0], bonus=base))
    richer = score_hand(WinningHand("kaki3", "S", tuple(tiles), tiles[0], bonus=base + extra))
    assert richer.fan >= plain.fan


def _reference_best(winning_hand: WinningHand, cap: int | None = None) -> tuple[int, bool]:
    """A slow, plain scorer: every decomposition from `hand.decompositions`, every tile for
    a two-Fei eye, no merging of readings. Returns (fan after the cap, limit); the cap is
    the seed's unless given."""
    from server.engine.hand import decompositions
    from server.engine.scoring.hk import hk_standard_tally
    from server.engine.scoring.kaki3 import kaki3_fixed_tally, kaki3_shape_tally
    from server.engine.scoring.readings import Reading, ReadSet, meld_read_set

    variant = winning_hand.variant
    win = winning_hand.winning_tile
    shown = tuple(meld_read_set(meld) for meld in winning_hand.melds)
    kinds = [f"{r}p" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    best = (-1, False)
    for decomposition in decompositions(winning_hand.concealed, variant):
        sets = tuple(
            ReadSet(s.kind, s.base_tile, True, True, s.fei_count) for s in decomposition.sets
        )
        if win == "j":
            in_eye = decomposition.eye_fei > 0
            in_pong = any(s.kind == "pong" and s.fei_positions for s in decomposition.sets)
        else:
            in_eye = decomposition.eye == win and decomposition.eye_fei < 2
            in_pong = any(s.kind == "pong" and s.base_tile == win for s in decomposition.sets)
        eyes = kinds if decomposition.eye == "j" else [decomposition.eye]
        for eye in eyes:
            reading = Reading(shown + sets, eye, decomposition.eye_fei, in_eye, in_pong)
            if variant == "hk":
                tally = hk_standard_tally(reading, winning_hand)
            else:
                shape = kaki3_shape_tally(reading, winning_hand)
                fixed = kaki3_fixed_tally(winning_hand, winning_hand.melds)
                tally = type(shape).of(shape.patterns + fixed.patterns, shape.limits + fixed.limits)
            cap = FAN_CAP[variant] if cap is None else cap
            candidate = (cap, True) if tally.limits else (min(tally.fan, cap), False)
            best = max(best, candidate)
    return best


@settings(max_examples=150, deadline=None)
@given(data=st.data(), variant=st.sampled_from(["hk", "kaki3"]))
def test_score_hand_matches_a_plain_reference_scorer(data, variant):
    tiles = data.draw(complete_hands(variant))
    winning = data.draw(st.sampled_from(tiles))
    seat = data.draw(st.sampled_from(["E", "S", "W"]))
    bonus = ("2n",) if variant == "kaki3" else ()
    flags = WinFlags(self_drawn=data.draw(st.booleans()))
    winning_hand = WinningHand(variant, seat, tuple(tiles), winning, bonus=bonus, flags=flags)
    # Half the examples under house rules drawn from every choice the table offers.
    rules = None
    if data.draw(st.booleans()):
        rules = TableRules(
            variant,
            data.draw(st.sampled_from(MIN_FAN_CHOICES[variant])),
            data.draw(st.sampled_from(FAN_CAP_CHOICES[variant])),
            data.draw(st.sampled_from(POINTS_CHOICES[variant])),
        )
    result = score_hand(winning_hand, rules)
    fan, limit = _reference_best(winning_hand, None if rules is None else rules.fan_cap)
    if variant == "hk" and not limit:
        # Seven pairs and thirteen orphans are readings the reference does not try.
        assert result.fan >= fan
    else:
        assert (result.fan, result.limit) == (fan, limit)
    in_force = rules if rules is not None else TableRules.default(variant)
    assert result.valid == (result.limit or result.fan >= in_force.min_fan)
    assert result.points == (in_force.win_points(result.fan, result.limit) if result.valid else 0)


def test_a_hand_built_with_lists_is_scored_too():
    listed = WinningHand(
        "hk",
        "S",
        list(parse_tiles("123m 456p 99s 222z 555z")),
        "9s",
        flags=WinFlags(self_drawn=True),
    )  # type: ignore[arg-type]
    assert score_hand(listed).fan == 3


@pytest.mark.parametrize(
    ("sets", "eye", "expected"),
    [
        ("5z 6z", "7z", HonourPatterns(True, False, False, False)),
        ("5z 6z", "5p", NO_HONOUR_PATTERNS),
        ("5z 6z 7z", "9p", HonourPatterns(False, True, False, False)),
        ("1z 2z 3z", "4z", HonourPatterns(False, False, True, False)),
        ("4z 2z 3z 1z", "5z", HonourPatterns(False, False, False, True)),
        # A fifth copy by Fei: two sets of one honour, or the eye beside a set of it.
        ("5z 5z 6z", "7z", NO_HONOUR_PATTERNS),
        ("5z 6z", "5z", NO_HONOUR_PATTERNS),
        ("5z 6z 7z", "5z", NO_HONOUR_PATTERNS),
        ("1z 1z 2z 3z", "4z", NO_HONOUR_PATTERNS),
        ("1z 2z 3z", "1z", NO_HONOUR_PATTERNS),
    ],
)
def test_honour_patterns_need_different_honours(sets, eye, expected):
    assert honour_patterns(parse_tiles(sets), eye) == expected
