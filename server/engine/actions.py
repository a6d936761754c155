"""Actions: the one format shared by the engine, the wire (`legal`), the stored log and replay.

On the wire an action is a JSON object as in docs/cli.md, "Actions", e.g.
``{"seat": "S", "type": "pong", "tiles": "2z j", "fei_as": "2z"}``. `Action.from_json`
reads one, `Action.to_json` writes one; the round trip is exact for the engine's own output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.engine.errors import ActionFormatError, TileParseError
from server.engine.tiles import SEATS, Tile, format_tiles, parse_tile, parse_tiles, sorted_tiles

DISCARD = "discard"
CHOW = "chow"
PONG = "pong"
KONG = "kong"
WIN = "win"
PASS = "pass"
CONCEALED_KONG = "concealed_kong"
ADDED_KONG = "added_kong"
SINK = "sink"
SWAP = "swap"
# Not a player's choice: the room ends a deal at its time limit with this action, so the
# stored log replays a timed-out deal too. It never appears in `legal`.
TIMEOUT = "timeout"

ACTION_TYPES = (
    DISCARD,
    CHOW,
    PONG,
    KONG,
    WIN,
    PASS,
    CONCEALED_KONG,
    ADDED_KONG,
    SINK,
    SWAP,
    TIMEOUT,
)
CLAIM_TYPES = (CHOW, PONG, KONG)
_NEEDS_TILE = (DISCARD, CONCEALED_KONG, ADDED_KONG, SWAP)


@dataclass(frozen=True)
class Action:
    """One decision. `tiles` is kept sorted, so equal claims compare equal however written."""

    type: str
    seat: str | None = None
    tile: Tile | None = None
    tiles: tuple[Tile, ...] | None = None
    fei_as: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        """The wire form: only the fields that apply, tiles in notation."""
        obj: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            obj["seat"] = self.seat
        if self.tile is not None:
            obj["tile"] = self.tile
        if self.tiles is not None:
            obj["tiles"] = format_tiles(self.tiles)
        if self.fei_as is not None:
            obj["fei_as"] = self.fei_as
        return obj

    @classmethod
    def from_json(cls, obj: Any, seat: str | None = None) -> Action:
        """Read a wire action. `seat`, when given, is used if the object names none.

        Unknown extra fields (labels a server may add) are ignored. Raises
        `ActionFormatError` for anything that is not a well-formed action.
        """
        if not isinstance(obj, dict):
            raise ActionFormatError("an action must be a JSON object")
        kind = obj.get("type")
        if kind not in ACTION_TYPES:
            raise ActionFormatError(f"unknown action type {kind!r}")
        action_seat = obj.get("seat", seat)
        if action_seat is not None and action_seat not in SEATS:
            raise ActionFormatError(f"unknown seat {action_seat!r}")
        if seat is not None and action_seat != seat:
            raise ActionFormatError(
                f"action names seat {action_seat!r}, but it comes from {seat!r}"
            )
        try:
            tile = parse_tile(obj["tile"]) if obj.get("tile") is not None else None
            tiles_text = obj.get("tiles")
            tiles = tuple(sorted_tiles(parse_tiles(tiles_text))) if tiles_text is not None else None
            fei_as = parse_tile(obj["fei_as"]) if obj.get("fei_as") is not None else None
        except TileParseError as error:
            raise ActionFormatError(f"{kind}: {error}") from error
        if kind in _NEEDS_TILE and tile is None:
            raise ActionFormatError(f"a {kind} action needs a 'tile'")
        if kind in CLAIM_TYPES and not tiles:
            raise ActionFormatError(f"a {kind} action needs 'tiles', the hand tiles used")
        return cls(type=kind, seat=action_seat, tile=tile, tiles=tiles, fei_as=fei_as)

    def with_seat(self, seat: str) -> Action:
        """The same action, taken by `seat`."""
        return Action(self.type, seat, self.tile, self.tiles, self.fei_as)
