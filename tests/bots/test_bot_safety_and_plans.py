"""Defence and fan estimates, on views written by hand (the bot reads nothing else)."""

from __future__ import annotations

from typing import Any

from server.bots import choose_action
from server.bots.plans import bonus_fan, honour_value
from server.bots.seat_view import read_view
from server.engine import Action, parse_tiles


def _kaki3_view(hand: str, drawn: str, east_melds: list[dict[str, Any]]) -> dict[str, Any]:
    players = {
        seat: {"hand_count": 13, "melds": [], "discards": [], "bonus": [], "drawn": False}
        for seat in ("E", "S", "W")
    }
    players["E"]["melds"] = east_melds
    players["E"]["hand_count"] = 13 - 3 * len(east_melds)
    players["S"]["bonus"] = ["2a"]
    players["S"]["drawn"] = True
    return {
        "variant": "kaki3",
        "seats": ["E", "S", "W"],
        "me": "S",
        "round_wind": "E",
        "dealer": "E",
        "phase": "discard",
        "turn": "S",
        "wall_remaining": 30,
        "last_discard": None,
        "pending": ["S"],
        "players": players,
        "hand": parse_tiles(hand),
        "drawn_tile": drawn,
        "forbidden": [],
        "scores": {},
        "payments": [],
        "result": None,
    }


def _pong(tile: str) -> dict[str, Any]:
    return {"kind": "pong", "tiles": [tile] * 3, "concealed": False, "from": "W", "claimed": tile}


# Pairs, not ready, and a lone Red dragon that shape alone would throw first.
SCATTERED = "11p 44p 99p 22p 7p 55p 7z 8p"
DRAWN = "3p"


def test_holds_the_third_dragon_against_two_shown_dragon_sets() -> None:
    seat_view = _kaki3_view(SCATTERED, DRAWN, [_pong("5z"), _pong("6z")])
    legal = [Action("discard", "S", t) for t in sorted(set(seat_view["hand"] + [DRAWN]))]
    assert choose_action(seat_view, legal, "full").tile != "7z"


def test_throws_the_lone_dragon_when_nobody_shows_dragon_sets() -> None:
    seat_view = _kaki3_view(SCATTERED, DRAWN, [_pong("1p"), _pong("9p")])
    legal = [Action("discard", "S", t) for t in sorted(set(seat_view["hand"] + [DRAWN]))]
    # Without the liability danger the same hand gives up an isolated honour.
    assert choose_action(seat_view, legal, "full").tile == "7z"


def test_unseen_counts_what_the_seat_can_see() -> None:
    seat = read_view(_kaki3_view(SCATTERED, DRAWN, [_pong("5z"), _pong("6z")]))
    assert seat.unseen_count("5z") == 1  # three shown in East's pong
    assert seat.unseen_count("1p") == 2  # two in South's own hand
    assert seat.unseen_count("j") == 4


def test_bonus_fan_counts_own_number_the_fours_animals_and_sunk_fei() -> None:
    # South is seat number 2: 2f and 4n score, 3f does not; each animal, face and Fei does.
    assert bonus_fan(("2f", "3f", "4n", "1a", "2c", "j"), "S") == 5
    assert bonus_fan(("1f", "2f", "3f", "4f"), "E") == 2 + 1  # own, the 4, all four flowers


def test_honour_value_by_seat_and_table() -> None:
    south = read_view(_kaki3_view(SCATTERED, DRAWN, []))
    assert honour_value("5z", south) == 1  # a dragon
    assert honour_value("2z", south) == 1  # South's own wind
    assert honour_value("3z", south) == 0  # West's wind scores nothing for South
    assert honour_value("4z", south) == 1  # North scores for everyone at 3 Kaki
    assert honour_value("1z", south) == 1  # East, the round wind
