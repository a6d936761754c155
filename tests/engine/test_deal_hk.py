"""Hong Kong deals from fixed walls: claims, priority, kongs, robbing, multiple winners."""

import pytest

from server.engine import Action, IllegalActionError, apply, legal_actions, pending_seats
from server.engine.variants import get_variant

PRIORITY_HANDS = {
    "E": "5m 11p 99s 33z 44z 77p 22s 8m",
    "S": "4m 6m 13579s 2468p 1z 2z",
    "W": "55m 99m 22m 33p 66s 88s 7z",
    "N": "11m 33m 77m 55p 44s 66z 5z",
}


def test_only_seats_with_a_claim_are_asked(fixed):
    state = fixed.play(fixed.deal("hk", PRIORITY_HANDS), "E", "discard", tile="5m")
    assert state.phase == "claim"
    assert pending_seats(state) == ["S", "W"]
    assert legal_actions(state, "N") == []
    assert fixed.kinds(state, "S") == {"chow", "pass"}
    assert fixed.kinds(state, "W") == {"pong", "pass"}


def test_chow_only_from_the_player_before(fixed):
    state = fixed.play(fixed.deal("hk", PRIORITY_HANDS), "E", "discard", tile="5m")
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("chow", "W", tiles=("4m", "6m")))
    assert str(error.value) == "W cannot chow from E, only from the player before"
    assert error.value.code == "chow_not_next"


def test_pong_beats_an_earlier_chow(fixed):
    state = fixed.play(fixed.deal("hk", PRIORITY_HANDS), "E", "discard", tile="5m")
    state = fixed.play(state, "S", "chow", tiles="46m")
    assert pending_seats(state) == ["W"], "the chow waits: W's pong could beat it"
    state = fixed.play(state, "W", "pong", tiles="55m")
    assert state.phase == "discard" and state.turn == "W"
    assert [m.kind for m in state.players["W"].melds] == ["pong"]
    assert state.players["S"].melds == [] and "4m" in state.players["S"].hand
    assert state.players["E"].discards == []


def test_chow_goes_through_when_the_pong_passes(fixed):
    state = fixed.play(fixed.deal("hk", PRIORITY_HANDS), "E", "discard", tile="5m")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "chow", tiles="46m")
    meld = state.players["S"].melds[0]
    assert meld.tiles == ("4m", "5m", "6m") and meld.claimed_from == "E"
    assert state.turn == "S" and state.players["S"].drawn is None


def test_everyone_passing_lets_the_next_seat_draw(fixed):
    state = fixed.deal("hk", PRIORITY_HANDS, front="1z")
    state = fixed.play(state, "E", "discard", tile="5m")
    state = fixed.play(state, "S", "pass")
    state = fixed.play(state, "W", "pass")
    assert state.turn == "S" and state.players["S"].drawn == "1z"
    assert len(state.players["S"].hand) == 14


TWO_WINNER_HANDS = {
    "E": "5z 11m 22m 99p 88s 99s 7s 3z 6m",
    "S": "123m 456m 789m 666z 5z",
    "W": "123456s 11z 22z 3z 44z",
    "N": "123p 456p 789p 777z 5z",
}


def test_two_hong_kong_winners_on_one_discard_are_both_paid(fixed):
    state = fixed.play(fixed.deal("hk", TWO_WINNER_HANDS), "E", "discard", tile="5z")
    assert pending_seats(state) == ["S", "N"]
    state = fixed.play(state, "S", "win")
    assert pending_seats(state) == ["N"], "N can still add a win"
    state = fixed.play(state, "N", "win")
    result = state.result.to_json()
    assert result["outcome"] == "win"
    assert [w["seat"] for w in result["winners"]] == ["S", "N"]
    # The dealer's first discard: an earthly hand, the limit (8 fan, 64 points).
    assert all(w["points"] == 64 and w["limit"] for w in result["winners"])
    assert result["payments"] == [
        {"from": "E", "to": "S", "points": 64, "reason": "win"},
        {"from": "E", "to": "N", "points": 64, "reason": "win"},
    ]
    assert result["scores"] == {"E": -128, "S": 64, "W": 0, "N": 64}
    assert result["next_dealer"] == "S"


def test_a_passed_winner_leaves_one_winner(fixed):
    state = fixed.play(fixed.deal("hk", TWO_WINNER_HANDS), "E", "discard", tile="5z")
    state = fixed.play(state, "S", "win")
    state = fixed.play(state, "N", "pass")
    assert [w["seat"] for w in state.result.to_json()["winners"]] == ["S"]
    assert state.result.scores["E"] == -64


def test_a_win_beats_an_earlier_pong(fixed):
    hands = {
        "E": "2m 11p 99p 88s 7s 3z 44z 6m 8m 5s",
        "S": "555z 666z 777z 1m 3m 99s",
        "W": "22m 123456s 11z 3z 4m 9m",
        "N": "123p 456p 78p 4s 1z 2z 5m 7m",
    }
    state = fixed.play(fixed.deal("hk", hands), "E", "discard", tile="2m")
    assert fixed.kinds(state, "S") == {"win", "chow", "pass"}
    state = fixed.play(state, "W", "pong", tiles="22m")
    assert pending_seats(state) == ["S"]
    state = fixed.play(state, "S", "win")
    assert [w["seat"] for w in state.result.to_json()["winners"]] == ["S"]
    assert state.players["W"].melds == []


def test_a_dealer_win_keeps_the_deal(fixed):
    hands = {
        "E": "123m 456m 789m 666z 55z",
        "S": "2m 4m 6m 8m 1p 3p 5p 7p 1s 3s 5s 7s 4z",
        "W": "123456s 11z 22z 3z 44z",
        "N": "123p 456p 789p 777z 9s",
    }
    state = fixed.deal("hk", hands)
    state = fixed.play(state, "E", "win")
    result = state.result.to_json()
    assert result["winners"][0]["patterns"] == [{"id": "heavenly_hand", "fan": 8}]
    assert result["scores"] == {"E": 192, "S": -64, "W": -64, "N": -64}
    assert result["next_dealer"] == "E"


ROB_HANDS = {
    "E": "2p 11m 99m 33s 77s 66p 88m 5s",
    "S": "22p 4z 11s 99p 22z 3m 5m 7m 8p",
    "W": "555z 666z 777z 1p 3p 99s",
    "N": "11z 2m 4m 6m 4p 5p 7p 2s 4s 6s 8s 3z",
}


def test_a_robbed_kong_is_not_made_and_the_adder_pays(fixed):
    state = fixed.deal("hk", ROB_HANDS, front="4z 4z 4z 2p")
    state = fixed.play(state, "E", "discard", tile="2p")
    assert fixed.kinds(state, "W") == {"win", "pass"}
    state = fixed.play(state, "W", "pass")  # no furiten: W may still win on 2p later
    state = fixed.play(state, "S", "pong", tiles="22p")
    state = fixed.play(state, "S", "discard", tile="4z")
    for seat in ("W", "N", "E"):
        assert state.turn == seat and state.players[seat].drawn == "4z"
        state = fixed.play(state, seat, "discard", tile="4z")
    assert state.turn == "S" and state.players["S"].drawn == "2p"
    state = fixed.play(state, "S", "added_kong", tile="2p")
    assert state.phase == "rob" and pending_seats(state) == ["W"]
    state = fixed.play(state, "W", "win")
    result = state.result.to_json()
    winner = result["winners"][0]
    assert winner["seat"] == "W" and winner["hand"]["from"] == "S"
    assert result["payments"] == [{"from": "S", "to": "W", "points": 64, "reason": "win"}]
    assert [m.kind for m in state.players["S"].melds] == ["pong"], "the robbed kong is not made"


def test_an_added_kong_nobody_robs_pays_one_from_each(fixed):
    hands = dict(ROB_HANDS, W="555z 666z 77z 1p 5p 99s 1s")
    state = fixed.deal("hk", hands, front="4z 4z 4z 2p", back="3m")
    state = fixed.play(state, "E", "discard", tile="2p")
    state = fixed.play(state, "S", "pong", tiles="22p")
    state = fixed.play(state, "S", "discard", tile="4z")
    for seat in ("W", "N", "E"):
        state = fixed.play(state, seat, "discard", tile="4z")
    state, events = fixed.play_events(state, "S", "added_kong", tile="2p")
    assert state.players["S"].melds[0].tiles == ("2p", "2p", "2p", "2p")
    assert [paid.to_json() for paid in state.payments] == [
        {"from": x, "to": "S", "points": 1, "reason": "kong"} for x in ("E", "W", "N")
    ]
    assert state.players["S"].drawn == "3m" and state.replacement == "kong"
    assert {
        "type": "draw",
        "seat": "S",
        "source": "back",
        "tile": "3m",
        "visible_to": "S",
    } in events


def test_an_exposed_kong_pays_two_from_the_discarder(fixed):
    hands = dict(PRIORITY_HANDS, W="555m 99m 22m 33p 66s 8s 7z", E="5m 11p 99s 33z 44z 77p 22s 8s")
    state = fixed.deal("hk", hands, back="6z")
    state = fixed.play(state, "E", "discard", tile="5m")
    assert fixed.kinds(state, "W") == {"pong", "kong", "pass"}
    state = fixed.play(state, "S", "pass")
    state = fixed.play(state, "W", "kong", tiles="555m")
    assert [paid.to_json() for paid in state.payments] == [
        {"from": "E", "to": "W", "points": 2, "reason": "kong"}
    ]
    assert state.turn == "W" and state.players["W"].drawn == "6z"


def test_a_concealed_kong_pays_two_from_each_and_draws_from_the_back(fixed):
    hands = dict(PRIORITY_HANDS, E="1111p 99s 33z 44z 77p 22s", N="11m 33m 77m 55p 44s 66z 5z")
    state = fixed.deal("hk", hands, front="1z", back="6s")
    state = fixed.play(state, "E", "concealed_kong", tile="1p")
    meld = state.players["E"].melds[0]
    assert meld.concealed and meld.tiles == ("1p",) * 4
    assert [paid.to_json() for paid in state.payments] == [
        {"from": x, "to": "E", "points": 2, "reason": "kong"} for x in ("S", "W", "N")
    ]
    assert state.players["E"].drawn == "6s"
    assert state.wall[state.front] == "1z", "the front of the wall is untouched"


def test_the_deal_is_drawn_when_the_wall_is_empty(fixed):
    state = fixed.deal("hk", PRIORITY_HANDS)
    while not state.is_over:
        seat = pending_seats(state)[0]
        if state.phase != "discard":
            state = fixed.play(state, seat, "pass")
            continue
        player = state.players[seat]
        state = fixed.play(state, seat, "discard", tile=player.drawn or player.hand[0])
    assert state.result.outcome == "draw"
    assert state.front == state.back, "every tile was drawn"
    assert state.result.to_json()["winners"] == [] and state.result.next_dealer == "E"
    assert state.result.to_json()["payments"] == [] and set(state.result.scores.values()) == {0}


def test_illegal_actions_leave_the_state_alone(fixed):
    state = fixed.deal("hk", PRIORITY_HANDS)
    before = state.copy()
    for action, code in [
        (Action("discard", "S", tile="4m"), "not_your_turn"),
        (Action("discard", "E", tile="9m"), "tile_not_in_hand"),
        (Action("pong", "E", tiles=("5m", "5m")), "not_now"),
        (Action("sink", "E"), "cannot_sink"),
        (Action("concealed_kong", "E", tile="1p"), "cannot_kong"),
        (Action("discard", None, tile="5m"), "bad_seat"),
    ]:
        with pytest.raises(IllegalActionError) as error:
            apply(state, action)
        assert error.value.code == code
    assert state == before


def test_chow_out_of_turn_is_named_even_from_a_seat_with_nothing_to_decide(fixed):
    hands = dict(PRIORITY_HANDS, N="11m 33m 77m 55p 44s 46z 5z")
    state = fixed.play(fixed.deal("hk", hands), "E", "discard", tile="5m")
    assert "N" not in pending_seats(state)
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("chow", "N", tiles=("4m", "6m")))
    assert error.value.code == "chow_not_next"
    assert str(error.value) == "N cannot chow from E, only from the player before"


# South holds a spare 5m beside its 4m 5m, and three 5p: it pongs West's fourth with two.
NO_BAN_HANDS = {
    "E": "6m 11p 22p 33p 44s 55s 1z 2z 3z",
    "S": "4m 5m 5m 55p 789s 11z 67z 5p",
    "W": "11s 22s 33s 44s 55s 66s 7s",
    "N": "77s 88s 99s 8m 9m 3z 4z 6z 6z 7z",
}


def test_hong_kong_has_no_same_turn_throw_ban_after_a_chow(fixed):
    state = fixed.play(fixed.deal("hk", NO_BAN_HANDS), "E", "discard", tile="6m")
    state = fixed.play(state, "S", "chow", tiles="4m 5m")
    assert state.forbidden == ()
    discards = {a.tile for a in legal_actions(state, "S") if a.type == "discard"}
    assert {"5m", "5p"} <= discards, "the spare 5m of the chow may go out at once"
    state = fixed.play(state, "S", "discard", tile="5m")
    assert state.players["S"].discards == ["5m"]


def test_hong_kong_has_no_same_turn_throw_ban_after_a_pong(fixed):
    state = fixed.play(fixed.deal("hk", NO_BAN_HANDS, front="9p 5p"), "E", "discard", tile="6m")
    state = fixed.play(state, "S", "pass")
    state = fixed.play(state, "S", "discard", tile="9p")
    state = fixed.play(state, "W", "discard", tile="5p")
    state = fixed.play(state, "S", "pong", tiles="55p")
    assert state.forbidden == ()
    state = fixed.play(state, "S", "discard", tile="5p")  # the fourth 5p, beside the pong
    assert state.players["S"].discards == ["9p", "5p"]


def test_only_3_kaki_bans_throwing_a_tile_of_the_set_just_shown():
    assert get_variant("kaki3").same_turn_throw_ban
    assert not get_variant("hk").same_turn_throw_ban
