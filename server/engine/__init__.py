"""The rules engine: pure, deterministic, standard library only. See docs/engine.md."""

from server.engine.actions import Action
from server.engine.deal import apply, deal_from_wall, legal_actions, new_deal, pending_seats, replay
from server.engine.deal_state import DealSettings, DealState
from server.engine.errors import (
    ActionFormatError,
    EngineError,
    IllegalActionError,
    TileParseError,
)
from server.engine.game import Game
from server.engine.scoring import score_hand
from server.engine.tiles import Tile, format_tiles, parse_tile, parse_tiles
from server.engine.view import own_view, public_view, seat_public_view, table_view, view
from server.engine.wall import WallError

__all__ = [
    "Action",
    "ActionFormatError",
    "DealSettings",
    "DealState",
    "EngineError",
    "Game",
    "IllegalActionError",
    "Tile",
    "TileParseError",
    "WallError",
    "apply",
    "deal_from_wall",
    "format_tiles",
    "legal_actions",
    "new_deal",
    "own_view",
    "parse_tile",
    "parse_tiles",
    "pending_seats",
    "public_view",
    "replay",
    "score_hand",
    "seat_public_view",
    "table_view",
    "view",
]
