"""The rules engine: pure, deterministic, standard library only. See docs/engine.md."""

from server.engine.actions import Action
from server.engine.errors import (
    ActionFormatError,
    EngineError,
    IllegalActionError,
    TileParseError,
)
from server.engine.tiles import Tile, format_tiles, parse_tile, parse_tiles

__all__ = [
    "Action",
    "ActionFormatError",
    "EngineError",
    "IllegalActionError",
    "Tile",
    "TileParseError",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
]
