"""How a win would be won (the scoring flags), and turn rules the seeds leave open."""

import pytest

from server.engine import Action, IllegalActionError, apply, pending_seats
from server.engine.deal_end import discard_flags, self_draw_flags

KONG_HANDS = {
    "E": "1111p 2222p 3z 4z 5z 6z 7z 9s",
    "S": "2m 4m 6m 8m 9p 3p 5p 7p 1s 3s 5s 7s 4z",
    "W": "123456s 11z 22z 3z 44z",
    "N": "123m 456m 789m 666z 9s",
}


def test_kong_upon_kong_and_kong_replacement_flags(fixed):
    state = fixed.deal("hk", KONG_HANDS, back="9m 8s")
    assert self_draw_flags(state, "E").heavenly
    state = fixed.play(state, "E", "concealed_kong", tile="1p")
    flags = self_draw_flags(state, "E")
    assert flags.replacement == "kong" and not flags.kong_upon_kong and not flags.heavenly
    state = fixed.play(state, "E", "concealed_kong", tile="2p")
    assert self_draw_flags(state, "E").kong_upon_kong
    assert state.players["E"].drawn == "8s"
    state = fixed.play(state, "E", "discard", tile="8s")
    assert discard_flags(state, "E", robbing=False).earthly


# South and West for East's kongs at 3 Kaki: no 1p, no 2p.
QUIET_KAKI3 = {"S": "33p 44p 55p 66p 77p 1z 2z 3z", "W": "33p 44p 55p 66p 88p 1z 2z 4z"}


def test_a_bonus_tile_drawn_as_a_kong_replacement_keeps_the_chain_a_kong_replacement(fixed):
    hands = {"E": "1111p 2222p 3z 4z 5z 6z 7z 9p", **QUIET_KAKI3}
    state = fixed.deal("kaki3", hands, back="1f 8p 2f 9p")
    state = fixed.play(state, "E", "concealed_kong", tile="1p")
    assert state.players["E"].bonus == ["1f"] and state.players["E"].drawn == "8p"
    flags = self_draw_flags(state, "E")
    assert flags.replacement == "kong" and not flags.kong_upon_kong
    state = fixed.play(state, "E", "concealed_kong", tile="2p")
    assert state.players["E"].bonus == ["1f", "2f"] and state.players["E"].drawn == "9p"
    flags = self_draw_flags(state, "E")
    assert flags.replacement == "kong" and flags.kong_upon_kong


def test_a_sunk_fei_after_a_kong_starts_a_bonus_replacement(fixed):
    hands = {"E": "1111p 2z 3z 4z 5z 6z 7z 99p 8p j", **QUIET_KAKI3}
    state = fixed.deal("kaki3", hands, back="1f 8p 9p")
    state = fixed.play(state, "E", "concealed_kong", tile="1p")
    state = fixed.play(state, "E", "sink")
    flags = self_draw_flags(state, "E")
    assert flags.replacement == "bonus" and not flags.kong_upon_kong


def test_no_win_or_kong_straight_after_a_claim(fixed):
    hands = dict(KONG_HANDS, S="3z 3z 4m 6m 8m 9p 3p 5p 7p 1s 3s 5s 7s", W="123456s 11z 22z 9m 44z")
    hands["E"] = "1111p 2222p 3z 4z 5z 6z 7z 9s"
    state = fixed.play(fixed.deal("hk", hands), "E", "discard", tile="3z")
    state = fixed.play(state, "S", "pong", tiles="3z 3z")
    assert fixed.kinds(state, "S") == {"discard"}
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("win", "S"))
    assert error.value.code == "no_win"


def test_the_last_drawable_tile_and_the_last_discard_are_flagged(fixed):
    state = fixed.deal("hk", KONG_HANDS)
    while state.wall_remaining > 0 or state.phase != "discard":
        seat = pending_seats(state)[0]
        if state.phase != "discard":
            state = fixed.play(state, seat, "pass")
            continue
        kinds = fixed.kinds(state, seat) - {"win"}
        assert kinds <= {"discard", "concealed_kong", "added_kong"}
        player = state.players[seat]
        state = fixed.play(state, seat, "discard", tile=player.drawn or player.hand[0])
    seat = state.turn
    assert self_draw_flags(state, seat).last_tile
    assert not fixed.kinds(state, seat) & {"concealed_kong", "added_kong"}, "no replacement left"
    player = state.players[seat]
    state = fixed.play(state, seat, "discard", tile=player.drawn)
    if not state.is_over:
        assert discard_flags(state, seat, robbing=False).last_discard
        while not state.is_over:
            state = fixed.play(state, pending_seats(state)[0], "pass")
    assert state.result.outcome == "draw"
