"""Fixed deals for the engine and bot tests: chosen hands and wall ends, built with the real
engine (`deal_from_wall`), every other tile of the set in a known order."""

from __future__ import annotations

from collections import Counter

from server.engine import DealSettings, DealState, deal_from_wall, parse_tiles
from server.engine.tiles import sorted_tiles
from server.engine.variants import get_variant

BONUS_SUITS = "fnac"


def fixed_deal(
    variant: str,
    hands: dict[str, str],
    front: str = "",
    back: str = "",
    *,
    first: str = "",
    last: str = "",
) -> DealState:
    """A deal with these hands; the wall starts with `front` and ends with `back`.

    `back` is written in the order tiles are taken from the back: its first tile is the
    wall's last. Between the two come the tiles `first`, then every other tile in canonical
    order, except bonus tiles and the kinds in `last`, which are pushed just before `back`
    so that early draws meet plain tiles. Seats left out of `hands` get the lowest
    remaining suited tiles (14 for East, 13 for the others), none of a kind in `last`.
    """
    rules = get_variant(variant)
    chosen = {seat: parse_tiles(text) for seat, text in hands.items()}
    front_tiles, back_tiles, first_tiles = parse_tiles(front), parse_tiles(back), parse_tiles(first)
    remaining = Counter(rules.tile_set)
    for tiles in (*chosen.values(), front_tiles, back_tiles, first_tiles):
        remaining.subtract(tiles)
    if any(count < 0 for count in remaining.values()):
        raise ValueError(f"more copies than exist: {dict(-remaining)}")
    rest = sorted_tiles(remaining.elements())
    late_kinds = set(parse_tiles(last))
    for seat in rules.seats:
        if seat not in chosen:
            size = 14 if seat == rules.seats[0] else 13
            pick = [t for t in rest if t[-1] in "mps" and t not in late_kinds][:size]
            for tile in pick:
                rest.remove(tile)
            chosen[seat] = pick

    def is_late(tile: str) -> bool:
        return tile in late_kinds or tile[-1] in BONUS_SUITS

    middle = [t for t in rest if not is_late(t)]
    late = [t for t in rest if is_late(t)]
    wall = front_tiles + first_tiles + middle + late + list(reversed(back_tiles))
    return deal_from_wall(DealSettings(variant=variant), chosen, wall)
