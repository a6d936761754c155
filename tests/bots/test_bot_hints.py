"""A hint is exactly the bot's move, with a reason drawn from the same view."""

from __future__ import annotations

import random

import pytest

from server.bots import choose_action
from server.bots.hints import hint, move_reason
from server.engine import Action, DealSettings, apply, legal_actions, new_deal, pending_seats, view

REASONS = {
    "keep_honour_pair",
    "discard_ready",
    "discard_steps",
    "claim",
    "pass",
    "win",
    "sink",
    "swap",
    "concealed_kong",
    "added_kong",
}


@pytest.mark.parametrize("variant", ["kaki3", "hk"])
def test_hints_match_the_full_bot_and_give_a_known_reason(variant: str) -> None:
    seen: set[str] = set()
    for seed in range(4):
        state = new_deal(DealSettings(variant=variant), seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = pending_seats(state)[0]
            legal = legal_actions(state, seat)
            seat_view = view(state, seat)
            given = hint(seat_view, legal, "full")
            chosen = choose_action(seat_view, legal, "full")
            assert Action.from_json(given["action"], seat=seat) == chosen
            assert given["reason"]["id"] in REASONS
            seen.add(given["reason"]["id"])
            # Play on at random so the positions are varied, not only the bot's own line.
            state, _ = apply(state, rng.choice(legal) if rng.random() < 0.3 else chosen)
    assert {"discard_steps", "pass"} <= seen


def test_keeping_a_dragon_pair_is_the_reason_worded_with_its_fan() -> None:
    seat_view = {
        "variant": "hk",
        "me": "S",
        "round_wind": "E",
        "hand": ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "7z", "7z", "1z", "3z"],
        "drawn_tile": "9m",
    }
    reason = move_reason(seat_view, Action("discard", "S", tile="1z"))
    assert reason == {
        "id": "keep_honour_pair",
        "params": {"tile": "1z", "pair": "7z", "pattern": "dragon_set", "fan": 1},
    }
