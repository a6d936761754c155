"""Settling up: exact amounts, the fewest transfers (checked against a brute force), the
text to paste, and a night of several games."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.settle_up import (
    EXACT_PLAYERS,
    HONG_KONG_DOLLAR,
    RINGGIT,
    PointValue,
    SettleUpError,
    english_amount,
    night_balances,
    render_text,
    settle_up,
)

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hu", "Ivy", "Jo", "Kit", "Lee")


@st.composite
def balances(draw: st.DrawFn, max_players: int = 6) -> dict[str, int]:
    """Balances summing to zero; small values so that zero-sum subgroups are common."""
    count = draw(st.integers(2, max_players))
    values = draw(st.lists(st.integers(-30, 30), min_size=count - 1, max_size=count - 1))
    return dict(zip(NAMES[:count], [*values, -sum(values)], strict=True))


def settled_balances(transfers, players) -> dict[str, int]:
    left = dict.fromkeys(players, 0)
    for transfer in transfers:
        assert transfer.points > 0
        assert transfer.payer != transfer.payee
        left[transfer.payer] -= transfer.points
        left[transfer.payee] += transfer.points
    return left


def fewer_transfers_exist(points: dict[str, int], count: int) -> bool:
    """Brute force: is there any set of `count` payer-payee pairs that can settle all?

    A set of pairs can settle the balances exactly when every connected part of its
    graph sums to zero (amounts then follow along a spanning tree of each part).
    """
    players = [player for player, value in points.items() if value != 0]
    pairs = list(combinations(players, 2))
    for edges in combinations(pairs, count):
        part = {player: player for player in players}

        def root(player: str, part: dict[str, str] = part) -> str:
            while part[player] != player:
                player = part[player]
            return player

        for first, second in edges:
            part[root(first)] = root(second)
        sums: dict[str, int] = {}
        for player in players:
            sums[root(player)] = sums.get(root(player), 0) + points[player]
        if all(total == 0 for total in sums.values()):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(balances())
def test_transfers_settle_every_balance_with_the_fewest_transfers(points):
    settlement = settle_up(points)
    left = settled_balances(settlement.transfers, points)
    # What each player pays out and takes in comes to their balance exactly.
    assert left == points
    count = len(settlement.transfers)
    assert not any(fewer_transfers_exist(points, fewer) for fewer in range(count))


@settings(max_examples=40, deadline=None)
@given(balances(max_players=EXACT_PLAYERS))
def test_a_night_of_up_to_twelve_players_settles_exactly(points):
    settlement = settle_up(points, PointValue(RINGGIT, 10))
    left = settled_balances(settlement.transfers, points)
    assert left == points
    assert all(t.amount == t.points * 10 for t in settlement.transfers)
    assert len(settlement.transfers) <= max(0, sum(1 for value in points.values() if value) - 1)


def test_beyond_the_exact_limit_the_greedy_pairing_still_settles():
    names = [f"p{index:02d}" for index in range(EXACT_PLAYERS + 4)]
    values = [(index * 37) % 23 - 11 for index in range(len(names) - 1)]
    points = dict(zip(names, [*values, -sum(values)], strict=True))
    settlement = settle_up(points)
    left = settled_balances(settlement.transfers, points)
    assert left == points
    assert len(settlement.transfers) <= max(0, sum(1 for value in points.values() if value) - 1)


def test_two_pairs_that_cancel_need_two_transfers_not_three():
    settlement = settle_up({"Ana": -5, "Bo": 5, "Cy": -7, "Di": 7})
    assert [(t.payer, t.payee, t.points) for t in settlement.transfers] == [
        ("Ana", "Bo", 5),
        ("Cy", "Di", 7),
    ]


def test_the_text_in_ringgit_and_hong_kong_dollars():
    game = {"Ana": -142, "Bo": 142, "Cy": 0}
    ringgit = settle_up(game, PointValue(RINGGIT, 10))
    assert render_text(ringgit) == "Ana pays Bo RM 14.20"
    dollars = settle_up(game, PointValue(HONG_KONG_DOLLAR, 100))
    assert render_text(dollars) == "Ana pays Bo HK$142.00"
    assert render_text(settle_up(game)) == "Ana pays Bo 142 points"
    assert render_text(settle_up({"Ana": 0, "Bo": 0})) == "Everyone is square."
    assert english_amount(1, settle_up(game).value.currency) == "1 point"
    assert english_amount(123456, RINGGIT) == "RM 1,234.56"
    assert english_amount(5, RINGGIT) == "RM 0.05"


def test_a_client_can_render_its_own_language():
    settlement = settle_up({"Ana": -3, "Bo": 3}, PointValue(RINGGIT, 10))
    text = render_text(
        settlement,
        format_amount=lambda amount, currency: f"{amount / 100:.2f} {currency.code}",
        line="{payer} bayar {payee} {amount}",
    )
    assert text == "Ana bayar Bo 0.30 MYR"
    assert settlement.to_json()["transfers"] == [
        {"from": "Ana", "to": "Bo", "points": 3, "amount_minor": 30, "currency": "MYR"}
    ]


def test_a_night_sums_the_games_per_player():
    games = [
        {"Ana": 24, "Bo": -12, "Cy": -12},
        {"Ana": -8, "Bo": 16, "Cy": -8},
        {"Ana": 0, "Bo": -4, "Cy": 4, "Di": 0},
    ]
    night = night_balances(games)
    assert night == {"Ana": 16, "Bo": 0, "Cy": -16, "Di": 0}
    assert render_text(settle_up(night, PointValue(RINGGIT, 10))) == "Cy pays Ana RM 1.60"


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"Ana": 3, "Bo": -2}, "sum to 1"),
        ({"Ana": 1.5, "Bo": -1.5}, "Ana's balance must be a whole number"),
        ({"Ana": True, "Bo": -1}, "Ana's balance must be a whole number"),
    ],
)
def test_bad_balances_get_a_clear_error(points, message):
    with pytest.raises(SettleUpError, match=message):
        settle_up(points)


def test_a_point_value_must_be_positive_and_whole():
    for bad in (0, -10, 0.1):
        with pytest.raises(SettleUpError, match="whole positive"):
            PointValue(RINGGIT, bad)


def test_a_point_value_reads_and_writes_json():
    value = PointValue.from_json({"currency": "MYR", "minor_per_point": 10})
    assert value == PointValue(RINGGIT, 10)
    assert PointValue.from_json(value.to_json()) == value
    assert PointValue.from_json({"currency": "points"}).minor_per_point == 1
    for bad, field in (
        ({"currency": "USD", "minor_per_point": 1}, "currency"),
        ({"currency": "HKD", "minor_per_point": "100"}, "whole positive"),
        ({"currency": "points", "minor_per_point": 5}, "minor_per_point"),
        ({"currency": "HKD", "rate": 1}, "rate"),
        ("RM 0.10", "expected an object"),
    ):
        with pytest.raises(SettleUpError, match=field):
            PointValue.from_json(bad)
