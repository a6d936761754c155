"""The claim window after a discard, and the rob window after an added kong.

Every other seat with a legal claim owes a decision; the others are not asked. Priority is
win, then kong or pong, then chow (3 Kaki: a pong of two real tiles beats one leaning on
a Fei); equal claims go to the seat nearest after the discarder. The window closes as soon
as no seat still deciding could change the outcome.
"""

from __future__ import annotations

from functools import lru_cache

from server.engine.actions import CHOW, KONG, PASS, PONG, WIN, Action
from server.engine.deal_end import (
    Winner,
    discard_flags,
    finish_with_winners,
    score_win,
    shows_two_other_dragons,
)
from server.engine.deal_filters import could_complete_with
from server.engine.deal_state import CLAIM_PHASE, DISCARD_PHASE, ROB_PHASE, DealState, Event
from server.engine.draws import draw, pay
from server.engine.melds import Meld
from server.engine.settlement import ADDED, CONCEALED, EXPOSED, kong_payments
from server.engine.tiles import DRAGONS, FEI, Tile, is_suited, rank, sorted_tiles, suit


def claim_rank(action: Action) -> int:
    """Lower claims first: win 0, kong or real pong 1, pong leaning on a Fei 2, chow 3."""
    if action.type == WIN:
        return 0
    if action.type == KONG:
        return 1
    if action.type == PONG:
        return 2 if action.fei_as is not None else 1
    return 3


def claim_options(
    state: DealState, seat: str, discarder: str, tile: Tile, may_win: bool | None = None
) -> list[Action]:
    """Every distinct claim `seat` may make on `tile` thrown by `discarder` (no pass).

    `may_win` is the caller's `could_complete_with` answer for this hand, if it has one.
    """
    player = state.players[seat]
    hand = player.hand
    options: list[Action] = []
    if may_win is None:
        may_win = could_complete_with(tuple(hand), tile)
    if may_win and score_win(
        state, seat, [*hand, tile], tile, discard_flags(state, discarder, robbing=False)
    ):
        options.append(claim_action(WIN, seat, None, None))
    real = hand.count(tile)
    if real >= 3 and state.wall_remaining > 0:
        options.append(claim_action(KONG, seat, (tile, tile, tile), None))
    if real >= 2:
        options.append(claim_action(PONG, seat, (tile, tile), None))
    has_fei = FEI in hand
    if has_fei and real >= 1:
        options.append(claim_action(PONG, seat, (tile, FEI), tile))
    if seat == state.variant.next_seat(discarder) and is_suited(tile):
        options += _chow_options(seat, hand, tile, has_fei)
    return options


def _runs_through(tile: Tile) -> tuple[tuple[Tile, Tile], ...]:
    """The other two tiles of each run (chow) that `tile` can be part of."""
    number, tile_suit = rank(tile), suit(tile)
    runs = []
    for start in (number - 2, number - 1, number):
        if start >= 1 and start + 2 <= 9:
            first, second = (f"{k}{tile_suit}" for k in range(start, start + 3) if k != number)
            runs.append((first, second))
    return tuple(runs)


_RUNS_THROUGH = {f"{n}{s}": _runs_through(f"{n}{s}") for s in "mps" for n in range(1, 10)}


def _chow_options(seat: str, hand: list[Tile], tile: Tile, has_fei: bool) -> list[Action]:
    """Each run through `tile` the hand can make, with real tiles and with one Fei."""
    options: list[Action] = []
    held = set(hand)
    for first, second in _RUNS_THROUGH[tile]:
        has_first, has_second = first in held, second in held
        if has_first and has_second:
            options.append(claim_action(CHOW, seat, (first, second), None))
        if has_fei and has_second:
            options.append(claim_action(CHOW, seat, (second, FEI), first))
        if has_fei and has_first:
            options.append(claim_action(CHOW, seat, (first, FEI), second))
    return options


@lru_cache(maxsize=4096)
def claim_action(
    kind: str, seat: str, tiles: tuple[Tile, ...] | None, fei_as: Tile | None
) -> Action:
    """A claim (or pass) action; `Action` is immutable, so the same ones are shared."""
    return Action(kind, seat, tiles=tiles, fei_as=fei_as)


def open_claim_window(state: DealState, discarder: str, tile: Tile, events: list[Event]) -> None:
    """Offer the discard to every seat that can claim it, or move on to the next draw."""
    options: dict[str, tuple[Action, ...]] = {}
    if tile != FEI:
        chow_seat = state.variant.next_seat(discarder) if tile in _RUNS_THROUGH else None
        for seat in state.seats:
            if seat == discarder:
                continue
            hand = state.players[seat].hand
            may_win = could_complete_with(tuple(hand), tile)
            # The usual case, cheaply: not a tile this hand holds, no chow, no win.
            if tile not in hand and seat != chow_seat and not may_win:
                continue
            choices = claim_options(state, seat, discarder, tile, may_win)
            if choices:
                options[seat] = (*choices, claim_action(PASS, seat, None, None))
    if not options:
        next_player_draws(state, discarder, events)
        return
    state.phase = CLAIM_PHASE
    state.options = options
    state.decisions = {}


def open_rob_window(state: DealState, adder: str, tile: Tile, events: list[Event]) -> None:
    """Offer an added kong's tile to the seats that could win on it, else make the kong."""
    options: dict[str, tuple[Action, ...]] = {}
    for seat in state.seats:
        if seat != adder:
            hand = state.players[seat].hand
            if not could_complete_with(tuple(hand), tile):
                continue
            if score_win(
                state, seat, [*hand, tile], tile, discard_flags(state, adder, robbing=True)
            ):
                options[seat] = (
                    claim_action(WIN, seat, None, None),
                    claim_action(PASS, seat, None, None),
                )
    if not options:
        make_added_kong(state, adder, tile, events)
        return
    state.phase = ROB_PHASE
    state.robbed_kong = (adder, tile)
    state.options = options
    state.decisions = {}


def undecided_seats(state: DealState) -> list[str]:
    """Seats of the open window that have not decided yet, in seat order."""
    return [seat for seat in state.seats if seat in state.options and seat not in state.decisions]


def decide(state: DealState, action: Action, events: list[Event]) -> None:
    """Record one seat's decision and resolve the window once the outcome is fixed."""
    assert action.seat is not None
    state.decisions[action.seat] = action
    if action.type != PASS:
        events.append(
            {"type": "declare", "seat": action.seat, "claim": action.type, "visible_to": None}
        )
    if _outcome_is_fixed(state):
        _resolve(state, events)


def _offering_seat(state: DealState) -> tuple[str, Tile]:
    if state.phase == ROB_PHASE:
        assert state.robbed_kong is not None
        return state.robbed_kong
    assert state.last_discard is not None
    return state.last_discard


def _outcome_is_fixed(state: DealState) -> bool:
    """True when no seat still deciding could change which claim (or claims) win."""
    origin, _ = _offering_seat(state)
    distance = state.variant.distance
    decided = [
        (claim_rank(action), distance(origin, seat))
        for seat, action in state.decisions.items()
        if action.type != PASS
    ]
    best = min(decided) if decided else None
    for seat in undecided_seats(state):
        choices = [action for action in state.options[seat] if action.type != PASS]
        if not state.variant.one_winner_per_discard and any(a.type == WIN for a in choices):
            return False  # one more winner would change the outcome
        their_best = min((claim_rank(a), distance(origin, seat)) for a in choices)
        if best is None or their_best < best:
            return False
    return True


def _resolve(state: DealState, events: list[Event]) -> None:
    origin, tile = _offering_seat(state)
    distance = state.variant.distance
    claims = sorted(
        (action for action in state.decisions.values() if action.type != PASS),
        key=lambda action: (claim_rank(action), distance(origin, action.seat or "")),
    )
    robbing = state.phase == ROB_PHASE
    if claims and claims[0].type == WIN:
        winning = [action for action in claims if action.type == WIN]
        if state.variant.one_winner_per_discard:
            winning = winning[:1]
        winners = []
        for action in winning:
            seat = action.seat or ""
            hand = [*state.players[seat].hand, tile]
            scored = score_win(state, seat, hand, tile, discard_flags(state, origin, robbing))
            assert scored is not None
            winners.append(Winner(seat, scored[0], scored[1], origin))
        finish_with_winners(state, winners, events)
        return
    state.options = {}
    state.decisions = {}
    if robbing:
        state.phase = DISCARD_PHASE
        state.robbed_kong = None
        make_added_kong(state, origin, tile, events)
    elif claims:
        _take_discard(state, claims[0], events)
    else:
        state.phase = DISCARD_PHASE
        next_player_draws(state, origin, events)


def next_player_draws(state: DealState, discarder: str, events: list[Event]) -> None:
    """Nobody claimed: the seat after the discarder draws from the front."""
    state.phase = DISCARD_PHASE
    state.forbidden = ()
    state.kongs_this_turn = 0
    draw(state, state.variant.next_seat(discarder), events)


def _take_discard(state: DealState, claim: Action, events: list[Event]) -> None:
    """Make the winning chow, pong or kong claim: the set is shown, the claimer plays."""
    assert state.last_discard is not None and claim.seat is not None and claim.tiles is not None
    discarder, tile = state.last_discard
    seat = claim.seat
    player = state.own(seat)
    state.own(discarder).discards.pop()
    for used in claim.tiles:
        player.hand.remove(used)
    if tile in DRAGONS and claim.type != CHOW and shows_two_other_dragons(state, seat, tile):
        state.liable_for[seat] = discarder
    meld = Meld(
        kind=claim.type,
        tiles=_laid_tiles(claim, tile),
        fei_as=claim.fei_as,
        claimed_from=discarder,
        claimed_tile=tile,
    )
    player.melds.append(meld)
    events.append(
        {
            "type": "claim",
            "seat": seat,
            "from": discarder,
            "meld": meld.to_json(),
            "visible_to": None,
        }
    )
    state.phase = DISCARD_PHASE
    state.turn = seat
    state.last_discard = None
    state.replacement = None
    state.drew_last_tile = False
    if claim.type == KONG:
        state.kongs_this_turn = 1
        pay(state, kong_payments(state.variant, seat, EXPOSED, discarder), events)
        draw(state, seat, events, replacement="kong")
        return
    state.drew_this_turn = False
    state.kongs_this_turn = 0
    if state.variant.same_turn_throw_ban:
        forbidden = set(meld.real_tiles)
        if meld.fei_count:
            forbidden.add(FEI)
        state.forbidden = tuple(sorted_tiles(forbidden))


def _laid_tiles(claim: Action, tile: Tile) -> tuple[Tile, ...]:
    """The tiles of a claimed set as laid: a chow in run order with its Fei in place."""
    assert claim.tiles is not None
    if claim.type != CHOW:
        return (*claim.tiles, tile)
    real = [*[t for t in claim.tiles if t != FEI], tile]
    if claim.fei_as is not None:
        real.append(claim.fei_as)
    ordered = sorted_tiles(real)
    return tuple(FEI if t == claim.fei_as else t for t in ordered)


def make_added_kong(state: DealState, seat: str, tile: Tile, events: list[Event]) -> None:
    """Add the fourth tile to `seat`'s exposed pong, pay, and draw the replacement."""
    player = state.own(seat)
    index = next(
        i
        for i, meld in enumerate(player.melds)
        if meld.kind == PONG and meld.fei_count == 0 and meld.base_tile == tile
    )
    pong = player.melds[index]
    player.hand.remove(tile)
    player.melds[index] = Meld(
        KONG, (*pong.tiles, tile), False, None, pong.claimed_from, pong.claimed_tile
    )
    _kong_made(state, seat, player.melds[index], ADDED, None, events)


def make_concealed_kong(state: DealState, seat: str, tile: Tile, events: list[Event]) -> None:
    """Lay four tiles from the hand as a concealed kong, pay, and draw the replacement."""
    player = state.own(seat)
    for _ in range(4):
        player.hand.remove(tile)
    meld = Meld(KONG, (tile,) * 4, concealed=True)
    player.melds.append(meld)
    _kong_made(state, seat, meld, CONCEALED, None, events)


def _kong_made(
    state: DealState, seat: str, meld: Meld, kind: str, discarder: str | None, events: list[Event]
) -> None:
    state.own(seat).drawn = None
    state.kongs_this_turn += 1
    events.append(
        {"type": "kong", "seat": seat, "kind": kind, "meld": meld.to_json(), "visible_to": None}
    )
    pay(state, kong_payments(state.variant, seat, kind, discarder), events)
    draw(state, seat, events, replacement="kong")
