"""Shanten and the fast completeness check, on count arrays.

Shanten is measured as "tiles still to draw, minus one". A hand of k tiles aims at
m = k // 3 sets and an eye, 3m + 2 places. We find the largest number of the hand's tiles
that can stay where they are (`kept`); then shanten = 3m + 1 - kept, so a complete hand is
-1 and a ready hand 0. For hands without Fei this equals the textbook formula
2m - 2*sets - partials - pair.

Real tiles are grouped suit by suit into sets (3 tiles), partials (a pair or two tiles of a
run, each waiting on one tile), one eye and single tiles (the one suit walk,
`server.engine.suit_walk`). Fei then fill the holes, under
3 Kaki's limits: a set keeps at least one real tile (so a set slot takes at most two Fei,
and a slot with no real tile yet can hold two Fei while a real tile is still to come), a
chow holds at most one Fei (a partial run plus one Fei), and the eye may be all Fei.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

from server.engine.hand_counts import suit_blocks
from server.engine.suit_walk import MAX_PARTIALS, shared_shape, suit_complete, suit_shapes

# Readings of one or more suits, each distinct: (sets, partials, eye).
Blocks = Collection[tuple[int, int, int]]


@lru_cache(maxsize=200_000)
def _suit_best_readings(counts: tuple[int, ...], chows: bool) -> Blocks:
    """`suit_shapes` keeping, for each (sets, eye), only the most partials.

    Without Fei a partial is never worse than its two tiles left single (it fills one slot
    where two singles would seed two), so only the largest partial count matters. With Fei
    it can be (two seeded slots hold more Fei), so Fei hands use every reading.
    """
    return _most_partials(suit_shapes(counts, chows))


def _most_partials(readings: Blocks) -> Blocks:
    most: dict[tuple[int, int], int] = {}
    for sets, partials, eye in readings:
        if most.get((sets, eye), -1) < partials:
            most[(sets, eye)] = partials
    # A tuple of shared shapes: `_suit_best_readings` memoises it for every suit count.
    return tuple(shared_shape((sets, partials, eye)) for (sets, eye), partials in most.items())


def _combine(left: Blocks, right: Blocks) -> Blocks:
    """Readings of two suits together (at most one eye overall)."""
    return frozenset(
        (s1 + s2, min(t1 + t2, MAX_PARTIALS), p1 + p2)
        for s1, t1, p1 in left
        for s2, t2, p2 in right
        if p1 + p2 <= 1
    )


def _kept(sets: int, partials: int, eye: int, real: int, fei: int, slots: int) -> int:
    """How many tiles can stay for this reading (see the module docstring)."""
    partials = min(partials, slots - sets)
    singles = real - 3 * sets - 2 * partials - 2 * eye
    empty_set_slots = slots - sets - partials
    seeded_sets = min(singles, empty_set_slots)
    # Seed the eye last: a lone real tile there leaves room for one Fei instead of two.
    eye_seed = 1 if not eye and singles > empty_set_slots else 0
    fei_room = partials + 2 * empty_set_slots + (0 if eye else 2 - eye_seed)
    real_kept = 3 * sets + 2 * partials + 2 * eye + seeded_sets + eye_seed
    return real_kept + min(fei, fei_room)


def standard_shanten(counts: tuple[int, ...], fei: int) -> int:
    """Shanten toward four-sets-and-an-eye (fewer sets for shorter hands)."""
    # Memoised on the counts as bytes: 67 bytes a key where the tuple of 34 is 328, and
    # nearly every hand a server sees is new, so the key is most of what the memo holds.
    return _standard_shanten(bytes(counts), fei)


@lru_cache(maxsize=200_000)
def _standard_shanten(packed: bytes, fei: int) -> int:
    counts = tuple(packed)
    tiles = sum(counts) + fei
    slots = tiles // 3
    if slots > 4:
        slots = 4
    real = tiles - fei
    man, pin, sou, honours = suit_blocks(counts)
    if fei == 0:
        readings = _most_partials(
            _combine(
                _most_partials(
                    _combine(_suit_best_readings(man, True), _suit_best_readings(pin, True))
                ),
                _most_partials(
                    _combine(_suit_best_readings(sou, True), _suit_best_readings(honours, False))
                ),
            )
        )
    else:
        readings = _combine(
            _combine(suit_shapes(man, True), suit_shapes(pin, True)),
            _combine(suit_shapes(sou, True), suit_shapes(honours, False)),
        )
    best = 0
    for sets, partials, eye in readings:
        if sets > slots:
            continue
        kept = _kept(sets, partials, eye, real, fei, slots)
        if kept > best:
            best = kept
    return 3 * slots + 1 - best


def seven_pairs_shanten(counts: tuple[int, ...]) -> int:
    """Shanten toward seven pairs, four alike counting as two pairs (Hong Kong table)."""
    pairs = sum(count // 2 for count in counts)
    return 6 - min(pairs, 7)


_ORPHAN_INDEXES = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def thirteen_orphans_shanten(counts: tuple[int, ...]) -> int:
    """Shanten toward thirteen orphans."""
    kinds = sum(1 for index in _ORPHAN_INDEXES if counts[index])
    has_pair = any(counts[index] >= 2 for index in _ORPHAN_INDEXES)
    return 13 - kinds - (1 if has_pair else 0)


def is_thirteen_orphans_counts(counts: tuple[int, ...]) -> bool:
    """Thirteen orphans: only terminals and honours, each of the thirteen, one of them twice."""
    if sum(map(counts.__getitem__, _ORPHAN_INDEXES)) != 14:
        return False  # some tile is not a terminal or an honour
    return thirteen_orphans_shanten(counts) == -1


def standard_complete_without_fei(counts: tuple[int, ...]) -> bool:
    """Fast four-sets-and-an-eye check for a hand with no Fei (one suit at a time)."""
    eye_suits = 0
    for index, block in enumerate(suit_blocks(counts)):
        remainder = sum(block) % 3
        if remainder == 1:
            return False
        with_eye = remainder == 2
        eye_suits += with_eye
        if eye_suits > 1 or not suit_complete(block, index < 3, with_eye):
            return False
    return eye_suits == 1
