"""Melds: sets laid on the table (or concealed kongs), shared by the deal and scoring."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine.tiles import FEI, Tile

CHOW = "chow"
PONG = "pong"
KONG = "kong"


@dataclass(frozen=True)
class Meld:
    """A shown set.

    `tiles` are the tiles as laid, a Fei written ``"j"``. `fei_as` is the tile a Fei in the
    set stands for (fixed when the set was shown). `concealed` is true only for a concealed
    kong. `claimed_from` and `claimed_tile` record the discard that made a claimed set.
    """

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool = False
    fei_as: Tile | None = None
    claimed_from: str | None = None
    claimed_tile: Tile | None = None

    @property
    def fei_count(self) -> int:
        """How many Fei the set holds."""
        return self.tiles.count(FEI)

    @property
    def real_tiles(self) -> tuple[Tile, ...]:
        """The tiles the set stands for, each Fei replaced by what it stands for."""
        if self.fei_as is None:
            return self.tiles
        return tuple(self.fei_as if tile == FEI else tile for tile in self.tiles)

    @property
    def base_tile(self) -> Tile:
        """The lowest real tile the set stands for (the pong's tile, or a chow's first)."""
        return min(self.real_tiles, key=lambda t: (t[-1], t[0]))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Meld:
        """The inverse of `to_json`: a shown set back from a view's or a result's JSON."""
        return cls(
            kind=str(obj["kind"]),
            tiles=tuple(obj["tiles"]),
            concealed=bool(obj.get("concealed", False)),
            fei_as=obj.get("fei_as"),
            claimed_from=obj.get("from"),
            claimed_tile=obj.get("claimed"),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, as in views and results."""
        obj: dict[str, Any] = {
            "kind": self.kind,
            "tiles": list(self.tiles),
            "concealed": self.concealed,
        }
        if self.fei_as is not None:
            obj["fei_as"] = self.fei_as
        if self.claimed_from is not None:
            obj["from"] = self.claimed_from
            obj["claimed"] = self.claimed_tile
        return obj
