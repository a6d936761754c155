"""The best reading's concealed tiles laid out as sets, for the deal result and the score CLI.

Scoring compares readings that keep only what the fan tables look at (pong tiles, chow
suits, the eye), so the chosen reading does not say which chows or where the Fei sit.
Here the full decompositions of the concealed tiles (`hand.decompositions_of_counts`) are
searched once, for the winner only, for one that reads the same.
"""

from __future__ import annotations

from collections import Counter

from server.engine.hand import Decomposition, HandSet, decompositions_of_counts
from server.engine.melds import CHOW, PONG
from server.engine.scoring.readings import Reading
from server.engine.scoring.types import ReadingSet
from server.engine.tiles import FEI, Tile, sort_key

PAIR = "pair"
ORPHANS = "orphans"


def standard_layout(
    reading: Reading, counts: tuple[int, ...], fei: int, winning_tile: Tile
) -> tuple[ReadingSet, ...]:
    """The concealed sets and eye of `reading` (four-sets-and-an-eye shape), as held."""
    in_hand = [s for s in reading.sets if s.in_hand]
    pongs = Counter(s.tile for s in in_hand if s.kind != CHOW)
    chow_suits = Counter(s.tile[-1] for s in in_hand if s.kind == CHOW)
    # A Fei that wins by finishing a pong only counts so when the pong holds a Fei.
    want_fei_pong = winning_tile == FEI and reading.win_in_hand_pong and not reading.win_in_eye
    fallback: Decomposition | None = None
    for decomposition in decompositions_of_counts(counts, fei):
        if (
            decomposition.eye_fei != reading.eye_fei
            or (reading.eye_fei < 2 and decomposition.eye != reading.eye)
            or Counter(s.base_tile for s in decomposition.sets if s.kind == PONG) != pongs
            or Counter(s.base_tile[-1] for s in decomposition.sets if s.kind == CHOW) != chow_suits
        ):
            continue
        fei_pong = any(s.kind == PONG and s.fei_count for s in decomposition.sets)
        if fei_pong == want_fei_pong:
            return _laid_out(decomposition, reading.eye)
        fallback = fallback or decomposition
    return () if fallback is None else _laid_out(fallback, reading.eye)


def _laid_out(decomposition: Decomposition, eye: Tile) -> tuple[ReadingSet, ...]:
    sets = tuple(_held(hand_set) for hand_set in decomposition.sets)
    eye_tiles = (eye,) * (2 - decomposition.eye_fei) + (FEI,) * decomposition.eye_fei
    return (*sets, ReadingSet(PAIR, eye_tiles, (eye, eye)))


def _held(hand_set: HandSet) -> ReadingSet:
    held = tuple(
        FEI if position in hand_set.fei_positions else tile
        for position, tile in enumerate(hand_set.tiles)
    )
    return ReadingSet(hand_set.kind, held, hand_set.tiles)


def seven_pairs_layout(concealed: tuple[Tile, ...]) -> tuple[ReadingSet, ...]:
    """Seven pairs as seven ``"pair"`` groups (four alike are two pairs)."""
    ordered = sorted(concealed, key=sort_key)
    return tuple(
        ReadingSet(PAIR, (ordered[i], ordered[i + 1]), (ordered[i], ordered[i + 1]))
        for i in range(0, len(ordered), 2)
    )


def thirteen_orphans_layout(concealed: tuple[Tile, ...]) -> tuple[ReadingSet, ...]:
    """Thirteen orphans as one ``"orphans"`` group of its fourteen tiles."""
    ordered = tuple(sorted(concealed, key=sort_key))
    return (ReadingSet(ORPHANS, ordered, ordered),)
