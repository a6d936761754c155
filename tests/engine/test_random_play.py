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
from collections.abc import Callable

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
from server.engine.hand import shanten
from server.engine.tiles import sorted_tiles

# 2,000 deals per table, in ten chunks so that each test stays well under 30 s.
CHUNKS = 10
DEALS_PER_CHUNK = 200
VIEW_CHECKED_DEALS = 12  # per chunk: views are checked at every step of these deals
REPLAYED_EVERY = 4  # every 4th deal is replayed and compared with the played state
PLAYER_KEYS = {"hand_count", "melds", "discards", "bonus", "drawn"}
VIEW_KEYS = {
    "variant", "seats", "me", "round_wind", "dealer", "phase", "turn", "wall_remaining",
    "last_discard", "pending", "players", "scores", "payments", "result",
}  # fmt: skip
OWN_KEYS = {"hand", "drawn_tile", "forbidden"}
Chooser = Callable[[DealState, str, list[Action], random.Random], Action]


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


def random_choice(state: DealState, seat: str, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


def greedy_choice(state: DealState, seat: str, legal: list[Action], rng: random.Random) -> Action:
    """Win when possible, usually throw a tile that keeps the hand closest to ready.

    Uniform random play almost never wins a Hong Kong deal (3 fan); this chooser does, so
    the settlement of wins is exercised at both tables.
    """
    wins = [action for action in legal if action.type == "win"]
    if wins:
        return wins[0]
    discards = [action for action in legal if action.type == "discard"]
    if not discards or rng.random() < 0.1:
        return rng.choice(legal)
    hand = state.players[seat].hand

    def distance(action: Action) -> int:
        rest = list(hand)
        rest.remove(action.tile or "")
        return shanten(rest, state.variant.name)

    best = min(distance(action) for action in discards)
    return rng.choice([action for action in discards if distance(action) == best])


def play_random_deal(
    variant: str, seed: int, rng: random.Random, views: bool, choose: Chooser = random_choice
) -> tuple[DealState, list[Action]]:
    state = new_deal(DealSettings(variant), seed)
    full_set = sorted(state.variant.tile_set)
    actions: list[Action] = []
    while not state.is_over:
        seat = rng.choice(pending_seats(state))
        legal = legal_actions(state, seat)
        assert legal, f"{seat} is pending but has nothing to do"
        action = choose(state, seat, legal, rng)
        state, events = apply(state, action)
        assert all("visible_to" in event for event in events)
        actions.append(action)
        check_invariants(state, full_set)
        if views:
            check_views(state)
    result = state.result.to_json()
    assert result is not None and result["outcome"] in ("win", "draw")
    assert sum(result["scores"].values()) == 0
    assert result["next_dealer"] in state.seats
    return state, actions


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_random_deals_play_to_the_end_and_replay(variant, chunk):
    rng = random.Random(f"random-play-{variant}-{chunk}")
    outcomes: Counter[str] = Counter()
    for index in range(DEALS_PER_CHUNK):
        seed = chunk * DEALS_PER_CHUNK + index
        state, actions = play_random_deal(variant, seed, rng, views=index < VIEW_CHECKED_DEALS)
        outcomes[state.result.outcome] += 1
        if index % REPLAYED_EVERY == 0:
            assert replay(DealSettings(variant), seed, actions) == state
    assert outcomes["draw"] > 0
    if variant == "kaki3":
        assert outcomes["win"] > 0, "random play wins some 3 Kaki deals"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_greedy_deals_win_and_settle(variant):
    rng = random.Random(f"greedy-{variant}")
    winners = 0
    for seed in range(60):
        state, actions = play_random_deal(variant, seed, rng, views=seed < 10, choose=greedy_choice)
        result = state.result.to_json()
        winners += len(result["winners"])
        for winner in result["winners"]:
            received = sum(
                p["points"]
                for p in result["payments"]
                if p["to"] == winner["seat"] and p["reason"] in ("win", "liability")
            )
            assert received >= winner["points"]
        if seed % 5 == 0:
            assert replay(DealSettings(variant), seed, actions) == state
    assert winners > 0


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
    assert state.result.outcome == "timeout" and state.result.to_json()["winners"] == []
    assert state.result.next_dealer == "E"
    assert pending_seats(state) == [] and events[-1]["type"] == "end"
