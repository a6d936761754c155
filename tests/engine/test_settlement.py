"""Settlement: the 3 Kaki win split, extra Fei, squaring up and dragon liability."""

from server.engine import pending_seats
from server.engine.deal_result import Payment
from server.engine.settlement import (
    Win,
    extra_fei_payments,
    half_share,
    kaki3_win_payments,
    square_up_payments,
)
from server.engine.variants import get_variant

KAKI3 = get_variant("kaki3")


def as_json(payments: list[Payment]) -> list[dict[str, object]]:
    """The payments' wire form, as the rules read them."""
    return [paid.to_json() for paid in payments]


def test_half_shares_round_up():
    assert [half_share(v) for v in (8, 10, 24, 9)] == [4, 5, 12, 5]


def test_self_draw_both_pay_the_value():
    assert as_json(kaki3_win_payments(KAKI3, Win("W", 10, None))) == [
        {"from": "E", "to": "W", "points": 10, "reason": "win"},
        {"from": "S", "to": "W", "points": 10, "reason": "win"},
    ]


def test_a_liable_seat_pays_both_shares_of_a_self_draw():
    assert as_json(kaki3_win_payments(KAKI3, Win("W", 10, None, liable="S"))) == [
        {"from": "S", "to": "W", "points": 10, "reason": "win"},
        {"from": "S", "to": "W", "points": 10, "reason": "liability"},
    ]


def test_extra_fei_never_below_zero():
    assert as_json(extra_fei_payments("S", {"E": 1, "S": 3, "W": 4})) == [
        {"from": "E", "to": "S", "points": 2, "reason": "extra_fei"}
    ]


def test_the_lower_loser_pays_the_difference():
    assert as_json(square_up_payments(["E", "W"], {"E": 5, "W": 2})) == [
        {"from": "W", "to": "E", "points": 3, "reason": "square_up"}
    ]
    assert square_up_payments(["E", "W"], {"E": 2, "W": 2}) == []


SETTLE_HANDS = {
    "E": "7z j 11p 99p 33z 44z 55z 66z",
    "S": "123p 456p 78p j 22z 7z j",
    "W": "4f 1a 1c 2p 3p 5p 6p 8p 2z 3z 4z 5z 1z",
}


def test_a_discard_win_settles_win_extra_fei_and_square_up(fixed):
    state = fixed.deal("kaki3", SETTLE_HANDS, back="6z 7z 1z")
    assert state.players["W"].bonus == ["4f", "1a", "1c"]
    state = fixed.play(state, "E", "discard", tile="7z")
    state = fixed.play(state, "S", "win")
    result = state.result.to_json()
    assert result["winners"][0]["points"] == 24  # no bonus tiles: a limit hand
    assert result["payments"] == [
        {"from": "E", "to": "S", "points": 24, "reason": "win"},
        {"from": "W", "to": "S", "points": 12, "reason": "win"},
        # S holds two Fei, E one, W none.
        {"from": "E", "to": "S", "points": 1, "reason": "extra_fei"},
        {"from": "W", "to": "S", "points": 2, "reason": "extra_fei"},
        # E counts 2 (one Fei, twice); W counts 3 (flower 4, an animal, a face).
        {"from": "E", "to": "W", "points": 1, "reason": "square_up"},
    ]
    assert result["scores"] == {"E": -26, "S": 39, "W": -13}
    assert result["next_dealer"] == "S"


LIABILITY_HANDS = {
    "E": "5z 6z 7z 77p 99p 88p 22z 11z 2p",
    "S": "55z 66z 4z 3z 123p 456p 7z",
    "W": "3456789p 2z 1z 4p 5p 6p 7p",
}


def _show_two_dragon_sets(fixed, hands, front):
    state = fixed.deal("kaki3", hands, front=front)
    state = fixed.play(state, "E", "discard", tile="5z")
    state = fixed.play(state, "S", "pong", tiles="55z")
    state = fixed.play(state, "S", "discard", tile="4z")
    state = fixed.play(state, "W", "discard", tile="4z")
    state = fixed.play(state, "E", "discard", tile="6z")
    state = fixed.play(state, "S", "pong", tiles="66z")
    state = fixed.play(state, "S", "discard", tile="3z")
    state = fixed.play(state, "W", "discard", tile="3z")
    return state


def test_dragon_liability_on_a_direct_win(fixed):
    state = _show_two_dragon_sets(fixed, LIABILITY_HANDS, front="4z 4z 3z 3z")
    state = fixed.play(state, "E", "discard", tile="7z")
    state = fixed.play(state, "S", "win")
    assert state.result.to_json()["payments"] == [
        {"from": "E", "to": "S", "points": 24, "reason": "win"},
        {"from": "E", "to": "S", "points": 12, "reason": "liability"},
    ]
    assert state.result.scores == {"E": -36, "S": 36, "W": 0}


def test_dragon_liability_when_the_third_dragon_is_claimed_and_won_later(fixed):
    hands = dict(LIABILITY_HANDS, S="55z 66z 77z 4z 3z 123p 45p")
    state = _show_two_dragon_sets(fixed, hands, front="4z 4z 3z 3z 3z")
    state = fixed.play(state, "E", "discard", tile="7z")
    state = fixed.play(state, "S", "pong", tiles="77z")
    assert state.liable_for == {"S": "E"}
    state = fixed.play(state, "S", "discard", tile="1p")
    state = fixed.play(state, "W", "discard", tile="5p")
    state = fixed.play(state, "S", "win")
    # W threw the winning tile, but E fed the third dragon: E pays W's share and its own.
    assert state.result.to_json()["payments"][-2:] == [
        {"from": "E", "to": "S", "points": 12, "reason": "win"},
        {"from": "E", "to": "S", "points": 24, "reason": "liability"},
    ]
    assert state.result.scores["W"] == 0


ROB_HANDS = {
    "E": "6z 2p 4p 6p 8p 1z 2z 3z 5z 7z 11p 99p",
    "S": "66z 5z 4z 13579p 2z 3z 7z 8p",
    "W": "123p 456p 789p 11z jj",
}


def test_a_robbed_kong_pays_as_a_discard_by_the_adder(fixed):
    state = fixed.deal("kaki3", ROB_HANDS, front="4z 4z 6z")
    state = fixed.play(state, "E", "discard", tile="6z")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "pong", tiles="66z")
    state = fixed.play(state, "S", "discard", tile="4z")
    state = fixed.play(state, "W", "pass")
    assert fixed.kinds(state, "W") >= {"win", "discard"}
    state = fixed.play(state, "W", "discard", tile="4z")
    state = fixed.play(state, "E", "discard", tile="4z")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "added_kong", tile="6z")
    assert state.phase == "rob" and pending_seats(state) == ["W"]
    state = fixed.play(state, "W", "win")
    result = state.result.to_json()
    assert result["winners"][0]["points"] == 24 and result["winners"][0]["hand"]["from"] == "S"
    assert result["payments"] == [
        {"from": "E", "to": "W", "points": 12, "reason": "win"},
        {"from": "S", "to": "W", "points": 24, "reason": "win"},
        {"from": "E", "to": "W", "points": 2, "reason": "extra_fei"},
        {"from": "S", "to": "W", "points": 2, "reason": "extra_fei"},
        # S still shows its 6z pong (the kong was never made): one honour-set fan.
        {"from": "E", "to": "S", "points": 1, "reason": "square_up"},
    ]
