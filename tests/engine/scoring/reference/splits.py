"""Every way to split concealed tiles into sets and one eye, each Fei placed explicitly.

Part of the reference scorer (see `scorer.py`). Each group keeps the tiles it holds and the
tiles it counts as, so every choice of what a Fei stands for is a separate split.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from server.engine.tiles import FEI

HAND = "hand"  # a group read from the concealed tiles
SHOWN = "shown"  # a set laid on the table (a claimed set or an exposed kong)
CONCEALED_KONG = "concealed_kong"


class Group(NamedTuple):
    """One set or the eye of a reading.

    `held` are the tiles as held (a Fei is ``"j"``); `stands` the tiles they count as.
    A two-Fei eye not yet decided has `stands` ``("j", "j")``.
    """

    kind: str  # "chow", "pong", "kong" or "eye"
    held: tuple[str, ...]
    stands: tuple[str, ...]
    origin: str

    @property
    def tile(self) -> str:
        """The pong's, kong's or eye's tile; a chow's lowest tile."""
        return min(self.stands, key=order)


def order(tile: str) -> tuple[str, str]:
    """Sort key: by suit letter, then rank (every rank is one digit)."""
    return (tile[-1], tile[0])


def concealed_splits(tiles: Sequence[str]) -> frozenset[tuple[Group, ...]]:
    """Every way to read `tiles` as sets and one eye, Fei placed within their limits.

    A pong holds one or two Fei, a chow at most one, the eye one or two, and every set
    keeps a real tile (at Hong Kong there are no Fei, so this is the plain split).
    """
    if len(tiles) % 3 != 2:
        return frozenset()
    reals = tuple(sorted((tile for tile in tiles if tile != FEI), key=order))
    return _splits(reals, len(tiles) - len(reals), False)


def _without(reals: tuple[str, ...], *taken: str) -> tuple[str, ...] | None:
    """`reals` with one copy of each of `taken` removed, or None if one is missing."""
    left = list(reals)
    for tile in taken:
        if tile not in left:
            return None
        left.remove(tile)
    return tuple(left)


@lru_cache(maxsize=200_000)
def _splits(reals: tuple[str, ...], fei: int, eye_used: bool) -> frozenset[tuple[Group, ...]]:
    if not reals:
        if fei == 0 and eye_used:
            return frozenset({()})
        if fei == 2 and not eye_used:
            return frozenset({(Group("eye", (FEI, FEI), (FEI, FEI), HAND),)})
        return frozenset()
    # The lowest real tile must be in some group; every group it can be in is tried.
    low = reals[0]
    options: list[tuple[Group, tuple[str, ...], int, bool]] = []
    for real_copies in (3, 2, 1):
        fei_used = 3 - real_copies
        rest = _without(reals, *[low] * real_copies)
        if rest is not None and fei_used <= fei:
            group = Group("pong", (low,) * real_copies + (FEI,) * fei_used, (low,) * 3, HAND)
            options.append((group, rest, fei - fei_used, eye_used))
    if not eye_used:
        for real_copies in (2, 1):
            fei_used = 2 - real_copies
            rest = _without(reals, *[low] * real_copies)
            if rest is not None and fei_used <= fei:
                group = Group("eye", (low,) * real_copies + (FEI,) * fei_used, (low, low), HAND)
                options.append((group, rest, fei - fei_used, True))
    if low[-1] in "mps":
        options += _chow_options(low, reals, fei, eye_used)
    found: set[tuple[Group, ...]] = set()
    for group, rest, fei_left, eye_now in options:
        for tail in _splits(rest, fei_left, eye_now):
            found.add(tuple(sorted((group, *tail))))
    return frozenset(found)


def _chow_options(
    low: str, reals: tuple[str, ...], fei: int, eye_used: bool
) -> list[tuple[Group, tuple[str, ...], int, bool]]:
    """Chows holding `low`, the lowest real tile left: anything below it must be a Fei."""
    number, suit = int(low[0]), low[-1]
    options = []
    # Runs starting at `low` (one of the two higher places may be a Fei) and the run with
    # a Fei below `low` (the higher tile then real: a chow holds at most one Fei).
    runs = []
    if number <= 7:
        runs.append((number, (True, True, True)))
        runs.append((number, (True, False, True)))
        runs.append((number, (True, True, False)))
    if 2 <= number <= 8:
        runs.append((number - 1, (False, True, True)))
    for start, real_places in runs:
        stands = tuple(f"{start + k}{suit}" for k in range(3))
        held = tuple(tile if real else FEI for tile, real in zip(stands, real_places, strict=True))
        fei_used = held.count(FEI)
        rest = _without(reals, *[tile for tile in held if tile != FEI])
        if rest is not None and fei_used <= fei:
            options.append((Group("chow", held, stands, HAND), rest, fei - fei_used, eye_used))
    return options
