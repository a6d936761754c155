"""Hand analysis: decompositions (with Fei), completeness, shanten and waits.

Every function takes the concealed tiles only (shown sets and concealed kongs are melds
and are not passed) and the variant, ``"hk"`` or ``"kaki3"``. Fei (``"j"``) are allowed
only at 3 Kaki, within the limits of docs/rules.md: a pong holds one or two Fei, a chow at most
one, the eye may be one Fei and a real tile or two Fei, and every set keeps a real tile.

Hot paths work on count arrays (`hand_counts`) and are memoised by a tuple key, because
the deal asks `is_complete` for every discard and seat and the bots ask `shanten`
thousands of times per decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from server.engine.hand_counts import (
    PLAYABLE_KINDS,
    VARIANT_WAIT_KINDS,
    check_variant,
    hand_counts,
)
from server.engine.hand_shanten import (
    seven_pairs_shanten,
    standard_complete_without_fei,
    standard_shanten,
    thirteen_orphans_shanten,
)
from server.engine.melds import CHOW, PONG
from server.engine.tiles import FEI, Tile, sort_key
from server.engine.variants import SPECIAL_HAND_TABLES

__all__ = [
    "Decomposition",
    "HandSet",
    "decompositions",
    "decompositions_of_counts",
    "is_complete",
    "is_seven_pairs",
    "is_thirteen_orphans",
    "shanten",
    "waits",
]


@dataclass(frozen=True)
class HandSet:
    """A set read from the concealed tiles.

    `tiles` are the three tiles the set stands for, in order (a chow low to high).
    `fei_positions` are the positions in `tiles` held by a Fei.
    """

    kind: str
    tiles: tuple[Tile, Tile, Tile]
    fei_positions: tuple[int, ...] = ()

    @property
    def base_tile(self) -> Tile:
        """The pong's tile, or a chow's lowest tile."""
        return self.tiles[0]

    @property
    def fei_count(self) -> int:
        """How many Fei the set holds."""
        return len(self.fei_positions)


@dataclass(frozen=True)
class Decomposition:
    """One reading of a concealed hand as sets and one eye.

    `eye` is the tile the eye stands for; ``"j"`` when both eye tiles are Fei, meaning the
    eye may stand for any tile (scoring picks the best). `eye_fei` is how many eye tiles are
    Fei (0, 1 or 2).
    """

    sets: tuple[HandSet, ...]
    eye: Tile
    eye_fei: int = 0


def decompositions(concealed: Sequence[Tile], variant: str) -> list[Decomposition]:
    """Every way to read `concealed` as sets plus one eye, Fei included.

    Returns an empty list when there is none (or the tile count is not 3n + 2). Raises
    `HandError` for tiles the table cannot hold in a hand.
    """
    counts, fei = hand_counts(concealed, variant)
    return list(decompositions_of_counts(counts, fei))


def decompositions_of_counts(counts: tuple[int, ...], fei: int) -> tuple[Decomposition, ...]:
    """`decompositions` for a hand already read into counts (see `hand_counts`)."""
    if (sum(counts) + fei) % 3 != 2:
        return ()
    return _cached_decompositions(counts, fei)


@lru_cache(maxsize=50_000)
def _cached_decompositions(counts: tuple[int, ...], fei: int) -> tuple[Decomposition, ...]:
    found: dict[tuple[tuple[HandSet, ...], Tile, int], None] = {}
    for sets, eye in _combine_suits(counts, 0, fei, True):
        found[(tuple(sorted(sets, key=_set_order)), eye[0], eye[1])] = None
    return tuple(Decomposition(sets=sets, eye=eye, eye_fei=eye_fei) for sets, eye, eye_fei in found)


# A suit's reading: its sets, its eye as (tile, Fei in it) or None, and the Fei it used.
SuitReading = tuple[tuple[HandSet, ...], tuple[Tile, int] | None, int]
SUIT_STARTS = (0, 9, 18, 27)


def _combine_suits(
    counts: tuple[int, ...], suit: int, fei: int, need_eye: bool
) -> list[tuple[tuple[HandSet, ...], tuple[Tile, int]]]:
    """Join one reading per suit so that every Fei is used and there is exactly one eye."""
    if suit == 4:
        # Fei still left over can only be the eye (a set needs a real tile).
        if fei == 0 and not need_eye:
            return [((), ("", 0))]  # the eye sits in an earlier suit; this stand-in is dropped
        if fei == 2 and need_eye:
            return [((), (FEI, 2))]
        return []
    begin = SUIT_STARTS[suit]
    end = begin + (7 if suit == 3 else 9)
    joined: list[tuple[tuple[HandSet, ...], tuple[Tile, int]]] = []
    for sets, eye, used in suit_readings(counts[begin:end], suit, fei, need_eye):
        for rest_sets, rest_eye in _combine_suits(
            counts, suit + 1, fei - used, need_eye and eye is None
        ):
            joined.append((sets + rest_sets, eye if eye is not None else rest_eye))
    return joined


@lru_cache(maxsize=100_000)
def suit_readings(
    counts: tuple[int, ...], suit: int, fei: int, eye_allowed: bool
) -> tuple[SuitReading, ...]:
    """Every reading of one suit's tiles as sets (and perhaps the eye), using up to `fei` Fei.

    The lowest tile must sit in the eye, a pong, or a chow it starts (or, with a Fei below
    it, a chow it is second in). Memoised on the suit's nine counts, which repeat a lot
    from hand to hand.
    """
    first = next((index for index, count in enumerate(counts) if count), -1)
    if first < 0:
        return (((), None, 0),)
    offset = SUIT_STARTS[suit]
    tile = PLAYABLE_KINDS[offset + first]
    results: list[SuitReading] = []

    def branch(
        uses: tuple[int, ...], fei_used: int, new_set: HandSet | None, eye: Tile | None
    ) -> None:
        rest = list(counts)
        for index in uses:
            rest[index] -= 1
        tails = suit_readings(tuple(rest), suit, fei - fei_used, eye_allowed and eye is None)
        for sets, tail_eye, tail_used in tails:
            if new_set is not None:
                sets = (new_set, *sets)
            results.append(
                (sets, (eye, fei_used) if eye is not None else tail_eye, fei_used + tail_used)
            )

    count = counts[first]
    if eye_allowed:
        if count >= 2:
            branch((first, first), 0, None, tile)
        if fei >= 1:
            branch((first,), 1, None, tile)
    triple = (tile, tile, tile)
    if count >= 3:
        branch((first, first, first), 0, HandSet(PONG, triple), None)
    if count >= 2 and fei >= 1:
        branch((first, first), 1, HandSet(PONG, triple, (2,)), None)
    if fei >= 2:
        branch((first,), 2, HandSet(PONG, triple, (1, 2)), None)
    if suit < 3:
        name = [PLAYABLE_KINDS[offset + index] for index in range(9)]
        if first <= 6:
            run = (tile, name[first + 1], name[first + 2])
            if counts[first + 1] and counts[first + 2]:
                branch((first, first + 1, first + 2), 0, HandSet(CHOW, run), None)
            if fei >= 1 and counts[first + 2]:
                branch((first, first + 2), 1, HandSet(CHOW, run, (1,)), None)
            if fei >= 1 and counts[first + 1]:
                branch((first, first + 1), 1, HandSet(CHOW, run, (2,)), None)
        if 1 <= first <= 7 and fei >= 1 and counts[first + 1]:
            run = (name[first - 1], tile, name[first + 1])
            branch((first, first + 1), 1, HandSet(CHOW, run, (0,)), None)
    return tuple(results)


def _set_order(hand_set: HandSet) -> tuple[tuple[int, int], str, tuple[int, ...]]:
    return (sort_key(hand_set.tiles[0]), hand_set.kind, hand_set.fei_positions)


def is_seven_pairs(concealed: Sequence[Tile], variant: str) -> bool:
    """Hong Kong seven pairs: fourteen tiles in pairs, four alike counting as two."""
    if variant not in SPECIAL_HAND_TABLES or len(concealed) != 14:
        return False
    counts, _ = hand_counts(concealed, variant)
    return all(count % 2 == 0 for count in counts)


def is_thirteen_orphans(concealed: Sequence[Tile], variant: str) -> bool:
    """Hong Kong thirteen orphans: one of each terminal and honour, and one more of them."""
    if variant not in SPECIAL_HAND_TABLES or len(concealed) != 14:
        return False
    counts, _ = hand_counts(concealed, variant)
    return thirteen_orphans_shanten(counts) == -1


def is_complete(concealed: Sequence[Tile], variant: str) -> bool:
    """True when the concealed tiles form a winning shape (the fan minimum is ignored).

    Standard shape at both tables; seven pairs and thirteen orphans too at Hong Kong.
    """
    counts, fei = hand_counts(concealed, variant)
    tiles = sum(counts) + fei
    if tiles % 3 != 2:
        return False
    if fei == 0:
        if standard_complete_without_fei(counts):
            return True
    elif standard_shanten(counts, fei) == -1:
        return True
    if variant in SPECIAL_HAND_TABLES and tiles == 14:
        return seven_pairs_shanten(counts) == -1 or thirteen_orphans_shanten(counts) == -1
    return False


def shanten(concealed: Sequence[Tile], variant: str) -> int:
    """Distance to ready: -1 complete, 0 ready (waiting), 1 one tile away, ...

    Works for 1 to 14 tiles; shown sets are not passed, and the number of sets still to
    make follows from the tile count (10 or 11 tiles means one set is shown). Hong Kong
    also counts seven pairs and thirteen orphans for 13 or 14 tiles.
    """
    counts, fei = hand_counts(concealed, variant)
    return _shanten(counts, fei, variant in SPECIAL_HAND_TABLES)


def _shanten(counts: tuple[int, ...], fei: int, special_shapes: bool) -> int:
    # Not memoised here: `standard_shanten` is, and the special shapes are a count each.
    best = standard_shanten(counts, fei)
    if special_shapes and sum(counts) in (13, 14):
        best = min(best, seven_pairs_shanten(counts), thirteen_orphans_shanten(counts))
    return best


def waits(concealed: Sequence[Tile], variant: str) -> list[Tile]:
    """The tiles that would complete a hand of 3n + 1 tiles (ignoring the fan minimum).

    In canonical order. A tile already held four times is not a wait. At 3 Kaki a Fei
    (``"j"``) is listed last when it completes the hand (it can be drawn, never claimed).
    Returns an empty list for a hand of any other size.
    """
    check_variant(variant)
    if len(concealed) % 3 != 1:
        return []
    # One tile lowers the distance to ready by one at most, so a hand that is not ready
    # has no wait: one (memoised) shanten instead of a completeness check per tile kind,
    # which with Fei in hand is the costly search (most hands, most of the time).
    if shanten(concealed, variant) > 0:
        return []
    hand = list(concealed)
    held = {tile: hand.count(tile) for tile in set(hand)}
    return [
        tile
        for tile in VARIANT_WAIT_KINDS[variant]
        if held.get(tile, 0) < 4 and is_complete([*hand, tile], variant)
    ]
