"""Property tests: thousands of deals played to the end by random legal actions.

At every step: the tiles are all accounted for, no kong holds a Fei and no shown set two,
the payments so far sum to zero, and (on a sample of deals) every seat's view and the
spectator's hold nothing hidden. At the end `replay` reproduces the deal exactly.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine import (
    Action,
    DealSettings,
    apply,
    legal_actions,
    new_deal,
    pending_seats,
    replay,
    view,
)
from server.engine.deal_state import DealState
from server.engine.tiles import sorted_tiles

DEALS_PER_VARIANT = 2000
VIEW_CHECKED_DEALS = 150
PLAYER_KEYS = {"hand_count", "melds", "discards", "bonus", "drawn"}
VIEW_KEYS = {
    "variant", "seats", "me", "round_wind", "dealer", "phase", "turn", "wall_remaining",
    "last_discard", "pending", "players", "scores", "payments", "result",
}  # fmt: skip
OWN_KEYS = {"hand", "drawn_tile", "forbidden"}


def check_invariants(state: DealState, full_set: list[str]) -> None:
    assert sorted(state.all_tiles()) == full_set
    for player in state.players.values():
        for meld in player.melds:
            assert meld.fei_count <= 1
            assert not (meld.kind == "kong" and meld.fei_count)
    assert sum(state.net_scores().values()) == 0


def check_views(state: DealState) -> None:
    public = view(state, None)
    assert set(public) == VIEW_KEYS
    for seat in state.seats:
        shown = view(state, seat)
        assert set(shown) == VIEW_KEYS | OWN_KEYS
        player = state.players[seat]
        drawn = shown["drawn_tile"]
        assert sorted_tiles(shown["hand"] + ([drawn] if drawn else [])) == sorted_tiles(player.hand)
        for other in state.seats:
            assert set(shown["players"][other]) == PLAYER_KEYS
            assert isinstance(shown["players"][other]["drawn"], bool)
        # Apart from `me`'s own tiles, a player sees exactly what the spectator sees.
        without_own = {key: value for key, value in shown.items() if key not in OWN_KEYS}
        assert without_own == dict(public, me=seat)
        json.dumps(shown)


def play_random_deal(
    variant: str, seed: int, rng: random.Random, views: bool
) -> tuple[DealState, list[Action]]:
    state = new_deal(DealSettings(variant), seed)
    full_set = sorted(state.variant.tile_set)
    actions: list[Action] = []
    while not state.is_over:
        seat = rng.choice(pending_seats(state))
        legal = legal_actions(state, seat)
        assert legal, f"{seat} is pending but has nothing to do"
        action = rng.choice(legal)
        state, events = apply(state, action)
        assert all("visible_to" in event for event in events)
        actions.append(action)
        check_invariants(state, full_set)
        if views:
            check_views(state)
    result = state.result
    assert result is not None and result["outcome"] in ("win", "draw")
    assert sum(result["scores"].values()) == 0
    assert result["next_dealer"] in state.seats
    return state, actions


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_random_deals_play_to_the_end_and_replay(variant):
    rng = random.Random(f"random-play-{variant}")
    outcomes: Counter[str] = Counter()
    for seed in range(DEALS_PER_VARIANT):
        state, actions = play_random_deal(variant, seed, rng, views=seed < VIEW_CHECKED_DEALS)
        outcomes[state.result["outcome"]] += 1
        if seed % 4 == 0:
            assert replay(DealSettings(variant), seed, actions) == state
    assert outcomes["win"] > 0 and outcomes["draw"] > 0


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["hk", "kaki3"]),
    seed=st.integers(0, 2**63),
    choices=st.integers(0, 2**32),
)
def test_hypothesis_deals_replay_through_the_wire_form(variant, seed, choices):
    state, actions = play_random_deal(variant, seed, random.Random(choices), views=True)
    wire = [action.to_json() for action in actions]
    assert replay(DealSettings(variant), seed, wire) == state


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_apply_never_changes_its_input(variant):
    rng = random.Random(5)
    state = new_deal(DealSettings(variant), 11)
    while not state.is_over:
        seat = rng.choice(pending_seats(state))
        snapshot = copy.deepcopy(state)
        new_state, _ = apply(state, rng.choice(legal_actions(state, seat)))
        assert state == snapshot
        state = new_state


def test_a_timeout_ends_the_deal_and_payments_stand():
    state = new_deal(DealSettings("hk"), 3)
    state, events = apply(state, Action("timeout"))
    assert state.result["outcome"] == "timeout" and state.result["winners"] == []
    assert state.result["next_dealer"] == "E"
    assert pending_seats(state) == [] and events[-1]["type"] == "end"
