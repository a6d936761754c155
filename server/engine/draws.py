"""Taking tiles from the wall: draws from the front, replacements from the back.

3 Kaki bonus tiles never stay in a hand: each is laid face up, paid for if it completes a
family, and replaced from the back. When a tile is needed and none can be had (the wall
is empty, or 3 Kaki is down to its last 7) the deal ends drawn.
"""

from __future__ import annotations

from server.engine.deal_end import finish_without_winner
from server.engine.deal_result import DealOutcome, Payment
from server.engine.deal_state import DealState, Event
from server.engine.settlement import family_payments
from server.engine.tiles import Tile, is_bonus

FRONT = "front"
BACK = "back"


def take_tile(state: DealState, from_back: bool) -> Tile:
    """Take one tile off the wall (the caller has checked one can be had)."""
    if from_back:
        state.back -= 1
        return state.wall[state.back]
    tile = state.wall[state.front]
    state.front += 1
    return tile


def draw(state: DealState, seat: str, events: list[Event], replacement: str | None = None) -> bool:
    """`seat` draws: from the front, or from the back when `replacement` ("kong", "bonus").

    Bonus tiles drawn are laid out and replaced at once; the replacement of a bonus tile
    drawn for a kong still counts as the kong's (the chain a kong starts stays a kong
    replacement). The seat then holds the tile as its drawn tile and is to act. Returns
    False when the deal ended drawn instead.
    """
    if state.wall_remaining <= 0:
        finish_without_winner(state, events, DealOutcome.DRAW)
        return False
    player = state.own(seat)
    tile = take_tile(state, from_back=replacement is not None)
    state.last_drawer = seat
    source = BACK if replacement is not None else FRONT
    events.append(
        {"type": "draw", "seat": seat, "source": source, "tile": None, "visible_to": None}
    )
    events.append(
        {"type": "draw", "seat": seat, "source": source, "tile": tile, "visible_to": seat}
    )
    while is_bonus(tile):
        lay_out_bonus(state, seat, tile, events)
        if state.wall_remaining <= 0:
            finish_without_winner(state, events, DealOutcome.DRAW)
            return False
        tile = take_tile(state, from_back=True)
        if replacement != "kong":
            replacement = "bonus"
        events.append(
            {"type": "draw", "seat": seat, "source": BACK, "tile": None, "visible_to": None}
        )
        events.append(
            {"type": "draw", "seat": seat, "source": BACK, "tile": tile, "visible_to": seat}
        )
    player.hand.append(tile)
    player.drawn = tile
    state.turn = seat
    state.replacement = replacement
    state.drew_this_turn = True
    state.drew_last_tile = state.wall_remaining == 0
    return True


def lay_out_bonus(state: DealState, seat: str, tile: Tile, events: list[Event]) -> None:
    """Put a bonus tile (or a sunk Fei) among `seat`'s bonus tiles; pay a completed family."""
    state.own(seat).bonus.append(tile)
    events.append({"type": "bonus", "seat": seat, "tile": tile, "visible_to": None})
    if not is_bonus(tile):
        return
    family = tile[-1]
    key = f"{seat}:{family}"
    held = sum(1 for bonus in state.players[seat].bonus if bonus[-1] == family)
    if held == 4 and key not in state.families_paid:
        state.families_paid = (*state.families_paid, key)
        pay(state, family_payments(state.variant, seat, state.in_initial_layout), events)


def pay(state: DealState, payments: list[Payment], events: list[Event]) -> None:
    """Record payments made at once, each also as a public event."""
    for paid in payments:
        state.payments.append(paid)
        events.append({"type": "payment", **paid.to_json(), "visible_to": None})


def lay_out_dealt_bonus_tiles(state: DealState, events: list[Event]) -> None:
    """3 Kaki deal: lay out and replace bonus tiles, East then South then West, until none.

    Each pass a seat lays out every bonus tile it holds and draws as many replacements;
    a bonus tile among the replacements waits for that seat's turn in the next pass.
    """
    state.in_initial_layout = True
    while not state.is_over and any(
        any(is_bonus(t) for t in state.players[s].hand) for s in state.seats
    ):
        for seat in state.seats:
            player = state.own(seat)
            bonus_tiles = [tile for tile in player.hand if is_bonus(tile)]
            for tile in bonus_tiles:
                player.hand.remove(tile)
                lay_out_bonus(state, seat, tile, events)
            for _ in bonus_tiles:
                if state.wall_remaining <= 0:
                    finish_without_winner(state, events, DealOutcome.DRAW)
                    return
                player.hand.append(take_tile(state, from_back=True))
    state.in_initial_layout = False
