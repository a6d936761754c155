"""Facts about a reading that both tables' pattern lists ask for."""

from __future__ import annotations

from collections.abc import Sequence
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


class ShapeFacts(NamedTuple):
    """What a reading is made of, in the terms the fan tables use."""

    pong_tiles: tuple[Tile, ...]  # the tile of every pong or kong
    chows: int
    suits: frozenset[str]  # suit letters of the suited tiles it stands for
    honour_tiles: bool
    dragon_pongs: int
    wind_pongs: int
    eye_is_wind: bool
    eye_is_dragon: bool
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
    dragon_pongs = wind_pongs = 0
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
            if tile in DRAGON_TILES:
                dragon_pongs += 1
            else:
                wind_pongs += 1
        elif tile[0] not in "19":
            terminals = False
    chows = len(reading.sets) - len(pong_tiles)
    return ShapeFacts(
        tuple(pong_tiles),
        chows,
        frozenset(suits),
        honour_tiles,
        dragon_pongs,
        wind_pongs,
        eye in WIND_TILES,
        eye in DRAGON_TILES,
        chows == 0,
        terminals,
    )
