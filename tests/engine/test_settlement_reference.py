"""The engine's settlement against a hand-written one, over random bot deals.

Each deal is played by the bots (now and then a random legal move instead, so kongs,
sinks, swaps and odd claims turn up more often), recorded as a watcher would write it
down, and replayed from its seed and actions. The replay's payments must add up, per seat
and per reason, to the payments `reference_settlement.settle` works out by hand from the
record, and each winner's fan must be the reference scorer's on the winning hand with the
win flags read from the record.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from server.bots import choose_action
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats, replay, view
from server.engine.deal_state import DealState
from tests.engine.reference_settlement import (
    DealRecord,
    Step,
    seat_totals,
    settle,
    totals_of,
)

DEALS = {"hk": 120, "kaki3": 400}
# Rare settlements, reached by these later deal numbers: two Hong Kong winners on one
# discard (2 deals in 700), 3 Kaki dragon liability (3 deals in 1,500).
RARE_DEALS = {"hk": [203, 657], "kaki3": [455, 753, 1165]}
RANDOM_MOVE_ODDS = 0.08
MAX_ACTIONS = 5_000


def _final_seats(state: DealState) -> dict[str, dict[str, Any]]:
    return {
        seat: {
            "hand": list(player.hand),
            "melds": [meld.to_json() for meld in player.melds],
            "bonus": list(player.bonus),
        }
        for seat, player in state.players.items()
    }


def play_recorded(variant: str, seed: str) -> tuple[DealRecord, list[dict[str, Any]]]:
    """Play one deal; returns its record and the actions taken (wire form)."""
    settings = DealSettings(variant=variant)
    state = new_deal(settings, seed)
    moves = random.Random(f"moves:{seed}")
    record = DealRecord(variant, {seat: list(p.bonus) for seat, p in state.players.items()})
    actions: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        wins = [action for action in legal if action.type == "win"]
        if not wins and moves.random() < RANDOM_MOVE_ODDS:
            action = moves.choice(legal)
        else:
            action = choose_action(view(state, seat), legal, moves.choice(("full", "baseline")))
        phase, wall = state.phase, state.wall_remaining
        state, events = apply(state, action)
        record.steps.append(Step(action.to_json(), phase, wall, events))
        actions.append(action.to_json())
    assert state.is_over and state.result is not None
    record.final = _final_seats(state)
    record.result = state.result.to_json()
    return record, actions


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_the_replayed_settlement_matches_one_worked_out_by_hand(variant: str) -> None:
    seen: Counter[str] = Counter()
    for number in [*range(DEALS[variant]), *RARE_DEALS[variant]]:
        seed = f"settlement:{variant}:{number}"
        record, actions = play_recorded(variant, seed)
        replayed = replay(DealSettings(variant=variant), seed, actions)
        assert replayed.result is not None
        result = replayed.result.to_json()
        assert result == record.result, seed
        seen[f"outcome {result['outcome']}"] += 1
        seen[f"{len(result['winners'])} winners"] += 1
        expected, checks = settle(record)
        for check, winner in zip(checks, result["winners"], strict=True):
            reference = check.reference
            assert (reference.fan, reference.limit, reference.points) == (
                winner["fan"],
                winner["limit"],
                winner["points"],
            ), f"{seed}: {winner['seat']} scored {check.hand}"
            patterns = tuple(sorted((p["id"], p["fan"]) for p in winner["patterns"]))
            assert patterns in reference.pattern_choices, f"{seed}: {check.hand} {patterns}"
        actual = totals_of(result["payments"])
        assert actual == expected, f"{seed}: payments {result['payments']}"
        assert dict(seat_totals(actual)) == {s: n for s, n in result["scores"].items() if n}
        for reason, _ in actual:
            seen[reason] += 1
    # The deals reached every kind of payment the table has.
    reasons = ["win", "kong"] + (
        ["family", "extra_fei", "square_up", "liability"] if variant == "kaki3" else []
    )
    assert {reason: seen[reason] for reason in reasons if not seen[reason]} == {}, seen
    assert seen["outcome win"] >= DEALS[variant] // 3, seen
    if variant == "hk":
        assert seen["2 winners"], seen
