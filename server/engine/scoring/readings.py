"""Readings: a whole winning hand seen as four sets and an eye, ready to count fan.

A reading joins one way of reading the concealed tiles with the shown melds, every set
written as the tile it stands for (a Fei replaced by its `fei_as`). The pattern tables in
`hk.py` and `kaki3.py` only ever look at readings. The concealed tiles are read suit by
suit, keeping only what scoring looks at (see `concealed_readings`); the complete list of
decompositions, for anyone who needs every set, is `hand.decompositions`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from server.engine.hand import SUIT_STARTS
from server.engine.hand_counts import PLAYABLE_KINDS
from server.engine.melds import CHOW, PONG, Meld
from server.engine.tiles import FEI, Tile


class ReadSet(NamedTuple):
    """One set of a reading.

    `tile` is the pong or kong's tile; for a chow, a tile of its suit (a shown chow's
    lowest tile; for a chow read from the hand the 1 of its suit, as only the suit
    counts). `in_hand` is true for a set read from the concealed tiles; `concealed` also
    covers a concealed kong. `fei` counts the Fei in a shown set. (A named tuple rather
    than a dataclass: scoring builds many of these and speed matters.)
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


class ConcealedReading(NamedTuple):
    """What scoring needs from one way to read the concealed tiles.

    `pongs` are the tiles of the pongs; `chow_suits` one suit letter per chow (only a
    chow's suit matters at either table); `eye` and `eye_fei` as in `Decomposition`;
    `fei_pong` tells whether some pong holds a Fei (a drawn Fei can finish it). `sets` are
    the same pongs and chows as reading sets, built once here because the cache keeps them.
    `rankless` is the reading with Tong ranks left out (honour pongs, Tong pong count, chow
    count): 3 Kaki scores two readings with equal `rankless` alike (see `kaki3_readings`).
    """

    pongs: tuple[Tile, ...]
    chow_suits: tuple[str, ...]
    eye: Tile
    eye_fei: int
    fei_pong: bool
    sets: tuple[ReadSet, ...]
    rankless: tuple[tuple[Tile, ...], int, int]


# One suit's share of a concealed reading: pongs, chows, eye (tile, Fei) or None, Fei used,
# and whether a pong holds a Fei.
_SuitShare = tuple[tuple[Tile, ...], int, tuple[Tile, int] | None, int, bool]


@lru_cache(maxsize=100_000)
def _suit_shares(
    counts: tuple[int, ...], suit: int, fei: int, eye_allowed: bool
) -> tuple[_SuitShare, ...]:
    """Every distinct-scoring reading of one suit's tiles, using up to `fei` Fei.

    The same walk as `hand.suit_readings` (the lowest tile sits in the eye, a pong, or a
    chow), but it records only pong tiles, the chow count, the eye, the Fei used and
    whether a pong holds a Fei, so readings that score alike merge at every step.
    """
    first = next((index for index, count in enumerate(counts) if count), -1)
    if first < 0:
        return (((), 0, None, 0, False),)
    tile = PLAYABLE_KINDS[SUIT_STARTS[suit] + first]
    shares: dict[_SuitShare, None] = {}

    def take(uses: tuple[int, ...], fei_used: int, pong: bool, chow: bool, eye: bool) -> None:
        rest = list(counts)
        for index in uses:
            rest[index] -= 1
        tails = _suit_shares(tuple(rest), suit, fei - fei_used, eye_allowed and not eye)
        for pongs, chows, tail_eye, used, fei_pong in tails:
            shares[
                (
                    (tile, *pongs) if pong else pongs,
                    chows + chow,
                    (tile, fei_used) if eye else tail_eye,
                    used + fei_used,
                    fei_pong or (pong and fei_used > 0),
                )
            ] = None

    count = counts[first]
    if eye_allowed:
        if count >= 2:
            take((first, first), 0, False, False, True)
        if fei >= 1:
            take((first,), 1, False, False, True)
    if count >= 3:
        take((first, first, first), 0, True, False, False)
    if count >= 2 and fei >= 1:
        take((first, first), 1, True, False, False)
    if fei >= 2:
        take((first,), 2, True, False, False)
    if suit < 3:
        # A chow holds at most one Fei: three real tiles, a Fei in the gap, or a Fei beside
        # two neighbours (above or below them: both score alike, so one branch).
        if first <= 6 and counts[first + 1] and counts[first + 2]:
            take((first, first + 1, first + 2), 0, False, True, False)
        if fei >= 1:
            if first <= 6 and counts[first + 2]:
                take((first, first + 2), 1, False, True, False)
            if first <= 7 and counts[first + 1]:
                take((first, first + 1), 1, False, True, False)
    return tuple(shares)


_SUIT_LETTERS = ("m", "p", "s", "z")


@lru_cache(maxsize=50_000)
def concealed_readings(counts: tuple[int, ...], fei: int) -> tuple[ConcealedReading, ...]:
    """Every distinct-scoring reading of a concealed hand (counts as in `hand_counts`).

    Works suit by suit like `hand.decompositions`, but keeps only what scoring looks at,
    so the many ways of placing Fei that score alike collapse early.
    """
    if (sum(counts) + fei) % 3 != 2:
        return ()
    if fei == 0:
        return _readings_without_fei(counts)
    # Partial readings: pongs, chow suits, eye or None, Fei left, some pong holds a Fei.
    partial: dict[
        tuple[tuple[Tile, ...], tuple[str, ...], tuple[Tile, int] | None, int, bool], None
    ] = {((), (), None, fei, False): None}
    for suit, begin in enumerate(SUIT_STARTS):
        block = counts[begin : begin + (7 if suit == 3 else 9)]
        if not any(block):
            continue  # an empty suit adds nothing and splits nothing
        grown: dict[
            tuple[tuple[Tile, ...], tuple[str, ...], tuple[Tile, int] | None, int, bool], None
        ] = {}
        for pongs, chows, eye, left, fei_pong in partial:
            for suit_pongs, suit_chows, suit_eye, used, suit_fei_pong in _suit_shares(
                block, suit, left, eye is None
            ):
                key = (
                    pongs + suit_pongs,
                    chows + (_SUIT_LETTERS[suit],) * suit_chows,
                    eye if suit_eye is None else suit_eye,
                    left - used,
                    fei_pong or suit_fei_pong,
                )
                grown[key] = None
        partial = grown
    found: list[ConcealedReading] = []
    for pongs, chows, eye, left, fei_pong in partial:
        # Fei still left over can only be the eye (a set needs a real tile).
        if eye is None and left == 2:
            eye = (FEI, 2)
        elif eye is None or left != 0:
            continue
        found.append(_concealed_reading(pongs, chows, eye, fei_pong))
    return tuple(found)


def _readings_without_fei(counts: tuple[int, ...]) -> tuple[ConcealedReading, ...]:
    """`concealed_readings` without Fei: the eye's suit is the one suit holding 3n + 2
    tiles and every other suit holds 3n, so the suits are read independently."""
    per_suit: list[tuple[_SuitShare, ...]] = []
    letters: list[str] = []
    eye_suits = 0
    for suit, begin in enumerate(SUIT_STARTS):
        block = counts[begin : begin + (7 if suit == 3 else 9)]
        size = sum(block)
        if not size:
            continue
        if size % 3 == 1:
            return ()
        has_eye = size % 3 == 2
        eye_suits += has_eye
        shares = _suit_shares(block, suit, 0, has_eye)
        if not shares or eye_suits > 1:
            return ()
        per_suit.append(shares)
        letters.append(_SUIT_LETTERS[suit])
    found: list[ConcealedReading] = []
    for combination in product(*per_suit):
        pongs: tuple[Tile, ...] = ()
        chows: tuple[str, ...] = ()
        eye: tuple[Tile, int] | None = None
        for (suit_pongs, suit_chows, suit_eye, _, _), letter in zip(
            combination, letters, strict=True
        ):
            pongs += suit_pongs
            chows += (letter,) * suit_chows
            eye = suit_eye or eye
        if eye is not None:
            found.append(_concealed_reading(pongs, chows, eye, False))
    return tuple(found)


# Sets read from the hand, built once and shared (they are immutable): every hand scored
# builds several readings.
_HAND_PONGS = {tile: ReadSet(PONG, tile, True, True) for tile in PLAYABLE_KINDS}
_HAND_CHOWS = {suit: ReadSet(CHOW, f"1{suit}", True, True) for suit in "mps"}


def _concealed_reading(
    pongs: tuple[Tile, ...], chows: tuple[str, ...], eye: tuple[Tile, int], fei_pong: bool
) -> ConcealedReading:
    sets = tuple([_HAND_PONGS[tile] for tile in pongs] + [_HAND_CHOWS[suit] for suit in chows])
    honour_pongs = tuple([tile for tile in pongs if tile[-1] == "z"])
    rankless = (honour_pongs, len(pongs) - len(honour_pongs), len(chows))
    return ConcealedReading(pongs, chows, eye[0], eye[1], fei_pong, sets, rankless)


def readings(
    counts: tuple[int, ...], fei: int, shown: tuple[ReadSet, ...], winning_tile: Tile
) -> Iterator[Reading]:
    """Every reading of the hand: each way to read the concealed counts joined to the
    shown sets, with where the winning tile can sit."""
    for concealed in concealed_readings(counts, fei):
        eye, eye_fei = concealed.eye, concealed.eye_fei
        if winning_tile == FEI:
            win_in_eye = eye_fei > 0
            win_in_hand_pong = concealed.fei_pong
        else:
            win_in_eye = eye == winning_tile and eye_fei < 2
            win_in_hand_pong = winning_tile in concealed.pongs
        yield Reading(shown + concealed.sets, eye, eye_fei, win_in_eye, win_in_hand_pong)


def kaki3_readings(
    counts: tuple[int, ...], fei: int, shown: tuple[ReadSet, ...], winning_tile: Tile
) -> Iterator[Reading]:
    """The readings of a 3 Kaki hand, one per distinct score, two-Fei eyes decided.

    At 3 Kaki no pattern looks at a Tong tile's rank (Nine Gates is read from the tiles
    themselves, and Kang Kang Hu only asks whether the winning tile finishes a pong), so
    readings that differ only in Tong ranks are scored once. A two-Fei eye is tried as
    each tile that can change the score (`eye_choices`).
    """
    seen: set[tuple[object, ...]] = set()
    for concealed in concealed_readings(counts, fei):
        in_pong = concealed.fei_pong if winning_tile == FEI else winning_tile in concealed.pongs
        eyes = [concealed.eye]
        if concealed.eye == FEI:
            eyes = eye_choices(shown + concealed.sets)
        for eye in eyes:
            key = (concealed.rankless, eye if eye[-1] == "z" else "p", in_pong)
            if key in seen:
                continue
            seen.add(key)
            if winning_tile == FEI:
                win_in_eye = concealed.eye_fei > 0
            else:
                win_in_eye = eye == winning_tile and concealed.eye_fei < 2
            yield Reading(shown + concealed.sets, eye, concealed.eye_fei, win_in_eye, in_pong)


def eye_choices(sets: tuple[ReadSet, ...]) -> list[Tile]:
    """What a two-Fei eye may usefully stand for beside `sets`, one tile per effect.

    Any Tong tile (for the flushes and All Chow); an honour when every set is of honours
    (All Honours), one that no set holds, since a fifth copy would rule out the other honour
    patterns; the missing dragon beside two dragon sets (Little Dragons); the missing wind
    beside three wind sets (Little Winds).
    """
    choices = ["5p"]
    pong_honours = {s.tile for s in sets if s.kind != CHOW and s.tile[-1] == "z"}
    if all(s.tile[-1] == "z" for s in sets):
        choices.append(next(tile for tile in _HONOURS if tile not in pong_honours))
    missing_dragons = sorted(_DRAGONS - pong_honours)
    if len(missing_dragons) == 1:
        choices += missing_dragons
    missing_winds = sorted(_WINDS - pong_honours)
    if len(missing_winds) == 1:
        choices += missing_winds
    return choices


_HONOURS = ("1z", "2z", "3z", "4z", "5z", "6z", "7z")
_DRAGONS = frozenset({"5z", "6z", "7z"})
_WINDS = frozenset({"1z", "2z", "3z", "4z"})
