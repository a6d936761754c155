"""Who deals next, where the players then sit, and the round wind (server/engine/dealership.py)."""

from __future__ import annotations

import pytest

from server.engine.dealership import next_dealer, round_wind, seats_after
from server.engine.variants import HK, KAKI3, get_variant

HONG_KONG = get_variant(HK)
THREE_KAKI = get_variant(KAKI3)


@pytest.mark.parametrize(
    ("winners", "expected"),
    [((), "E"), (("E",), "E"), (("S",), "S"), (("W", "E"), "E"), (("N", "W"), "S")],
)
def test_hong_kong_the_dealer_keeps_on_a_dealer_win_or_a_draw(winners, expected):
    assert next_dealer(HONG_KONG, winners, last_drawer="W") == expected


def test_three_kaki_the_winner_deals_and_after_a_draw_the_last_to_draw():
    assert next_dealer(THREE_KAKI, ("W",), last_drawer="S") == "W"
    assert next_dealer(THREE_KAKI, (), last_drawer="S") == "S"
    assert next_dealer(THREE_KAKI, (), last_drawer=None) == "E"


def test_seats_follow_the_new_dealer_in_turn_order():
    # Players 0, 1, 2 sat E, S, W; player 2 (West) deals next.
    assert seats_after(THREE_KAKI, ("E", "S", "W"), "W") == ("S", "W", "E")
    assert seats_after(HONG_KONG, ("N", "E", "S", "W"), "S") == ("W", "N", "E", "S")
    assert seats_after(HONG_KONG, ("E", "S", "W", "N"), "E") == ("E", "S", "W", "N")
    with pytest.raises(ValueError, match="not a seat"):
        seats_after(THREE_KAKI, ("E", "S", "W"), "N")


def test_the_round_wind_moves_after_the_deal_passed_every_seat_and_wraps():
    assert [round_wind(HONG_KONG, passes) for passes in (0, 3, 4, 8, 15, 16)] == [
        "E",
        "E",
        "S",
        "W",
        "N",
        "E",
    ]
    assert {round_wind(THREE_KAKI, passes) for passes in range(20)} == {"E"}
