"""Readings: a whole winning hand seen as four sets and an eye, ready to count fan.

A reading joins one decomposition of the concealed tiles with the shown melds, every set
written as the tile it stands for (a Fei replaced by its `fei_as`). The pattern tables in
`hk.py` and `kaki3.py` only ever look at readings.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from server.engine.hand import Decomposition, decompositions
from server.engine.melds import CHOW, KONG, PONG, Meld
from server.engine.tiles import FEI, Tile


@dataclass(frozen=True)
class ReadSet:
    """One set of a reading.

    `tile` is the pong or kong's tile, or a chow's lowest tile. `in_hand` is true for a set
    read from the concealed tiles; `concealed` also covers a concealed kong.
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

    def tiles(self) -> tuple[Tile, ...]:
        """The tiles this set stands for (a kong's four)."""
        if self.kind == CHOW:
            number, suit_letter = int(self.tile[0]), self.tile[1]
            return tuple(f"{number + step}{suit_letter}" for step in range(3))
        return (self.tile,) * (4 if self.kind == KONG else 3)


@dataclass(frozen=True)
class Reading:
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
        return Reading(self.sets, eye, self.eye_fei, self.win_in_eye, self.win_in_hand_pong)


def meld_read_set(meld: Meld) -> ReadSet:
    """A shown meld as a reading set (its Fei replaced by what it stands for)."""
    real = [tile for tile in meld.real_tiles if tile != FEI]
    lowest = min(real, key=lambda tile: (tile[-1], tile[0]))
    return ReadSet(
        kind=meld.kind,
        tile=lowest,
        in_hand=False,
        concealed=meld.concealed,
        fei=meld.fei_count,
    )


def readings(
    concealed: Sequence[Tile], melds: Sequence[Meld], winning_tile: Tile, variant: str
) -> Iterator[Reading]:
    """Every reading of the hand: each decomposition of `concealed` joined to the melds."""
    shown = tuple(meld_read_set(meld) for meld in melds)
    for decomposition in decompositions(concealed, variant):
        yield _reading(decomposition, shown, winning_tile)


def _reading(
    decomposition: Decomposition, shown: tuple[ReadSet, ...], winning_tile: Tile
) -> Reading:
    hand_sets = tuple(
        ReadSet(
            kind=hand_set.kind,
            tile=hand_set.base_tile,
            in_hand=True,
            concealed=True,
            fei=hand_set.fei_count,
        )
        for hand_set in decomposition.sets
    )
    if winning_tile == FEI:
        win_in_eye = decomposition.eye_fei > 0
        win_in_hand_pong = any(s.kind == PONG and s.fei for s in hand_sets)
    else:
        win_in_eye = decomposition.eye == winning_tile and decomposition.eye_fei < 2
        win_in_hand_pong = any(s.kind == PONG and s.tile == winning_tile for s in hand_sets)
    return Reading(
        sets=shown + hand_sets,
        eye=decomposition.eye,
        eye_fei=decomposition.eye_fei,
        win_in_eye=win_in_eye,
        win_in_hand_pong=win_in_hand_pong,
    )
