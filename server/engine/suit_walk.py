"""The one walk over a suit's counts: every way to read its tiles as sets, partials and an eye.

The engine's shanten (`hand_shanten`), its completeness check and the bots' quick shanten
(`server.bots.quick_shanten`) all start from the same question about one suit: how many
sets, partials (a pair or two tiles of a run, each waiting on one tile) and eyes can its
tiles make at once? The lowest tile of the suit decides the branches: it is left single,
or it sits in a pong, a pair (as a partial or as the eye), a chow it starts, or a partial
run it starts. Each caller then weighs the readings its own way (Fei, pruning), so the
readings themselves are worked out here once and memoised on the suit's counts, which
repeat a lot from hand to hand.

Which concrete sets a complete hand holds, Fei included, is a different question (the
scorer needs the sets, not their number): `server.engine.hand.suit_readings` answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

# (sets, partials, eye) of one reading; eye is 0 or 1.
Shape = tuple[int, int, int]
# The distinct readings of a suit, in order: a tuple, as the memos below hold one for
# every suit count they meet, and a frozenset of thirty shapes is a kilobyte of table.
Shapes = tuple[Shape, ...]
# Partials beyond four never help: a hand has at most four sets to make.
MAX_PARTIALS = 4
# The reading of a suit with no tiles.
_NOTHING: Shapes = ((0, 0, 0),)
# One tuple for each shape (there are a few dozen), shared by every memoised reading.
_ONE_OF_EACH: dict[Shape, Shape] = {}


def shared_shape(shape: Shape) -> Shape:
    """The one tuple kept for `shape`."""
    return _ONE_OF_EACH.setdefault(shape, shape)


def walk_suit(
    counts: tuple[int, ...],
    chows: bool,
    rest_of: Callable[[tuple[int, ...], bool], Iterable[Shape]],
    keep: Callable[[Iterable[Shape]], Shapes],
    whole: bool = False,
) -> Shapes:
    """The walk itself: branch on where the suit's lowest tile sits, read the rest with
    `rest_of` (the memoised caller, so the walk recurses through its own table), and let
    `keep` choose which of the readings found to keep (all, or the undominated ones).

    `whole` reads every tile into sets and the eye (no single, no partial): the readings
    of a complete suit, which the deal's win check asks for on every discard, without
    the far larger tree of the incomplete readings.
    """
    first = next((index for index, count in enumerate(counts) if count), -1)
    if first < 0:
        return _NOTHING
    found: set[Shape] = set()

    def take(indexes: tuple[int, ...], sets: int, partials: int, eye: int) -> None:
        rest = list(counts)
        for index in indexes:
            rest[index] -= 1
        tails = rest_of(tuple(rest), chows)
        if eye:
            found.update((s + sets, t, 1) for s, t, e in tails if not e)
        elif partials:
            # Each branch adds one partial at most; the cap keeps the readings few.
            found.update((s, t + 1 if t < MAX_PARTIALS else t, e) for s, t, e in tails)
        elif sets:
            found.update((s + 1, t, e) for s, t, e in tails)
        else:
            found.update(tails)

    count = counts[first]
    size = len(counts)
    if not whole:
        take((first,), 0, 0, 0)
    if count >= 3:
        take((first, first, first), 1, 0, 0)
    if count >= 2:
        if not whole:
            take((first, first), 0, 1, 0)
        take((first, first), 0, 0, 1)
    if chows:
        if first + 1 < size and counts[first + 1]:
            if not whole:
                take((first, first + 1), 0, 1, 0)
            if first + 2 < size and counts[first + 2]:
                take((first, first + 1, first + 2), 1, 0, 0)
        if not whole and first + 2 < size and counts[first + 2]:
            take((first, first + 2), 0, 1, 0)
    return keep({shared_shape(shape) for shape in found})


@lru_cache(maxsize=200_000)
def suit_shapes(counts: tuple[int, ...], chows: bool) -> Shapes:
    """Every (sets, partials, eye) reading of one suit's tiles; leftovers are singles.

    `chows` is False for the honours, which make no runs. Partials are capped at
    `MAX_PARTIALS`. The engine's shanten needs them all: with Fei, fewer partials can
    leave more room (see `server.engine.hand_shanten`).
    """
    return walk_suit(counts, chows, suit_shapes, all_shapes)


def all_shapes(shapes: Iterable[Shape]) -> Shapes:
    """Every reading found, in order."""
    return tuple(sorted(shapes))


def undominated(shapes: Iterable[Shape]) -> Shapes:
    """The readings no other beats: another with the same eye, at least as many sets and
    at least as many sets + partials is as good for a hand without Fei, whatever the
    rest of the hand holds (its value grows with sets and with sets + partials)."""
    # Most sets first, then most sets + partials: a reading can only be beaten by one
    # ranked before it, so one pass over each eye's best-so-far is enough.
    ranked = sorted(shapes, key=lambda shape: (-shape[0], -shape[1]))
    kept: list[Shape] = []
    most = [-1, -1]  # per eye: the most sets + partials kept so far
    for shape in ranked:
        sets, partials, eye = shape
        if sets + partials > most[eye]:
            most[eye] = sets + partials
            kept.append(shape)
    return tuple(kept)


@lru_cache(maxsize=100_000)
def best_suit_shapes(counts: tuple[int, ...], chows: bool) -> Shapes:
    """`suit_shapes` pruned to the `undominated` readings at every step of the walk, which
    keeps the walk small: what a count without Fei needs (the bots' quick shanten)."""
    return walk_suit(counts, chows, best_suit_shapes, undominated)


@lru_cache(maxsize=100_000)
def whole_suit_shapes(counts: tuple[int, ...], chows: bool) -> Shapes:
    """The readings of the suit that use every tile in sets and at most one eye (none
    when some tile is always left over)."""
    return walk_suit(counts, chows, whole_suit_shapes, all_shapes, whole=True)


@lru_cache(maxsize=100_000)
def suit_complete(counts: tuple[int, ...], chows: bool, with_eye: bool) -> bool:
    """Can the suit's tiles be read as sets only (or sets and the eye), no tile left over?"""
    tiles = sum(counts)
    eye = 1 if with_eye else 0
    if (tiles - 2 * eye) % 3:
        return False
    sets = (tiles - 2 * eye) // 3
    return (sets, 0, eye) in whole_suit_shapes(counts, chows)
