"""A fast shanten for the bot's search, checked against the engine's.

The engine's `server.engine.hand.shanten` is the reference, exact under every Fei rule,
and takes a few hundred microseconds per new hand. One bot decision asks about a few
hundred hands (each discard, each tile that might be drawn next), which would blow the
50 ms answer budget. This module answers the same question from per-suit tables that are
memoised, so a hand differing from a known one in one suit costs a few microseconds.

Without Fei it equals the engine's shanten (a test compares them over random hands).
With Fei it counts each Fei as one perfect draw: the real tiles' shanten less one per
Fei. That ignores 3 Kaki's limits on Fei (a chow holds one, a set keeps a real tile), so
it can be optimistic by a step in rare hands. The bot uses it to compare plans; whether a
hand actually wins is always decided by the engine (`score_hand`, the `win` action).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from server.engine.suit_walk import best_suit_shapes
from server.engine.tiles import FEI, Tile
from server.engine.variants import SPECIAL_HAND_TABLES

_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_SET = frozenset(_ORPHANS)

# One reading of a suit: (eye, sets, partials); eye is 0 or 1.
Reading = tuple[int, int, int]


def _prune(readings: Iterable[Reading]) -> tuple[Reading, ...]:
    """Drop readings another beats: same eye, at least as many sets and sets + partials.

    The final count, 2*sets + partials with sets + partials capped at the sets needed,
    only grows with sets and with sets + partials, so a dominated reading never wins.
    """
    unique = sorted(set(readings), key=lambda r: (r[0], -r[1], -(r[1] + r[2])))
    kept: list[Reading] = []
    for reading in unique:
        eye, sets, partials = reading
        if any(k[0] == eye and k[1] >= sets and k[1] + k[2] >= sets + partials for k in kept):
            continue
        kept.append(reading)
    return tuple(kept)


@lru_cache(maxsize=100_000)
def _suit_readings(block: tuple[int, ...], chows: bool) -> tuple[Reading, ...]:
    """The best readings of one suit's counts (honours never chow): the engine's one suit
    walk, pruned as it goes, in this module's (eye, sets, partials) order."""
    return tuple((eye, sets, partials) for sets, partials, eye in best_suit_shapes(block, chows))


@lru_cache(maxsize=100_000)
def _combined(left: tuple[Reading, ...], right: tuple[Reading, ...]) -> tuple[Reading, ...]:
    return _prune(
        (e1 + e2, s1 + s2, p1 + p2) for e1, s1, p1 in left for e2, s2, p2 in right if e1 + e2 <= 1
    )


def hand_counts(tiles: Iterable[Tile]) -> tuple[list[int], int]:
    """34 kind counts (1m..9m, 1p..9p, 1s..9s, 1z..7z) and the number of Fei."""
    counts = [0] * 34
    fei = 0
    for tile in tiles:
        if tile == FEI:
            fei += 1
        else:
            counts[_SUIT_OFFSET[tile[-1]] + int(tile[0]) - 1] += 1
    return counts, fei


def _blocks(counts: list[int]) -> list[tuple[Reading, ...]]:
    return [
        _suit_readings(tuple(counts[0:9]), True),
        _suit_readings(tuple(counts[9:18]), True),
        _suit_readings(tuple(counts[18:27]), True),
        _suit_readings(tuple(counts[27:34]), False),
    ]


def _best(readings: tuple[Reading, ...], sets_needed: int) -> int:
    best = 0
    for eye, sets, partials in readings:
        sets = min(sets, sets_needed)
        value = 2 * sets + min(partials, sets_needed - sets) + eye
        if value > best:
            best = value
    return 2 * sets_needed - best


def _special(counts: list[int]) -> int:
    """Hong Kong's closed shapes: seven pairs and thirteen orphans."""
    pairs = sum(c // 2 for c in counts)
    kinds = sum(1 for i in _ORPHANS if counts[i])
    has_pair = any(counts[i] >= 2 for i in _ORPHANS)
    return min(6 - min(pairs, 7), 13 - kinds - (1 if has_pair else 0))


def _floor(size: int) -> int:
    """The lowest shanten a hand of `size` tiles can have: only 3n+2 tiles are complete."""
    return -1 if size % 3 == 2 else 0


def shanten_of_counts(counts: list[int], fei: int, variant: str) -> int:
    """`quick_shanten` for a hand already read into counts."""
    size = sum(counts) + fei
    sets_needed = min(4, size // 3)
    blocks = _blocks(counts)
    readings = _combined(_combined(blocks[0], blocks[1]), _combined(blocks[2], blocks[3]))
    best = max(_floor(size), _best(readings, sets_needed) - fei)
    if variant in SPECIAL_HAND_TABLES and size in (13, 14):
        best = min(best, _special(counts))
    return best


def quick_shanten(tiles: tuple[Tile, ...], variant: str) -> int:
    """Shanten of a concealed hand: -1 complete, 0 ready. See the module docstring."""
    counts, fei = hand_counts(tiles)
    return shanten_of_counts(counts, fei, variant)


def kind_index(tile: Tile) -> int:
    """Index of a (non-Fei) tile kind in the 34 counts."""
    return _SUIT_OFFSET[tile[-1]] + int(tile[0]) - 1


def _best_of_pair(left: tuple[Reading, ...], right: tuple[Reading, ...], sets_needed: int) -> int:
    """`_best` of two readings' combination, without building the combination."""
    best = 0
    for e1, s1, p1 in left:
        for e2, s2, p2 in right:
            if e1 + e2 > 1:
                continue
            sets = s1 + s2
            if sets > sets_needed:
                sets = sets_needed
            partials = p1 + p2
            if partials > sets_needed - sets:
                partials = sets_needed - sets
            value = 2 * sets + partials + e1 + e2
            if value > best:
                best = value
    return 2 * sets_needed - best


def shanten_with_each(
    tiles: tuple[Tile, ...], variant: str, kinds: Iterable[Tile]
) -> dict[Tile, int]:
    """Shanten of `tiles` plus one tile, for each of `kinds` (a Fei allowed).

    Reads the hand once and re-reads only the suit the added tile joins, which makes a
    useful-tile count some ten times cheaper than calling `quick_shanten` per tile.
    """
    counts, fei = hand_counts(tiles)
    size = len(tiles) + 1
    sets_needed = min(4, size // 3)
    blocks = _blocks(counts)
    others = [
        _combined(_combined(blocks[1], blocks[2]), blocks[3]),
        _combined(_combined(blocks[0], blocks[2]), blocks[3]),
        _combined(_combined(blocks[0], blocks[1]), blocks[3]),
        _combined(_combined(blocks[0], blocks[1]), blocks[2]),
    ]
    floor = _floor(size)
    special = variant in SPECIAL_HAND_TABLES and size in (13, 14)
    if special:
        pairs = sum(c // 2 for c in counts)
        orphan_kinds = sum(1 for i in _ORPHANS if counts[i])
        orphan_pair = any(counts[i] >= 2 for i in _ORPHANS)
    answers: dict[Tile, int] = {}
    for kind in kinds:
        if kind == FEI:
            value = max(floor, _best_of_pair(others[0], blocks[0], sets_needed) - fei - 1)
            answers[kind] = value
            continue
        index = kind_index(kind)
        block = index // 9 if index < 27 else 3
        start = block * 9
        counts[index] += 1
        changed = _suit_readings(tuple(counts[start : start + (9 if block < 3 else 7)]), block < 3)
        counts[index] -= 1
        value = max(floor, _best_of_pair(others[block], changed, sets_needed) - fei)
        if special:
            held = counts[index]
            more_pairs = pairs + (held % 2)
            is_orphan = index in _ORPHAN_SET
            kinds_now = orphan_kinds + (1 if is_orphan and held == 0 else 0)
            pair_now = orphan_pair or (is_orphan and held == 1)
            value = min(value, 6 - min(more_pairs, 7), 13 - kinds_now - (1 if pair_now else 0))
        answers[kind] = value
    return answers
