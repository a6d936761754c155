"""The player to act: discard, win by self-draw, kongs, and the 3 Kaki sink and swap.

After a draw a player may win, declare kongs, swap and sink, then must throw a tile.
Straight after a chow or pong only swaps, sinking and the throw are open, and the throw
may not be a tile of the set just shown (3 Kaki; see docs/rules.md).
"""

from __future__ import annotations

from server.engine.actions import (
    ADDED_KONG,
    CONCEALED_KONG,
    DISCARD,
    SINK,
    SWAP,
    WIN,
    Action,
)
from server.engine.claims import make_concealed_kong, open_claim_window, open_rob_window
from server.engine.deal_end import (
    Winner,
    finish_with_winners,
    score_win,
    self_draw_flags,
)
from server.engine.deal_filters import could_be_complete, could_complete_with
from server.engine.deal_state import DealState, Event, in_tile_order
from server.engine.draws import draw, lay_out_bonus
from server.engine.errors import IllegalActionError
from server.engine.melds import Meld
from server.engine.scoring.types import ScoreResult, WinningHand
from server.engine.tiles import ALL_TILE_KINDS, FEI, SEATS, Tile


def self_win(state: DealState) -> tuple[ScoreResult, WinningHand] | None:
    """The self-drawn win open to the player to act, if any (memoised on the state)."""
    if not state.self_win_memo:
        result = None
        if state.drew_this_turn:
            seat = state.turn
            player = state.players[seat]
            hand = player.hand
            winning_tile = player.drawn if player.drawn is not None else hand[-1]
            # The hand before the draw met the others' discards, so its profile is cached.
            if hand[-1] == player.drawn:
                possible = could_complete_with(tuple(hand[:-1]), hand[-1])
            else:
                possible = could_be_complete(hand)
            if possible:
                flags = self_draw_flags(state, seat)
                result = score_win(state, seat, player.hand, winning_tile, flags)
        state.self_win_memo.append(result)
    memo: tuple[ScoreResult, WinningHand] | None = state.self_win_memo[0]
    return memo


def forbidden_now(state: DealState) -> tuple[Tile, ...]:
    """The same-turn throw restriction, lifted when it would leave no throw at all."""
    if not state.forbidden:
        return ()
    hand = state.players[state.turn].hand
    if any(tile != FEI and tile not in state.forbidden for tile in hand):
        return state.forbidden
    if FEI in hand and FEI not in state.forbidden and state.wall_remaining > 0:
        return state.forbidden
    return ()


def throwable_tiles(state: DealState) -> list[Tile]:
    """Tiles the player to act may discard now, each kind once, sorted."""
    hand = state.players[state.turn].hand
    restricted = forbidden_now(state)
    kinds = in_tile_order({tile for tile in hand if tile != FEI and tile not in restricted})
    if not kinds and not _may_sink(state):
        # Only Fei left and no replacement to sink for: a Fei goes out as a plain discard.
        return [FEI] if FEI in hand else []
    return kinds


def _may_sink(state: DealState) -> bool:
    player = state.players[state.turn]
    return (
        state.variant.has_fei
        and FEI in player.hand
        and FEI not in forbidden_now(state)
        and state.wall_remaining > 0
    )


def _concealed_kong_tiles(state: DealState) -> list[Tile]:
    hand = state.players[state.turn].hand
    kinds = set(hand)
    if len(kinds) > len(hand) - 3:
        return []  # four of a kind needs at least three repeats
    return in_tile_order(tile for tile in kinds if tile != FEI and hand.count(tile) == 4)


def _added_kong_tiles(state: DealState) -> list[Tile]:
    player = state.players[state.turn]
    if not player.melds:
        return []
    hand = player.hand
    # Checked cheaply first: most pongs' fourth tile is not in hand.
    kinds = {
        meld.tiles[0]
        for meld in player.melds
        if meld.kind == "pong" and meld.tiles[0] in hand and FEI not in meld.tiles
    }
    return in_tile_order(kinds) if kinds else []


def _swap_tiles(state: DealState) -> list[Tile]:
    player = state.players[state.turn]
    if not player.melds:
        return []
    return in_tile_order(
        {meld.fei_as for meld in player.melds if meld.fei_count and meld.fei_as in player.hand}
    )


def turn_actions(state: DealState) -> list[Action]:
    """Everything the player to act may do now."""
    seat = state.turn
    actions: list[Action] = []
    if state.drew_this_turn:
        if self_win(state) is not None:
            actions.append(Action(WIN, seat))
        if state.wall_remaining > 0:
            actions += [Action(CONCEALED_KONG, seat, tile=t) for t in _concealed_kong_tiles(state)]
            actions += [Action(ADDED_KONG, seat, tile=t) for t in _added_kong_tiles(state)]
    if state.variant.has_fei:
        actions += [Action(SWAP, seat, tile=t) for t in _swap_tiles(state)]
        if _may_sink(state):
            actions.append(Action(SINK, seat))
    discards = _DISCARD_ACTIONS[seat]
    actions += [discards[tile] for tile in throwable_tiles(state)]
    return actions


# Discard actions are listed on every turn; `Action` is immutable, so they are made once.
_DISCARD_ACTIONS: dict[str, dict[Tile, Action]] = {
    seat: {tile: Action(DISCARD, seat, tile=tile) for tile in ALL_TILE_KINDS} for seat in SEATS
}


def apply_turn_action(state: DealState, action: Action, events: list[Event]) -> None:
    """Check and carry out `action` by the player to act, on `state` (already a copy)."""
    kind, seat, tile = action.type, state.turn, action.tile
    player = state.players[seat]
    if kind == DISCARD:
        _check_discard(state, tile)
        assert tile is not None
        _discard(state, tile, events)
    elif kind == WIN:
        scored = self_win(state)
        if scored is None:
            raise IllegalActionError(f"{seat} has no winning hand to declare now", "no_win")
        finish_with_winners(state, [Winner(seat, scored[0], scored[1], None)], events)
    elif kind == CONCEALED_KONG:
        _check_kong(state, tile, _concealed_kong_tiles(state), "four of it in hand")
        assert tile is not None
        make_concealed_kong(state, seat, tile, events)
    elif kind == ADDED_KONG:
        if tile is not None and any(
            m.kind == "pong" and m.fei_count and m.fei_as == tile for m in player.melds
        ):
            raise IllegalActionError(
                f"the {tile} pong holds a Fei: swap it out before making a kong", "fei_in_kong"
            )
        _check_kong(
            state, tile, _added_kong_tiles(state), "a shown pong of it and the fourth in hand"
        )
        assert tile is not None
        state.own(seat).drawn = None
        open_rob_window(state, seat, tile, events)
    elif kind == SINK:
        if not _may_sink(state):
            raise IllegalActionError(_why_no_sink(state), "cannot_sink")
        _sink(state, events)
    elif kind == SWAP:
        if tile not in _swap_tiles(state):
            raise IllegalActionError(
                f"{seat} has no shown set whose Fei stands for {tile} with that tile in hand",
                "cannot_swap",
            )
        assert tile is not None
        _swap(state, tile, events)
    else:
        raise IllegalActionError(
            f"{seat} cannot {kind} now: it is {seat}'s turn to play", "not_now"
        )


def _check_discard(state: DealState, tile: Tile | None) -> None:
    seat = state.turn
    hand = state.players[seat].hand
    if tile in hand and tile != FEI and tile not in state.forbidden:
        return
    if tile in throwable_tiles(state):
        return
    if tile not in state.players[seat].hand:
        raise IllegalActionError(f"{seat} holds no {tile} to discard", "tile_not_in_hand")
    if tile == FEI:
        raise IllegalActionError("a Fei cannot be discarded; sink it instead", "fei_discard")
    raise IllegalActionError(
        f"{seat} cannot throw {tile} straight after showing a set with it", "forbidden_tile"
    )


def _check_kong(state: DealState, tile: Tile | None, allowed: list[Tile], needs: str) -> None:
    seat = state.turn
    if not state.drew_this_turn:
        raise IllegalActionError(
            f"{seat} cannot declare a kong straight after a claim", "kong_after_claim"
        )
    # Checked before the tiles: four of a kind in hand is no kong without a replacement.
    if state.wall_remaining <= 0:
        raise IllegalActionError("no kong: no replacement tile is left to draw", "no_replacement")
    if tile in allowed:
        return
    raise IllegalActionError(f"{seat} cannot kong {tile}: that needs {needs}", "cannot_kong")


def _why_no_sink(state: DealState) -> str:
    if not state.variant.has_fei:
        return "there is no Fei at this table"
    if FEI not in state.players[state.turn].hand:
        return f"{state.turn} holds no Fei to sink"
    if state.wall_remaining <= 0:
        return "no sinking: no replacement tile is left to draw"
    return f"{state.turn} cannot sink the Fei of the set just shown in the same turn"


def _discard(state: DealState, tile: Tile, events: list[Event]) -> None:
    seat = state.turn
    player = state.own(seat)
    player.hand.remove(tile)
    player.drawn = None
    player.discards.append(tile)
    state.last_discard = (seat, tile)
    state.discard_count += 1
    state.forbidden = ()
    state.replacement = None
    state.kongs_this_turn = 0
    state.drew_this_turn = False
    state.drew_last_tile = False
    events.append({"type": "discard", "seat": seat, "tile": tile, "visible_to": None})
    open_claim_window(state, seat, tile, events)


def _sink(state: DealState, events: list[Event]) -> None:
    seat = state.turn
    player = state.own(seat)
    player.hand.remove(FEI)
    player.drawn = None
    events.append({"type": "sink", "seat": seat, "visible_to": None})
    lay_out_bonus(state, seat, FEI, events)
    state.kongs_this_turn = 0
    draw(state, seat, events, replacement="bonus")


def _swap(state: DealState, tile: Tile, events: list[Event]) -> None:
    seat = state.turn
    player = state.own(seat)
    index = next(i for i, m in enumerate(player.melds) if m.fei_count and m.fei_as == tile)
    meld = player.melds[index]
    player.melds[index] = Meld(
        meld.kind,
        tuple(tile if t == FEI else t for t in meld.tiles),
        meld.concealed,
        None,
        meld.claimed_from,
        meld.claimed_tile,
    )
    player.hand.remove(tile)
    player.hand.append(FEI)
    if player.drawn == tile and tile not in player.hand:
        player.drawn = FEI  # the drawn tile went into the set; the Fei took its place
    events.append(
        {
            "type": "swap",
            "seat": seat,
            "tile": tile,
            "meld": player.melds[index].to_json(),
            "visible_to": None,
        }
    )
