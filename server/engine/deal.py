"""The deal state machine: the public entry points of docs/engine.md.

`new_deal` / `deal_from_wall` start a deal, `legal_actions` lists what a seat may do,
`apply` carries out one action and returns a new state with the events it caused, and
`pending_seats` says who owes a decision. The rules themselves live in `turns.py` (the
player to act), `claims.py` (claim and rob windows), `draws.py` and `deal_end.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from server.engine.actions import CHOW, KONG, PASS, TIMEOUT, WIN, Action
from server.engine.claims import decide, undecided_seats
from server.engine.deal_end import finish_without_winner
from server.engine.deal_result import DealOutcome
from server.engine.deal_state import (
    CLAIM_PHASE,
    DISCARD_PHASE,
    ROB_PHASE,
    DealSettings,
    DealState,
    Event,
    SeatState,
)
from server.engine.draws import lay_out_dealt_bonus_tiles
from server.engine.errors import ActionFormatError, IllegalActionError
from server.engine.short_win import short_win
from server.engine.tiles import Tile, format_tiles, parse_tiles, sorted_tiles
from server.engine.turns import apply_turn_action, turn_actions
from server.engine.variants import get_variant
from server.engine.wall import check_deal, shuffled_deal


def new_deal(settings: DealSettings, seed: int | str) -> DealState:
    """Shuffle with `random.Random(seed)`, deal, and lay out bonus tiles. East is to play."""
    variant = get_variant(settings.variant)
    hands, wall = shuffled_deal(variant, seed)
    return _start(settings, hands, wall)


def deal_from_wall(
    settings: DealSettings, hands: Mapping[str, Sequence[Tile] | str], wall: Sequence[Tile] | str
) -> DealState:
    """A fixed deal: `hands` by seat, `wall` first drawn first (notation strings allowed).

    Raises `WallError` unless hands and wall hold the variant's tile set exactly once and
    each hand has its size (East 14, the others 13).
    """
    variant = get_variant(settings.variant)
    parsed = {
        seat: parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
        for seat, tiles in hands.items()
    }
    wall_tiles = parse_tiles(wall) if isinstance(wall, str) else list(wall)
    check_deal(variant, parsed, wall_tiles)
    return _start(settings, parsed, wall_tiles)


def _start(settings: DealSettings, hands: Mapping[str, list[Tile]], wall: list[Tile]) -> DealState:
    variant = get_variant(settings.variant)
    state = DealState(
        settings=settings,
        variant=variant,
        wall=tuple(wall),
        front=0,
        back=len(wall),
        players={seat: SeatState(list(hands[seat])) for seat in variant.seats},
    )
    if variant.has_bonus_tiles:
        lay_out_dealt_bonus_tiles(state, [])
    return state


def pending_seats(state: DealState) -> list[str]:
    """Seats that owe a decision now: the player to act, or each seat still deciding a claim."""
    if state.phase == DISCARD_PHASE:
        return [state.turn]
    if state.phase in (CLAIM_PHASE, ROB_PHASE):
        return undecided_seats(state)
    return []


def legal_actions(state: DealState, seat: str) -> list[Action]:
    """What `seat` may do now; empty when it owes no decision."""
    if state.phase == DISCARD_PHASE:
        return turn_actions(state) if seat == state.turn else []
    if (
        state.phase in (CLAIM_PHASE, ROB_PHASE)
        and seat in state.options
        and seat not in state.decisions
    ):
        return list(state.options[seat])
    return []


def apply(state: DealState, action: Action) -> tuple[DealState, list[Event]]:
    """Carry out `action` and return the new state and the events it caused.

    `state` is never changed. Raises `IllegalActionError(message, code)` for an action
    the rules do not allow where the deal stands.
    """
    if not isinstance(action, Action):
        raise IllegalActionError(f"expected an Action, got {type(action).__name__}", "bad_action")
    if state.is_over:
        raise IllegalActionError("the deal is over", "deal_over")
    if action.tiles is not None and list(action.tiles) != sorted_tiles(action.tiles):
        # Claims are listed with their tiles in canonical order; accept any order.
        action = Action(
            action.type, action.seat, action.tile, tuple(sorted_tiles(action.tiles)), action.fei_as
        )
    events: list[Event] = []
    if action.type == TIMEOUT:
        new_state = state.copy()
        finish_without_winner(new_state, events, DealOutcome.TIMEOUT)
        return new_state, events
    seat = action.seat
    if seat not in state.seats:
        raise IllegalActionError(f"an action needs a seat of this table, got {seat!r}", "bad_seat")
    try:
        if state.phase == DISCARD_PHASE:
            if seat != state.turn:
                raise IllegalActionError(
                    f"it is {state.turn}'s turn, not {seat}'s", "not_your_turn"
                )
            new_state = state.copy()
            apply_turn_action(new_state, action, events)
        else:
            _check_decision(state, action)
            new_state = state.copy()
            decide(new_state, action, events)
    except IllegalActionError:
        # A win refused because it falls short of the minimum says so, not what the deal
        # moved on to (no window opens for a short win, so play went straight on).
        short = short_win(state, seat) if action.type == WIN else None
        if short is not None:
            raise IllegalActionError(short.text, "below_min_fan") from None
        raise
    new_state.self_win_memo.clear()
    return new_state, events


def _check_decision(state: DealState, action: Action) -> None:
    """Raise unless `action` is one of the choices its seat has in the open window."""
    seat = action.seat
    assert seat is not None
    # A chow out of turn is refused for what it is, even from a seat with nothing to decide.
    if (
        action.type == CHOW
        and state.phase == CLAIM_PHASE
        and state.last_discard is not None
        and seat not in (state.last_discard[0], state.variant.next_seat(state.last_discard[0]))
    ):
        discarder = state.last_discard[0]
        raise IllegalActionError(
            f"{seat} cannot chow from {discarder}, only from the player before", "chow_not_next"
        )
    if action.type == KONG and state.wall_remaining <= 0:
        raise IllegalActionError("no kong: no replacement tile is left to draw", "no_replacement")
    if seat not in state.options or seat in state.decisions:
        waiting = ", ".join(undecided_seats(state)) or "nobody"
        raise IllegalActionError(
            f"{seat} has no decision to make now (waiting for {waiting})", "no_decision_owed"
        )
    if action in state.options[seat]:
        return
    what = "the kong being added" if state.phase == ROB_PHASE else "the discard"
    if state.phase == CLAIM_PHASE and state.last_discard is not None:
        discarder, tile = state.last_discard
        what = f"{tile} from {discarder}"
    if action.type == PASS:
        raise IllegalActionError(f"{seat} cannot pass now", "illegal_claim")
    tiles = f" with {format_tiles(action.tiles)}" if action.tiles else ""
    raise IllegalActionError(f"{seat} cannot {action.type}{tiles} on {what}", "illegal_claim")


def replay(
    settings: DealSettings, seed: int | str, actions: Iterable[Action | dict[str, Any]]
) -> DealState:
    """`new_deal(settings, seed)`, then each action in turn (wire dicts are read too)."""
    state = new_deal(settings, seed)
    for index, action in enumerate(actions):
        if isinstance(action, dict):
            try:
                action = Action.from_json(action)
            except ActionFormatError as error:
                raise ActionFormatError(f"action {index}: {error}") from error
        state, _ = apply(state, action)
    return state
