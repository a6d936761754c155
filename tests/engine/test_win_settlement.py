"""The payments after a win from what the seats show (server/engine/win_settlement.py).

Each case is worked out by hand from docs/rules.md ("3 Kaki: payments", "Hong Kong").
"""

from __future__ import annotations

from server.engine.deal_result import Payment
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.settlement import Win
from server.engine.variants import HK, KAKI3, get_variant
from server.engine.win_settlement import SeatShowing, square_up_count, win_settlement

THREE_KAKI = get_variant(KAKI3)
HONG_KONG = get_variant(HK)


def test_three_kaki_discard_win_then_extra_fei_then_the_square_up():
    # South wins 8 on East's discard holding two Fei. East holds one Fei and a red pong
    # (count 1 + 2 = 3); West holds nothing (count 0): West pays East 3.
    showing = {
        "E": SeatShowing(melds=(Meld("pong", ("7z", "7z", "7z")),), fei=1),
        "S": SeatShowing(fei=2),
        "W": SeatShowing(),
    }
    payments = win_settlement(THREE_KAKI, [Win("S", 8, "E")], showing)
    assert payments == [
        Payment("E", "S", 8, "win"),
        Payment("W", "S", 4, "win"),
        Payment("E", "S", 1, "extra_fei"),
        Payment("W", "S", 2, "extra_fei"),
        Payment("W", "E", 3, "square_up"),
    ]


def test_three_kaki_liability_pays_both_shares():
    showing = {seat: SeatShowing() for seat in THREE_KAKI.seats}
    payments = win_settlement(THREE_KAKI, [Win("S", 24, "E", liable="W")], showing)
    assert payments == [Payment("W", "S", 12, "win"), Payment("W", "S", 24, "liability")]


def test_square_up_counts_a_sunk_fei_three_and_a_family_once_more():
    # West: a sunk Fei (a scoring bonus tile and a Fei: 3), the four animals (4 tiles
    # that score, and a family: 5), flower 3 (West's own: 1).
    shown = SeatShowing(bonus=("j", "1a", "2a", "3a", "4a", "3f"), fei=1)
    assert square_up_count("W", shown) == 3 + 5 + 1


def test_hong_kong_reads_no_tiles_and_follows_the_house_rule_of_who_pays():
    everyone = TableRules.from_json({"win_payment": "everyone_full"}, HK)
    wins = [Win("S", 16, "E"), Win("W", 8, "E")]
    assert win_settlement(HONG_KONG, wins, {}) == [
        Payment("E", "S", 16, "win"),
        Payment("E", "W", 8, "win"),
    ]
    # Every loser pays each winner the full value; the two winners never pay each other.
    assert win_settlement(HONG_KONG, wins, {}, everyone) == [
        Payment("E", "S", 16, "win"),
        Payment("N", "S", 16, "win"),
        Payment("E", "W", 8, "win"),
        Payment("N", "W", 8, "win"),
    ]
