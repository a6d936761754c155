"""Game length and seating as a room plays them (the engine's Game, set up by server/rooms/seating)."""

from __future__ import annotations

from server.engine.game import Game
from server.engine.scoring import FAN_CAP, MIN_FAN
from server.engine.variants import VARIANTS
from server.rooms.seating import (
    deals_total,
    new_game,
    record_result,
    seat_players,
    shown_round_wind,
)
from server.rooms.settings import RoomSettings


def finish(game: Game, next_dealer: str | None) -> None:
    record_result(game, {"scores": {}, "next_dealer": next_dealer})


def test_hong_kong_rotates_the_deal_and_the_round_wind() -> None:
    game = new_game(RoomSettings(variant="hk", rounds=2))
    assert seat_players(game) == {"E": 0, "S": 1, "W": 2, "N": 3}
    # The dealer keeps the deal (a dealer win, a draw or a timeout): nothing moves.
    finish(game, "E")
    assert game.player_at("E") == 0 and game.round_wind == "E" and not game.is_finished
    # South wins: the deal passes one seat on, and player 1 now sits East.
    finish(game, "S")
    assert seat_players(game) == {"E": 1, "S": 2, "W": 3, "N": 0}
    for _ in range(3):
        finish(game, "S")
    assert game.passes == 4 and game.round_wind == "S" and game.player_at("E") == 0
    assert not game.is_finished
    for _ in range(4):
        finish(game, "S")
    assert game.is_finished and game.deal_number == 9
    assert deals_total(RoomSettings(variant="hk")) is None


def test_a_finished_four_round_game_still_shows_a_round_wind() -> None:
    game = new_game(RoomSettings(variant="hk", rounds=4))
    for _ in range(16):
        finish(game, "S")
    assert game.is_finished and shown_round_wind(game) == "N"


def test_a_result_without_next_dealer_keeps_the_dealer() -> None:
    game = new_game(RoomSettings(variant="hk"))
    finish(game, None)
    assert seat_players(game)["E"] == 0 and game.deal_number == 1


def test_three_kaki_plays_three_deals_a_round_and_the_winner_deals() -> None:
    settings = RoomSettings(variant="kaki3", rounds=1)
    game = new_game(settings)
    assert deals_total(settings) == 3 and game.round_wind == "E"
    finish(game, "W")  # West (player 2) won: player 2 deals next
    assert seat_players(game) == {"E": 2, "S": 0, "W": 1}
    finish(game, "E")  # the dealer again
    assert seat_players(game) == {"E": 2, "S": 0, "W": 1} and not game.is_finished
    finish(game, "S")
    assert game.is_finished and shown_round_wind(game) == "E"


def test_three_kaki_game_length_is_counted_in_deals_not_passes() -> None:
    # Two rounds are six deals, even when the dealer keeps the deal every time.
    game = new_game(RoomSettings(variant="kaki3", rounds=2))
    for _ in range(5):
        finish(game, "E")
    assert not game.is_finished
    finish(game, "E")
    assert game.is_finished


def test_a_room_takes_its_seats_and_game_length_from_the_variant() -> None:
    hk, kaki3 = VARIANTS["hk"], VARIANTS["kaki3"]
    assert RoomSettings(variant="hk").seats == hk.seats == ("E", "S", "W", "N")
    assert RoomSettings(variant="kaki3").seats == kaki3.seats == ("E", "S", "W")
    assert deals_total(RoomSettings(variant="kaki3", rounds=2)) == 2 * kaki3.deals_per_round == 6
    assert deals_total(RoomSettings(variant="hk", rounds=2)) is None
    assert (MIN_FAN, FAN_CAP) == ({"hk": 3, "kaki3": 5}, {"hk": 8, "kaki3": 10})
