"""Bad input gets a clear error and changes nothing: any action on any state."""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine import (
    Action,
    DealSettings,
    EngineError,
    IllegalActionError,
    apply,
    legal_actions,
    new_deal,
    pending_seats,
)
from server.engine.actions import ACTION_TYPES, CLAIM_TYPES
from server.engine.tiles import ALL_TILE_KINDS, SEATS, sorted_tiles

tiles = st.sampled_from(ALL_TILE_KINDS)
actions = st.builds(
    Action,
    type=st.sampled_from([t for t in ACTION_TYPES if t != "timeout"]),
    seat=st.sampled_from([*SEATS, None]),
    tile=st.none() | tiles,
    tiles=st.none() | st.lists(tiles, min_size=1, max_size=3).map(tuple),
    fei_as=st.none() | tiles,
)


@settings(max_examples=300, deadline=None)
@given(
    variant=st.sampled_from(["hk", "kaki3"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    action=actions,
)
def test_any_action_is_applied_or_refused_cleanly(variant, seed, steps, action):
    rng = random.Random(seed)
    state = new_deal(DealSettings(variant), seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = rng.choice(pending_seats(state))
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    snapshot = copy.deepcopy(state)
    legal = legal_actions(state, action.seat) if action.seat in SEATS else []
    try:
        apply(state, action)
    except IllegalActionError as error:
        assert error.code and str(error)
    except EngineError:
        pass
    else:
        # Accepted: it is a listed action (a turn action may carry fields it does not use).
        if action.type in CLAIM_TYPES:
            assert normalised(action) in legal
        else:
            uses_tile = action.type not in ("pass", "win", "sink")
            assert any(
                a.type == action.type and (a.tile == action.tile or not uses_tile) for a in legal
            )
    assert state == snapshot


def normalised(action: Action) -> Action:
    tiles = tuple(sorted_tiles(action.tiles)) if action.tiles else None
    return Action(action.type, action.seat, action.tile, tiles, action.fei_as)
