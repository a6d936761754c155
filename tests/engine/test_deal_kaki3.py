"""3 Kaki deals from fixed walls: Fei claims, swap, sink, bonus tiles, the 7-tile end."""

import pytest

from server.engine import (
    Action,
    IllegalActionError,
    apply,
    legal_actions,
    parse_tiles,
    pending_seats,
)

FEI_CLAIM_HANDS = {
    "E": "5p 11p 99p 33z 22z 7z 11z 66z",
    "S": "234p 678p j 44z 55z 7z 3z",
    "W": "55p jj 22p 8p 1z 2z 3z 4z 6z 7z",
}


def test_claims_list_every_way_with_and_without_fei(fixed):
    state = fixed.play(fixed.deal("kaki3", FEI_CLAIM_HANDS), "E", "discard", tile="5p")
    chows = {(a.tiles, a.fei_as) for a in legal_actions(state, "S") if a.type == "chow"}
    assert chows == {
        (("3p", "4p"), None),
        (("4p", "j"), "3p"),
        (("3p", "j"), "4p"),
        (("4p", "6p"), None),
        (("6p", "j"), "4p"),
        (("4p", "j"), "6p"),
        (("6p", "7p"), None),
        (("7p", "j"), "6p"),
        (("6p", "j"), "7p"),
    }
    pongs = {(a.tiles, a.fei_as) for a in legal_actions(state, "W") if a.type == "pong"}
    assert pongs == {(("5p", "5p"), None), (("5p", "j"), "5p")}, "never two Fei in a shown set"
    assert "kong" not in fixed.kinds(state, "W"), "a kong claim needs three real tiles"


def test_legal_claims_round_trip_through_the_wire_form(fixed):
    state = fixed.play(fixed.deal("kaki3", FEI_CLAIM_HANDS), "E", "discard", tile="5p")
    for seat in pending_seats(state):
        for action in legal_actions(state, seat):
            again = Action.from_json(action.to_json())
            assert again == action
            apply(state, again)


def test_a_chow_with_a_fei_is_laid_in_run_order(fixed):
    state = fixed.play(fixed.deal("kaki3", FEI_CLAIM_HANDS), "E", "discard", tile="5p")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "chow", tiles="4p j", fei_as="6p")
    meld = state.players["S"].melds[0]
    assert (
        meld.tiles == ("4p", "5p", "j")
        and meld.fei_as == "6p"
        and meld.real_tiles == ("4p", "5p", "6p")
    )
    assert state.forbidden == ("4p", "5p", "6p", "j")


def test_two_real_tiles_beat_a_fei_pong_even_when_further(fixed):
    hands = dict(FEI_CLAIM_HANDS, S="2345p 68p j 44z 55z 7z 3z")
    state = fixed.play(fixed.deal("kaki3", hands), "E", "discard", tile="5p")
    state = fixed.play(state, "S", "pong", tiles="5p j", fei_as="5p")
    assert pending_seats(state) == ["W"]
    state = fixed.play(state, "W", "pong", tiles="55p")
    assert state.turn == "W" and state.players["W"].melds[0].tiles == ("5p", "5p", "5p")
    assert state.players["S"].melds == []


def test_a_fei_pong_goes_through_when_the_real_pong_passes(fixed):
    hands = dict(FEI_CLAIM_HANDS, S="2345p 68p j 44z 55z 7z 3z")
    state = fixed.play(fixed.deal("kaki3", hands), "E", "discard", tile="5p")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "pong", tiles="5p j", fei_as="5p")
    meld = state.players["S"].melds[0]
    assert meld.tiles == ("5p", "j", "5p") and meld.fei_as == "5p"


def test_same_turn_throw_restriction_after_a_chow(fixed):
    hands = dict(
        FEI_CLAIM_HANDS, S="44p 66p 2p 8p jj 44z 55z 3z", W="55p 22p 8p 1z 2z 3z 4z 6z 7z 9p 9p"
    )
    state = fixed.play(fixed.deal("kaki3", hands), "E", "discard", tile="5p")
    state = fixed.play(state, "W", "pass")
    state = fixed.play(state, "S", "chow", tiles="4p j", fei_as="6p")
    discards = {a.tile for a in legal_actions(state, "S") if a.type == "discard"}
    assert discards == {"2p", "8p", "4z", "5z", "3z"}
    assert "sink" not in fixed.kinds(state, "S"), "not the Fei of the set just shown"
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("discard", "S", tile="6p"))
    assert error.value.code == "forbidden_tile"
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("sink", "S"))
    assert error.value.code == "cannot_sink"


SWAP_HANDS = {
    "E": "6z 2p 4p 6p 8p 1z 2z 3z 5z 7z 11p 99p",
    "S": "66z j 4z 13579p 2z 3z 7z 1z",
    "W": "2468p 1z 2z 3z 5z 7z 3579p",
}


def _fei_pong_then_draw_the_fourth(fixed):
    state = fixed.deal("kaki3", SWAP_HANDS, front="4z 4z 6z", back="8p 8p")
    state = fixed.play(state, "E", "discard", tile="6z")
    state = fixed.play(state, "S", "pong", tiles="6z j", fei_as="6z")
    assert fixed.kinds(state, "S") >= {"swap", "discard"}
    assert "added_kong" not in fixed.kinds(state, "S")
    state = fixed.play(state, "S", "discard", tile="4z")
    state = fixed.play(state, "W", "discard", tile="4z")
    state = fixed.play(state, "E", "discard", tile="4z")
    assert state.players["S"].drawn == "6z"
    return state


def test_a_fei_pong_cannot_become_a_kong_until_swapped(fixed):
    state = _fei_pong_then_draw_the_fourth(fixed)
    assert "added_kong" not in fixed.kinds(state, "S")
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("added_kong", "S", tile="6z"))
    assert error.value.code == "fei_in_kong"
    state, events = fixed.play_events(state, "S", "swap", tile="6z")
    assert state.players["S"].melds[0].tiles == ("6z", "6z", "6z")
    assert state.players["S"].melds[0].fei_as is None
    assert state.players["S"].hand.count("j") == 1 and state.players["S"].hand.count("6z") == 1
    assert events[0]["type"] == "swap" and events[0]["visible_to"] is None
    state = fixed.play(state, "S", "added_kong", tile="6z")
    assert state.players["S"].melds[0].tiles == ("6z",) * 4
    assert [paid.to_json() for paid in state.payments] == [
        {"from": "E", "to": "S", "points": 1, "reason": "kong"},
        {"from": "W", "to": "S", "points": 1, "reason": "kong"},
    ]
    assert state.players["S"].drawn == "8p"


def test_sinking_a_fei_lays_it_aside_and_draws_from_the_back(fixed):
    state = _fei_pong_then_draw_the_fourth(fixed)
    state = fixed.play(state, "S", "swap", tile="6z")
    remaining = state.wall_remaining
    state, events = fixed.play_events(state, "S", "sink")
    player = state.players["S"]
    assert player.bonus == ["j"] and "j" not in player.hand
    assert player.drawn == "8p" and state.replacement == "bonus"
    assert state.wall_remaining == remaining - 1
    assert [e["type"] for e in events if e["visible_to"] is None][:2] == ["sink", "bonus"]
    assert state.turn == "S" and state.phase == "discard"


def test_the_last_seven_tiles_are_never_drawn_and_no_sink_without_replacement(fixed):
    hands = {
        "E": "j 123456789p 1z 2z 3z 4z",
        "S": "j 123456789p 5z 6z 7z",
        "W": "j 123456789p 1z 2z 3z",
    }
    # Bonus tiles early in the wall, so the replacements run through the back of it.
    state = fixed.deal("kaki3", hands, first="1234f 1234n 1234a 1234c")
    checked_end = False
    while not state.is_over:
        seat = pending_seats(state)[0]
        if state.phase != "discard":
            state = fixed.play(state, seat, "pass")
            continue
        player = state.players[seat]
        if state.wall_remaining == 0 and "j" in player.hand:
            kinds = fixed.kinds(state, seat)
            assert not kinds & {"sink", "concealed_kong", "added_kong"}
            with pytest.raises(IllegalActionError) as error:
                apply(state, Action("sink", seat))
            assert error.value.code == "cannot_sink"
            checked_end = True
        tile = (
            player.drawn
            if player.drawn not in (None, "j")
            else next(t for t in player.hand if t != "j")
        )
        state = fixed.play(state, seat, "discard", tile=tile)
    assert checked_end
    assert state.result.outcome == "draw"
    assert state.back - state.front == 7, "exactly the last seven tiles stay in the wall"
    # A drawn deal settles nothing more: only payments made at once (families here).
    assert {paid["reason"] for paid in state.result.to_json()["payments"]} <= {"family", "kong"}
    assert state.result.next_dealer == state.last_drawer


BONUS_BACK = "3f 3z 5z 2a 4z 6z 7z 2z 1p"
BONUS_HANDS = {
    "E": "1f 2f 4f 123456789p 1z 2z",
    "S": "1a 123456789p 1z 2z 3z",
    "W": "1c 123456789p 5z 6z 7z",
}


def test_bonus_tiles_in_the_deal_are_replaced_east_south_west_until_none(fixed):
    state = fixed.deal("kaki3", BONUS_HANDS, back=BONUS_BACK)
    players = state.players
    assert players["E"].bonus == ["1f", "2f", "4f", "3f"]
    assert players["S"].bonus == ["1a", "2a"]
    assert players["W"].bonus == ["1c"]
    # Pass 1: E takes 3f 3z 5z, S takes 2a, W takes 4z. Pass 2: E 6z, S 7z.
    assert players["E"].hand == parse_tiles("123456789p 1z 2z 3z 5z 6z")
    assert players["S"].hand == parse_tiles("123456789p 1z 2z 3z 7z")
    assert players["W"].hand == parse_tiles("123456789p 5z 6z 7z 4z")
    assert state.wall_remaining == 84 - 40 - 7 - 7
    # The flowers were complete in the deal: 4 from each other player.
    assert [paid.to_json() for paid in state.payments] == [
        {"from": "S", "to": "E", "points": 4, "reason": "family"},
        {"from": "W", "to": "E", "points": 4, "reason": "family"},
    ]


def test_bonus_tiles_drawn_in_play_are_replaced_and_a_family_pays_two(fixed):
    state = fixed.deal("kaki3", BONUS_HANDS, front="3a 4z 4z 4a", back=BONUS_BACK)
    state = fixed.play(state, "E", "discard", tile="1z")
    assert state.players["S"].bonus == ["1a", "2a", "3a"]
    assert state.players["S"].drawn == "2z" and state.replacement == "bonus"
    state = fixed.play(state, "S", "discard", tile="2z")
    state = fixed.play(state, "W", "discard", tile="4z")
    state = fixed.play(state, "E", "discard", tile="4z")
    assert state.players["S"].bonus == ["1a", "2a", "3a", "4a"]
    assert state.players["S"].drawn == "1p"
    assert [paid.to_json() for paid in state.payments[2:]] == [
        {"from": "E", "to": "S", "points": 2, "reason": "family"},
        {"from": "W", "to": "S", "points": 2, "reason": "family"},
    ]


ONE_WINNER_HANDS = {
    "E": "5p 1p 2p 3p 7p 8p 9p 44z 55z 66z 2z",
    "S": "123p 4p 6p 789p 111z 22z",
    "W": "123p 4p 6p 789p 333z 77z",
}


def test_one_winner_per_discard_the_nearest(fixed):
    state = fixed.play(fixed.deal("kaki3", ONE_WINNER_HANDS), "E", "discard", tile="5p")
    state = fixed.play(state, "W", "win")
    assert pending_seats(state) == ["S"], "S is nearer and could take the win"
    state = fixed.play(state, "S", "win")
    result = state.result.to_json()
    assert [w["seat"] for w in result["winners"]] == ["S"]
    assert result["payments"] == [
        {"from": "E", "to": "S", "points": 24, "reason": "win"},
        {"from": "W", "to": "S", "points": 12, "reason": "win"},
    ]
    assert result["next_dealer"] == "S"


def test_the_further_winner_wins_when_the_nearer_passes(fixed):
    state = fixed.play(fixed.deal("kaki3", ONE_WINNER_HANDS), "E", "discard", tile="5p")
    state = fixed.play(state, "S", "pass")
    state = fixed.play(state, "W", "win")
    assert state.result.to_json()["payments"] == [
        {"from": "E", "to": "W", "points": 24, "reason": "win"},
        {"from": "S", "to": "W", "points": 12, "reason": "win"},
    ]
    assert state.result.next_dealer == "W"


def test_kaki3_kong_payments(fixed):
    hands = {
        "E": "3333p 5p 1p 2p 7p 8p 9p 44z 5z 6p",
        "S": "12p 4p 6p 789p 111z 22z 5p",
        "W": "555z 2p 6p 789p 333z 6z 7z",
    }
    state = fixed.deal("kaki3", hands, back="1z 6z")
    state = fixed.play(state, "E", "concealed_kong", tile="3p")
    assert [paid.to_json() for paid in state.payments] == [
        {"from": "S", "to": "E", "points": 2, "reason": "kong"},
        {"from": "W", "to": "E", "points": 2, "reason": "kong"},
    ]
    assert state.players["E"].drawn == "1z"
    state = fixed.play(state, "E", "discard", tile="5z")
    state = fixed.play(state, "S", "pass") if "S" in pending_seats(state) else state
    state = fixed.play(state, "W", "kong", tiles="555z")
    assert [paid.to_json() for paid in state.payments[2:]] == [
        {"from": "E", "to": "W", "points": 2, "reason": "kong"}
    ]
    assert state.players["W"].drawn == "6z" and state.replacement == "kong"


def test_the_throw_restriction_is_lifted_when_it_leaves_no_throw(fixed):
    hands = {
        "E": "5p 123p 789p 11z 22z 33z 4z",
        "S": "4444p 555p 6666p jj",
        "W": "123p 789p 44z 55z 66z 7z",
    }
    state = fixed.play(fixed.deal("kaki3", hands), "E", "discard", tile="5p")
    assert fixed.kinds(state, "S") >= {"win", "kong", "pong", "chow"}
    state = fixed.play(state, "S", "chow", tiles="4p j", fei_as="6p")
    assert sorted(state.players["S"].hand) == sorted(["4p"] * 3 + ["5p"] * 3 + ["6p"] * 4 + ["j"])
    discards = {a.tile for a in legal_actions(state, "S") if a.type == "discard"}
    assert discards == {"4p", "5p", "6p"} and "sink" in fixed.kinds(state, "S")
