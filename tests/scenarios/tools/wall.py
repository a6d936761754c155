"""Build and check the fixed walls of scenario files.

A scenario names only the tiles that matter: the hands, the tiles drawn from the front in
order, and the tiles taken from the back in order (bonus and kong replacements, sunk Fei).
`build_wall` fills the untouched middle with every other tile of the set, so the hands and
the wall always hold the whole tile set exactly once.
"""

from __future__ import annotations

from collections import Counter

from server.engine.tiles import (
    format_tiles,
    hk_tile_set,
    kaki3_tile_set,
    parse_tiles,
    sorted_tiles,
    tile_diff,
)

TILE_SETS = {"hk": hk_tile_set, "kaki3": kaki3_tile_set}


def build_wall(variant: str, hands: dict[str, str], front: str, back: str) -> str:
    """The whole wall: `front` (first drawn first), the unused tiles, then `back` reversed.

    `back` lists the tiles in the order they are taken from the back, so its first tile
    ends the wall. Raises `ValueError` if the named tiles exceed the tile set.
    """
    named = [tile for tiles in hands.values() for tile in parse_tiles(tiles)]
    named += parse_tiles(front) + parse_tiles(back)
    unused = Counter(TILE_SETS[variant]())
    unused.subtract(named)
    over = sorted_tiles(tile for tile, count in unused.items() if count < 0 for _ in range(-count))
    if over:
        raise ValueError(f"more copies than the set holds: {format_tiles(over)}")
    middle = sorted_tiles(unused.elements())
    wall = parse_tiles(front) + middle + list(reversed(parse_tiles(back)))
    return format_tiles(wall)


def check_tile_set(variant: str, hands: dict[str, str], wall: str) -> tuple[list[str], list[str]]:
    """(missing, extra) tiles of hands plus wall against the variant's set; both empty when exact."""
    held = [tile for tiles in hands.values() for tile in parse_tiles(tiles)] + parse_tiles(wall)
    return tile_diff(held, TILE_SETS[variant]())
