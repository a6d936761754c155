"""Quick necessary conditions for a winning shape, so most win checks cost next to nothing.

Every discard is a possible win for every other seat, and every draw for the drawer, so
the full shape check would run thousands of times a deal. Almost all of those hands are
far from complete, and one count shows it: a tile held once with no tile of its suit
within two ranks (an honour held once) is *isolated*; in a winning shape it needs a Fei
of its own (as its pair, or two Fei as its pong; a chow holds at most one Fei and needs a
real neighbour). So a hand with more isolated tiles than Fei cannot be complete, except
thirteen orphans, which is all isolated tiles and always goes on to the full check.

The profile of a 13-tile hand is cached: the same hand meets three discards and its
own draw before it changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from server.engine.tiles import FEI, Tile, is_honour, is_terminal

_KINDS = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(f"{r}z" for r in range(1, 8))
_ORPHANS = frozenset(tile for tile in _KINDS if is_terminal(tile) or is_honour(tile))

# Each tile as a number: neighbours in a suit differ by 1, while different suits and
# different honours lie at least 4 apart, so "within two ranks" is "codes within 2"
# (from 3 up, so that a code two below is still a bit of a mask).
_CODE: dict[Tile, int] = {
    tile: 2 + (20 * "mpsz".index(tile[1]) + (4 if tile[1] == "z" else 1) * int(tile[0]))
    for tile in _KINDS
}
# A set of codes is kept as a bit mask (bit `code` set): a profile is cached for every new
# 13-tile hand, and a mask is a small int where a frozenset of a dozen codes is ~700 bytes.
# The codes within two ranks of each tile, itself included.
_NEAR: dict[Tile, int] = {
    tile: sum(1 << (code + step) for step in (-2, -1, 0, 1, 2)) for tile, code in _CODE.items()
}
# The codes within two ranks of each code, itself excluded, and the orphans' codes.
_AROUND: dict[int, int] = {
    code: sum(1 << (code + step) for step in (-2, -1, 1, 2)) for code in _CODE.values()
}
_ORPHAN_CODES = sum(1 << _CODE[tile] for tile in _ORPHANS)


class HandProfile(NamedTuple):
    """What the filters need to know of a hand (a named tuple: one is made per new hand)."""

    isolated: int  # the isolated tiles' codes, as a bit mask
    held: int  # every held tile's code, as a bit mask
    fei: int
    orphans_only: bool  # only terminals and honours (thirteen orphans territory)
    # No added tile can make it complete: one tile lies within two ranks of at most two
    # isolated tiles (isolated tiles are more than two apart), so more than two isolated
    # tiles beyond the Fei are past rescue.
    hopeless: bool


def profile(concealed: Sequence[Tile]) -> HandProfile:
    """The isolated tiles, held tiles and Fei of a hand."""
    codes = [_CODE[tile] for tile in concealed if tile != FEI]
    held = 0
    twice = 0  # codes held more than once: never isolated
    for code in codes:
        bit = 1 << code
        twice |= held & bit
        held |= bit
    isolated = 0
    for code in codes:
        if not _AROUND[code] & held and not twice >> code & 1:
            isolated |= 1 << code
    orphans_only = held & ~_ORPHAN_CODES == 0
    fei = len(concealed) - len(codes)
    hopeless = isolated.bit_count() - fei > 2 and not orphans_only
    return HandProfile(isolated, held, fei, orphans_only, hopeless)


def could_be_complete(concealed: Sequence[Tile]) -> bool:
    """False only when `concealed` (winning tile included) surely is no winning shape."""
    hand = profile(concealed)
    return hand.isolated.bit_count() <= hand.fei or hand.orphans_only


@lru_cache(maxsize=8192)
def _cached_profile(hand: tuple[Tile, ...]) -> HandProfile:
    return profile(hand)


def could_complete_with(hand: tuple[Tile, ...], tile: Tile) -> bool:
    """False only when `hand` plus `tile` surely is no winning shape.

    The added tile rescues the isolated tiles within two ranks of it (its own single copy
    included) and is itself isolated when nothing held lies within two ranks of it.
    """
    known = _cached_profile(hand)
    if known.hopeless:
        return False
    if tile == FEI:
        return known.isolated.bit_count() <= known.fei + 1 or known.orphans_only
    near = _NEAR[tile]
    isolated = (known.isolated & ~near).bit_count() + (not near & known.held)
    return isolated <= known.fei or (known.orphans_only and tile in _ORPHANS)
