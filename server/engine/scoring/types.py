"""What scoring takes and gives: shared by the deal and by `mahjong-hall score`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from server.engine.melds import Meld
from server.engine.tiles import Tile


@dataclass(frozen=True)
class WinFlags:
    """How the hand was won. Scoring trusts these; the deal sets them from what happened."""

    self_drawn: bool = False
    replacement: str | None = None  # None, "bonus" (after a flower or a sunk Fei) or "kong"
    robbing_kong: bool = False
    last_tile: bool = False
    last_discard: bool = False
    heavenly: bool = False
    earthly: bool = False
    kong_upon_kong: bool = False


@dataclass(frozen=True)
class WinningHand:
    """A complete hand to score.

    `concealed` holds the tiles in the hand including `winning_tile`. `seat_wind` and
    `round_wind` are seat letters (``"E"``..``"N"``); the dealer is ``"E"``.
    """

    variant: str
    seat_wind: str
    concealed: tuple[Tile, ...]
    winning_tile: Tile
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    round_wind: str = "E"
    flags: WinFlags = field(default_factory=WinFlags)


@dataclass(frozen=True)
class Pattern:
    """One fan source that counted, with a stable snake_case id."""

    id: str
    fan: int


class ReadingSet(NamedTuple):
    """One group of the best reading's concealed tiles, for showing how the hand was read.

    `kind` is ``"chow"``, ``"pong"``, ``"kong"`` or ``"pair"`` (the eye, and each pair of
    seven pairs), or ``"orphans"`` (the fourteen tiles of thirteen orphans). `tiles` are as
    held (a Fei written ``"j"``); `stands_for` are the tiles they count as, Fei resolved.
    """

    kind: str
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]

    def to_json(self) -> dict[str, Any]:
        """The set as it appears in a result's ``"sets"`` list."""
        return {"kind": self.kind, "tiles": list(self.tiles), "stands_for": list(self.stands_for)}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The best reading of a hand.

    `fan` is after the table's cap. `valid` is false when there is no complete shape or the
    fan falls short of the minimum; then `reason` says which and `points` is 0.
    `sets` lays out the best reading's concealed tiles (empty when there is no complete
    shape); shown sets and concealed kongs are the hand's melds and are not repeated.
    """

    valid: bool
    fan: int
    limit: bool
    patterns: tuple[Pattern, ...]
    points: int
    reason: str | None = None
    sets: tuple[ReadingSet, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The output object of docs/cli.md, "mahjong-hall score" (``"sets"`` included)."""
        obj: dict[str, Any] = {
            "valid": self.valid,
            "fan": self.fan,
            "limit": self.limit,
            "patterns": [{"id": p.id, "fan": p.fan} for p in self.patterns],
            "points": self.points,
        }
        if self.reason is not None:
            obj["reason"] = self.reason
        obj["sets"] = [reading_set.to_json() for reading_set in self.sets]
        return obj
