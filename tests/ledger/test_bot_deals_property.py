"""Property: a bots' deal entered into the ledger pays exactly what the deal paid.

For random bot deals (random house rules too), the ledger is told each deal's winning
hand and how it was won, the losers' tiles as they stood at its end, the kongs made and
the families completed (`tests/ledger/deal_entries.py`). It must then pay, hand by hand,
exactly the deal's stored payments, and name the deal's next dealer. Up to three deals go
into one ledger, so the seats follow the ledger's own moving of the deal.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.rules import (
    FAN_CAP_CHOICES,
    MIN_FAN_CHOICES,
    PAYMENT_CHOICES,
    POINTS_CHOICES,
    TableRules,
)
from server.engine.variants import get_variant
from server.ledger import HandEntry, LedgerSetup, reckon_night
from tests.ledger.deal_entries import entry_json, play_bot_deal, seat_payments

PROFILE = settings.get_profile("ledger_bot_deals")


def house_rules(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "min_fan": st.sampled_from(MIN_FAN_CHOICES[variant]),
            "fan_cap": st.sampled_from(FAN_CAP_CHOICES[variant]),
            "points": st.sampled_from(POINTS_CHOICES[variant]),
            "win_payment": st.sampled_from(PAYMENT_CHOICES[variant]),
        }
    )


def check_deals(variant: str, rules_json: dict[str, Any], seeds: list[int]) -> None:
    rules = TableRules.from_json(rules_json, variant)
    seats = get_variant(variant).seats
    setup = LedgerSetup.checked(variant, [f"P{n}" for n in range(len(seats))], rules_json)
    entries: list[HandEntry] = []
    for seed in seeds:
        coming = reckon_night(setup, entries).coming
        deal = play_bot_deal(variant, f"ledger-{seed}", rules)
        entries.append(
            setup.read_entry(entry_json(deal, {seat: coming.player_at(seat) for seat in seats}))
        )
        hand = reckon_night(setup, entries).hands[-1]
        seat_of = hand.seating.seat_of
        paid = sorted(
            (seat_of[p.payer], seat_of[p.payee], p.points, p.reason)
            for p in hand.reckoning.payments
        )
        assert paid == seat_payments(deal.result), (seed, deal.result.to_json())
        assert seat_of[hand.reckoning.next_dealer] == deal.result.next_dealer
        assert {seat_of[p]: n for p, n in enumerate(hand.net)} == dict(deal.result.scores)


@settings(PROFILE)
@given(house_rules("kaki3"), st.lists(st.integers(0, 10**9), min_size=1, max_size=3))
def test_three_kaki_bot_deals_pay_the_same_in_the_ledger(rules, seeds) -> None:
    check_deals("kaki3", rules, seeds)


@settings(PROFILE, max_examples=max(2, PROFILE.max_examples // 3))
@given(house_rules("hk"), st.lists(st.integers(0, 10**9), min_size=1, max_size=2))
def test_hong_kong_bot_deals_pay_the_same_in_the_ledger(rules, seeds) -> None:
    check_deals("hk", rules, seeds)
