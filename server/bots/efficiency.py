"""Tile efficiency: how far a hand is from ready, and how many unseen tiles bring it closer.

Shanten comes from `quick_shanten`, a fast reading checked against the engine's
`server.engine.hand.shanten` (see that module for why the bot does not call the engine's
directly in its search).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from server.bots.quick_shanten import quick_shanten, shanten_with_each
from server.engine.tiles import FEI, Tile
from server.engine.variants import KAKI3


@lru_cache(maxsize=200_000)
def _sorted_shanten(tiles: tuple[Tile, ...], variant: str) -> int:
    return quick_shanten(tiles, variant)


def hand_shanten(tiles: tuple[Tile, ...], variant: str) -> int:
    """Shanten of a concealed hand (order does not matter); -1 means complete.

    Memoised on the sorted tiles: plans cut many candidate hands down to the same tiles.
    """
    return _sorted_shanten(tuple(sorted(tiles)), variant)


def nearby_kinds(tiles: Iterable[Tile], variant: str) -> list[Tile]:
    """Tile kinds that could join something already in the hand.

    A suited tile helps only within two ranks of a tile of its suit, an honour only next to
    the same honour, so drawing anything else never lowers shanten. Checking just these
    keeps the useful-tile count fast. In 3 Kaki a Fei always counts.
    """
    kinds: set[Tile] = set()
    for tile in tiles:
        if tile == FEI:
            continue
        if tile[-1] == "z":
            kinds.add(tile)
            continue
        rank = int(tile[0])
        for near in range(max(1, rank - 2), min(9, rank + 2) + 1):
            kinds.add(f"{near}{tile[-1]}")
    if variant == KAKI3:
        kinds.add(FEI)
    return sorted(kinds)


def useful_tiles(
    tiles: tuple[Tile, ...], variant: str, unseen: dict[Tile, int], current: int | None = None
) -> tuple[int, list[Tile]]:
    """Unseen copies of the kinds that lower the shanten of `tiles`, and those kinds.

    `tiles` is a hand waiting to draw (3n+1 tiles). `current` may pass its shanten when
    the caller already knows it.
    """
    base = hand_shanten(tiles, variant) if current is None else current
    held = Counter(tiles)
    candidates = [
        kind for kind in nearby_kinds(tiles, variant) if unseen.get(kind, 0) > 0 and held[kind] < 4
    ]
    count = 0
    kinds: list[Tile] = []
    for kind, after in shanten_with_each(tiles, variant, candidates).items():
        if after < base:
            count += unseen[kind]
            kinds.append(kind)
    return count, kinds


def restricted_shanten(tiles: tuple[Tile, ...], keep: Iterable[Tile], variant: str) -> int:
    """Shanten if every tile outside the kinds `keep` had to be thrown and replaced.

    The engine sizes its target by the number of tiles it is given, so a hand cut down
    from 13 to 11 tiles would aim at three sets, not four. We read the cut hand's kept
    tiles and charge the missing set places back: an estimate, good enough to compare
    plans (flushes), never used to decide that a hand is ready.
    """
    allowed = set(keep)
    kept_tiles = tuple(tile for tile in tiles if tile in allowed or tile == FEI)
    if len(kept_tiles) == len(tiles):
        return hand_shanten(tiles, variant)
    slots = min(4, len(tiles) // 3)
    kept_slots = min(4, len(kept_tiles) // 3)
    if not kept_tiles:
        return 3 * slots
    kept = 3 * kept_slots + 1 - hand_shanten(kept_tiles, variant)
    kept = min(len(kept_tiles), kept + (slots - kept_slots))
    return 3 * slots + 1 - kept


def pungs_shanten(tiles: tuple[Tile, ...]) -> int:
    """Shanten toward a hand of pungs only (all pungs), Fei filling any gap."""
    counts = Counter(tile for tile in tiles if tile != FEI)
    fei = len(tiles) - sum(counts.values())
    slots = min(4, len(tiles) // 3)
    triplets = min(slots, sum(1 for c in counts.values() if c >= 3))
    pairs = sum(1 for c in counts.values() if c == 2)
    if pairs:
        value = 2 * slots - 2 * triplets - min(pairs - 1, slots - triplets) - 1
    else:
        value = 2 * slots - 2 * triplets
    # Plans are compared on hands waiting to draw, which are never complete.
    return max(0, value - fei)


def seven_pairs_steps(tiles: tuple[Tile, ...]) -> int:
    """Shanten toward seven pairs (four alike make two pairs)."""
    counts = Counter(tiles)
    pairs = sum(c // 2 for c in counts.values())
    return 6 - min(7, pairs)
