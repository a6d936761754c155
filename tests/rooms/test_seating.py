"""Game length and seating: who deals next, the round wind, and when the game is over."""

from __future__ import annotations

from server.rooms.seating import GameProgress


def test_hong_kong_rotates_the_deal_and_the_round_wind() -> None:
    game = GameProgress(variant="hk", rounds=2)
    assert game.seat_players() == {"E": 0, "S": 1, "W": 2, "N": 3}
    # The dealer keeps the deal (a dealer win, a draw or a timeout): nothing moves.
    game.finish_deal(game.seat_players(), "E")
    assert game.dealer_player == 0 and game.round_wind == "E" and not game.game_over
    # South wins: the deal passes one seat on, and player 1 now sits East.
    game.finish_deal(game.seat_players(), "S")
    assert game.seat_players() == {"E": 1, "S": 2, "W": 3, "N": 0}
    for _ in range(3):
        game.finish_deal(game.seat_players(), "S")
    assert game.dealer_passes == 4 and game.round_wind == "S" and game.dealer_player == 0
    assert not game.game_over
    for _ in range(4):
        game.finish_deal(game.seat_players(), "S")
    assert game.game_over and game.deals_played == 9
    assert game.deals_total is None


def test_three_kaki_plays_three_deals_a_round_and_the_winner_deals() -> None:
    game = GameProgress(variant="kaki3", rounds=1)
    assert game.deals_total == 3 and game.round_wind == "E"
    game.finish_deal(game.seat_players(), "W")  # West (player 2) won: player 2 deals next
    assert game.seat_players() == {"E": 2, "S": 0, "W": 1}
    game.finish_deal(game.seat_players(), "E")  # the dealer again
    assert game.seat_players() == {"E": 2, "S": 0, "W": 1} and not game.game_over
    game.finish_deal(game.seat_players(), "S")
    assert game.game_over and game.round_wind == "E"
