"""Fixed positions for bot tests, built with the real engine (`deal_from_wall`)."""

from __future__ import annotations

from collections import Counter

from server.engine import (
    Action,
    DealSettings,
    DealState,
    apply,
    deal_from_wall,
    legal_actions,
    parse_tiles,
    pending_seats,
    view,
)
from server.engine.tiles import hk_tile_set, kaki3_tile_set, sorted_tiles


def fixed_deal(
    variant: str,
    hands: dict[str, str],
    front: str = "",
    back: str = "",
    exclude_from_middle: str = "",
) -> DealState:
    """A deal with these hands; the wall starts with `front` and ends with `back`.

    `back` is written in the order tiles are taken from the back: its first tile is the
    wall's last. Every other tile fills the middle in canonical order, except the kinds in
    `exclude_from_middle`, which are pushed just before `back` so no early draw meets them.
    Seats left out of `hands` get the lowest remaining tiles (honours last).
    """
    full = Counter(hk_tile_set() if variant == "hk" else kaki3_tile_set())
    seats = ("E", "S", "W", "N") if variant == "hk" else ("E", "S", "W")
    chosen = {seat: parse_tiles(text) for seat, text in hands.items()}
    front_tiles, back_tiles = parse_tiles(front), parse_tiles(back)
    for tiles in (*chosen.values(), front_tiles, back_tiles):
        full.subtract(tiles)
    if any(count < 0 for count in full.values()):
        raise ValueError(f"more copies than exist: {[-c for c in full.values() if c < 0]}")
    rest = sorted_tiles(full.elements())
    late_kinds = set(parse_tiles(exclude_from_middle))
    for seat in seats:
        if seat not in chosen:
            size = 14 if seat == "E" else 13
            pick = [t for t in rest if t[-1] in "mps" and t not in late_kinds][:size]
            for tile in pick:
                rest.remove(tile)
            chosen[seat] = pick
    late = [t for t in rest if t in late_kinds or t[-1] in "fnac"]
    middle = [t for t in rest if t not in late_kinds and t[-1] not in "fnac"]
    wall = front_tiles + middle + late + list(reversed(back_tiles))
    return deal_from_wall(DealSettings(variant=variant), chosen, wall)


def everyone_passes(state: DealState) -> DealState:
    """Close an open claim window by passing for every seat still deciding."""
    while state.phase in ("claim", "rob"):
        seat = pending_seats(state)[0]
        state, _ = apply(state, Action("pass", seat))
    return state


def discard(state: DealState, seat: str, tile: str) -> DealState:
    """`seat` throws `tile` (the claim window stays open)."""
    state, _ = apply(state, Action("discard", seat, tile))
    return state


def decision(state: DealState, seat: str) -> tuple[dict, list[Action]]:
    """What a bot at `seat` is given: its view and its legal actions."""
    return view(state, seat), legal_actions(state, seat)
