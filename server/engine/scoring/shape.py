"""Facts about a reading that both tables' pattern lists ask for."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from server.engine.melds import CHOW
from server.engine.scoring.readings import Reading
from server.engine.scoring.types import Pattern
from server.engine.tiles import Tile

WIND_TILES = frozenset({"1z", "2z", "3z", "4z"})
DRAGON_TILES = frozenset({"5z", "6z", "7z"})


class Tally(NamedTuple):
    """What one reading scores: fan patterns, and the named limit hands it holds."""

    patterns: tuple[Pattern, ...]
    limits: tuple[str, ...]
    fan: int  # the fan patterns added up (before the cap)

    @classmethod
    def of(cls, patterns: Sequence[Pattern], limits: Sequence[str]) -> Tally:
        """A tally of these patterns and limit hands, its fan added up once."""
        return cls(tuple(patterns), tuple(limits), sum(pattern.fan for pattern in patterns))


class HonourPatterns(NamedTuple):
    """The honour patterns a reading holds, stated alike for both tables.

    Each names different tiles: Little Dragons, sets of two different dragons and the third
    dragon as the eye; Big Dragons, a set of each dragon; Big Winds, a set of each wind;
    Little Winds, sets of three different winds and the fourth wind as the eye. At 3 Kaki a
    Fei may stand for a fifth copy of an honour, so a reading can hold two sets of one
    honour, or the eye and a set of one: such a reading scores each set's own fan and none
    of these patterns. (Hong Kong has no Fei, so it never meets a fifth copy, and has no
    Little Dragons pattern.)
    """

    little_dragons: bool
    big_dragons: bool
    little_winds: bool
    big_winds: bool


NO_HONOUR_PATTERNS = HonourPatterns(False, False, False, False)


def honour_patterns(honour_sets: Sequence[Tile], eye: Tile) -> HonourPatterns:
    """Which honour patterns sets of `honour_sets` (one tile per pong or kong of an honour,
    in any order) and `eye` make."""
    if len(honour_sets) < 2:
        return NO_HONOUR_PATTERNS
    kinds = frozenset(honour_sets)
    if len(kinds) < len(honour_sets) or eye in kinds:
        return NO_HONOUR_PATTERNS  # a fifth copy of an honour
    dragons = len(kinds & DRAGON_TILES)
    winds = len(kinds) - dragons
    return HonourPatterns(
        dragons == 2 and eye in DRAGON_TILES,
        dragons == 3,
        winds == 3 and eye in WIND_TILES,
        winds == 4,
    )


# Readings repeat the same few honour sets again and again.
_honour_patterns_of = lru_cache(maxsize=4096)(honour_patterns)


class ShapeFacts(NamedTuple):
    """What a reading is made of, in the terms the fan tables use."""

    pong_tiles: tuple[Tile, ...]  # the tile of every pong or kong
    chows: int
    suits: frozenset[str]  # suit letters of the suited tiles it stands for
    honour_tiles: bool
    honours: HonourPatterns
    all_pongs: bool
    all_terminals: bool


def shape_facts(reading: Reading) -> ShapeFacts:
    """Summarise `reading` (its eye must be decided, not a bare Fei)."""
    eye = reading.eye
    pong_tiles: list[Tile] = []
    suits = set()
    honour_tiles = eye[-1] == "z"
    if not honour_tiles:
        suits.add(eye[-1])
    terminals = not honour_tiles and eye[0] in "19"
    honour_sets: list[Tile] = []
    for read_set in reading.sets:
        tile = read_set.tile
        suit = tile[-1]
        if suit == "z":
            honour_tiles = True
        else:
            suits.add(suit)
        if read_set.kind == CHOW:
            terminals = False
            continue
        pong_tiles.append(tile)
        if suit == "z":
            terminals = False
            honour_sets.append(tile)
        elif tile[0] not in "19":
            terminals = False
    chows = len(reading.sets) - len(pong_tiles)
    return ShapeFacts(
        tuple(pong_tiles),
        chows,
        frozenset(suits),
        honour_tiles,
        _honour_patterns_of(tuple(honour_sets), eye)
        if len(honour_sets) > 1
        else NO_HONOUR_PATTERNS,
        chows == 0,
        terminals,
    )
