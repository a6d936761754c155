"""Building the wall: a seeded shuffle, or a fixed deal checked tile for tile."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from server.engine.errors import EngineError
from server.engine.tiles import Tile, format_tiles, tile_diff
from server.engine.variants import Variant


class WallError(EngineError):
    """Hands and wall that are not exactly the variant's tile set, or hands of the wrong size."""


def shuffled_deal(variant: Variant, seed: int | str) -> tuple[dict[str, list[Tile]], list[Tile]]:
    """Shuffle the tile set with a local `random.Random(seed)` and deal the hands.

    East takes the first 14 tiles, then each other seat 13 in turn order; the rest is the
    wall, first drawn first.
    """
    tiles = list(variant.tile_set)
    random.Random(seed).shuffle(tiles)
    hands: dict[str, list[Tile]] = {}
    position = 0
    for seat in variant.seats:
        size = variant.hand_size(seat)
        hands[seat] = tiles[position : position + size]
        position += size
    return hands, tiles[position:]


def check_deal(variant: Variant, hands: Mapping[str, Sequence[Tile]], wall: Sequence[Tile]) -> None:
    """Raise `WallError` unless the hands and wall are a proper deal for `variant`."""
    if set(hands) != set(variant.seats):
        raise WallError(
            f"{variant.name} hands are for seats {list(variant.seats)}, got {sorted(hands)}"
        )
    for seat in variant.seats:
        size = variant.hand_size(seat)
        if len(hands[seat]) != size:
            raise WallError(f"{seat} must be dealt {size} tiles, got {len(hands[seat])}")
    everything = [tile for seat in variant.seats for tile in hands[seat]] + list(wall)
    missing, extra = tile_diff(everything, variant.tile_set)
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {format_tiles(missing)}")
        if extra:
            parts.append(f"extra {format_tiles(extra)}")
        raise WallError(
            f"hands and wall must hold the {variant.name} tile set exactly once: "
            + "; ".join(parts)
        )
