"""The typed deal result turns into the documented JSON and back without loss."""

from __future__ import annotations

import json
import random

import pytest

from server.bots import LEVELS
from server.bots.simulation import play_deal
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats, view
from server.engine.deal_result import DealOutcome, DealResult, Payment
from server.engine.variants import get_variant


def played_results(variant: str, deals: int) -> list[DealResult]:
    """Results of deals the strongest bots play: wins with shown and concealed sets,
    draws, kong payments."""
    seats = get_variant(variant).seats
    return [
        play_deal(variant, f"results:{variant}:{number}", dict.fromkeys(seats, LEVELS[-1]), [])
        for number in range(deals)
    ]


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_a_result_survives_json_and_back(variant: str) -> None:
    results = played_results(variant, 12)
    assert {result.outcome for result in results} >= {DealOutcome.WIN}
    for result in results:
        text = json.dumps(result.to_json())
        assert DealResult.from_json(json.loads(text)) == result
        # The JSON text itself is stable: encoding the read-back result gives the same bytes.
        assert json.dumps(DealResult.from_json(json.loads(text)).to_json()) == text


def test_the_result_json_has_the_documented_members_in_order() -> None:
    result = next(r for r in played_results("hk", 12) if r.outcome == DealOutcome.WIN)
    shown = result.to_json()
    assert list(shown) == ["outcome", "winners", "payments", "scores", "next_dealer"]
    assert shown["outcome"] == "win" and json.dumps(shown["outcome"]) == '"win"'
    assert list(shown["winners"][0]) == ["seat", "fan", "limit", "points", "patterns", "hand"]
    assert list(shown["winners"][0]["hand"]) == [
        "concealed",
        "sets",
        "melds",
        "bonus",
        "winning_tile",
        "self_drawn",
        "from",
    ]
    assert all(list(paid) == ["from", "to", "points", "reason"] for paid in shown["payments"])


def test_the_view_carries_the_result_as_json() -> None:
    state = new_deal(DealSettings(variant="kaki3"), "view-result")
    rng = random.Random(1)
    while not state.is_over:
        seat = rng.choice(pending_seats(state))
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    assert state.result is not None
    assert view(state, None)["result"] == state.result.to_json()


def test_a_payment_reads_back_and_refuses_a_malformed_one() -> None:
    paid = Payment("S", "E", 8, "win")
    assert Payment.from_json(paid.to_json()) == paid
    with pytest.raises(KeyError):
        Payment.from_json({"to": "E", "points": 8, "reason": "win"})
    with pytest.raises(ValueError):
        DealResult.from_json({"outcome": "lost", "next_dealer": "E"})
