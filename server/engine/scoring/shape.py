"""Facts about a reading that both tables' pattern lists ask for."""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.scoring.readings import Reading
from server.engine.scoring.types import Pattern
from server.engine.tiles import Tile

WIND_TILES = frozenset({"1z", "2z", "3z", "4z"})
DRAGON_TILES = frozenset({"5z", "6z", "7z"})


@dataclass(frozen=True)
class Tally:
    """What one reading scores: fan patterns, and the named limit hands it holds."""

    patterns: tuple[Pattern, ...]
    limits: tuple[str, ...]

    @property
    def fan(self) -> int:
        """The fan patterns added up (before the cap)."""
        return sum(pattern.fan for pattern in self.patterns)


@dataclass(frozen=True)
class ShapeFacts:
    """What a reading is made of, in the terms the fan tables use."""

    pong_tiles: tuple[Tile, ...]  # the tile of every pong or kong
    chows: int
    suits: set[str]  # suit letters of the suited tiles it stands for
    honour_tiles: bool
    dragon_pongs: int
    wind_pongs: int
    eye_is_wind: bool
    eye_is_dragon: bool
    all_pongs: bool
    all_terminals: bool


def shape_facts(reading: Reading) -> ShapeFacts:
    """Summarise `reading` (its eye must be decided, not a bare Fei)."""
    pong_tiles = tuple(s.tile for s in reading.sets if s.is_pong_or_kong)
    chows = len(reading.sets) - len(pong_tiles)
    stood_for = [*pong_tiles, reading.eye] + [s.tile for s in reading.sets if not s.is_pong_or_kong]
    suits = {tile[-1] for tile in stood_for if tile[-1] != "z"}
    honour_tiles = any(tile[-1] == "z" for tile in stood_for)
    all_terminals = chows == 0 and all(tile[-1] != "z" and tile[0] in "19" for tile in stood_for)
    return ShapeFacts(
        pong_tiles=pong_tiles,
        chows=chows,
        suits=suits,
        honour_tiles=honour_tiles,
        dragon_pongs=sum(1 for tile in pong_tiles if tile in DRAGON_TILES),
        wind_pongs=sum(1 for tile in pong_tiles if tile in WIND_TILES),
        eye_is_wind=reading.eye in WIND_TILES,
        eye_is_dragon=reading.eye in DRAGON_TILES,
        all_pongs=chows == 0,
        all_terminals=all_terminals,
    )
