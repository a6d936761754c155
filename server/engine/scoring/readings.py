"""Readings: a whole winning hand seen as four sets and an eye, ready to count fan.

A reading joins one decomposition of the concealed tiles with the shown melds, every set
written as the tile it stands for (a Fei replaced by its `fei_as`). The pattern tables in
`hk.py` and `kaki3.py` only ever look at readings.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from server.engine.hand import decompositions_of_counts
from server.engine.melds import CHOW, PONG, Meld
from server.engine.tiles import FEI, Tile


class ReadSet(NamedTuple):
    """One set of a reading.

    `tile` is the pong or kong's tile, or a chow's lowest tile. `in_hand` is true for a set
    read from the concealed tiles; `concealed` also covers a concealed kong. (A named
    tuple rather than a dataclass: scoring builds many of these and speed matters.)
    """

    kind: str
    tile: Tile
    in_hand: bool
    concealed: bool
    fei: int = 0

    @property
    def is_pong_or_kong(self) -> bool:
        """Pongs and kongs score alike as 'sets' of one tile."""
        return self.kind != CHOW


class Reading(NamedTuple):
    """Four sets and an eye. `eye` is ``"j"`` while a two-Fei eye is still undecided.

    `win_in_eye` and `win_in_hand_pong` say where the winning tile can be placed: in the
    eye, or completing a pong read from the concealed tiles. Both can be true when the
    winning tile is a Fei or appears in both.
    """

    sets: tuple[ReadSet, ...]
    eye: Tile
    eye_fei: int
    win_in_eye: bool
    win_in_hand_pong: bool

    def with_eye(self, eye: Tile) -> Reading:
        """The same reading with an undecided Fei eye standing for `eye`."""
        return self._replace(eye=eye)


def meld_read_set(meld: Meld) -> ReadSet:
    """A shown meld as a reading set (its Fei replaced by what it stands for)."""
    real = [tile for tile in meld.real_tiles if tile != FEI]
    lowest = min(real, key=lambda tile: (tile[-1], tile[0]))
    return ReadSet(meld.kind, lowest, False, meld.concealed, meld.fei_count)


# The concealed part of a reading: hand sets, eye tile, Fei in the eye.
_ConcealedReading = tuple[tuple[ReadSet, ...], Tile, int]


@lru_cache(maxsize=50_000)
def concealed_readings(counts: tuple[int, ...], fei: int) -> tuple[_ConcealedReading, ...]:
    """The decompositions of a concealed hand as reading sets, one per distinct score.

    Two decompositions that differ only in which run a chow covers score the same at both
    tables (only a chow's suit matters), so only the first of them is kept.
    """
    seen: set[tuple[object, ...]] = set()
    found: list[_ConcealedReading] = []
    for decomposition in decompositions_of_counts(counts, fei):
        hand_sets = tuple(
            ReadSet(s.kind, s.base_tile, True, True, s.fei_count) for s in decomposition.sets
        )
        key = (
            tuple(
                sorted((s.tile[-1], 0) if s.kind == CHOW else (s.tile, s.fei) for s in hand_sets)
            ),
            decomposition.eye,
            decomposition.eye_fei,
        )
        if key not in seen:
            seen.add(key)
            found.append((hand_sets, decomposition.eye, decomposition.eye_fei))
    return tuple(found)


def readings(
    counts: tuple[int, ...], fei: int, shown: tuple[ReadSet, ...], winning_tile: Tile
) -> Iterator[Reading]:
    """Every reading of the hand: each decomposition of the concealed counts joined to the
    shown sets, with where the winning tile can sit."""
    for hand_sets, eye, eye_fei in concealed_readings(counts, fei):
        if winning_tile == FEI:
            win_in_eye = eye_fei > 0
            win_in_hand_pong = any(s.kind == PONG and s.fei for s in hand_sets)
        else:
            win_in_eye = eye == winning_tile and eye_fei < 2
            win_in_hand_pong = any(s.kind == PONG and s.tile == winning_tile for s in hand_sets)
        yield Reading(shown + hand_sets, eye, eye_fei, win_in_eye, win_in_hand_pong)
