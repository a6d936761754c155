"""The game layer: seats follow the dealer, the round wind moves on, scores add up."""

import random

import pytest

from server.engine import apply, legal_actions, pending_seats
from server.engine.errors import EngineError
from server.engine.game import Game, deal_seed


def result(scores, next_dealer):
    return {
        "outcome": "win",
        "winners": [],
        "payments": [],
        "scores": scores,
        "next_dealer": next_dealer,
    }


def test_deal_seeds_are_derived_from_the_game_seed():
    assert deal_seed(7, 0) == deal_seed(7, 0)
    assert len({deal_seed(7, n) for n in range(50)} | {deal_seed(8, 0)}) == 51
    game = Game("hk", 7)
    assert game.start_deal() == Game("hk", 7).start_deal()


def test_hong_kong_dealer_keeps_then_passes_and_the_round_wind_moves():
    game = Game("hk", 1, rounds=2)
    game.record(result({"E": 3, "S": -1, "W": -1, "N": -1}, "E"))
    assert game.seat_of == ["E", "S", "W", "N"] and game.round_wind == "E"
    for dealt in range(1, 4):
        game.record(result({"E": 0, "S": 0, "W": 0, "N": 0}, "S"))
        assert game.player_at("E") == dealt
    assert game.round_wind == "E"
    game.record(result({"E": 0, "S": 2, "W": -2, "N": 0}, "S"))
    assert game.round_wind == "S" and game.player_at("E") == 0
    # That deal was dealt by player 3; player 0 sat South and player 1 West.
    assert game.scores == [3 + 2, -1 - 2, -1, -1]
    for _ in range(4):
        assert not game.is_finished
        game.record(result({"E": 0, "S": 0, "W": 0, "N": 0}, "S"))
    assert game.is_finished
    with pytest.raises(EngineError):
        game.start_deal()


def test_kaki3_the_winner_deals_and_seats_follow():
    game = Game("kaki3", 1)
    game.record(result({"E": -10, "S": 15, "W": -5}, "W"))
    # Player 2 won at West: now East; player 0 follows at South, player 1 at West.
    assert game.seat_of == ["S", "W", "E"]
    assert game.scores == [-10, 15, -5]
    game.record(result({"E": 8, "S": -4, "W": -4}, "E"))
    assert game.seat_of == ["S", "W", "E"] and game.scores == [-14, 11, 3]
    assert game.round_wind == "E"


def test_a_whole_game_of_random_deals_finishes():
    game = Game("kaki3", 3, max_deals=40)
    rng = random.Random(0)
    while not game.is_finished:
        state = game.start_deal()
        assert state.settings.round_wind == "E"
        while not state.is_over:
            seat = rng.choice(pending_seats(state))
            state, _ = apply(state, rng.choice(legal_actions(state, seat)))
        game.record(state.result.to_json())
    assert sum(game.scores) == 0 and game.deal_number <= 40
