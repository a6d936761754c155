"""What differs between the two tables, in one place, so the deal is one engine.

The deal reads a `Variant` instead of branching on the table's name: the seats, the tile
set, how many tiles are never drawn, whether Fei and bonus tiles exist, how many players
may win one discard, whether a set just shown bans throwing its tiles, and the kong
payments.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.engine.errors import EngineError
from server.engine.tiles import Tile, hk_tile_set, kaki3_tile_set


class VariantName(StrEnum):
    """The two tables. A `StrEnum`, so a name is its wire string ("hk", "kaki3") in JSON and
    in a dict key; code compares against these members, never against bare strings."""

    HK = "hk"
    KAKI3 = "kaki3"


HK = VariantName.HK
KAKI3 = VariantName.KAKI3


@dataclass(frozen=True)
class Variant:
    """The rules of one table that the deal depends on."""

    name: VariantName
    seats: tuple[str, ...]
    # The suits of the tile set (Hong Kong plays all three, 3 Kaki only dots).
    suits: tuple[str, ...]
    tile_set: tuple[Tile, ...]
    # Tiles at the end of the wall that are never drawn (3 Kaki keeps the last 7).
    dead_wall: int
    has_fei: bool
    has_bonus_tiles: bool
    # 3 Kaki: only the nearest claimant after the discarder wins a discard.
    one_winner_per_discard: bool
    # True when the winner deals next (3 Kaki); False for the Hong Kong rotation.
    winner_deals_next: bool
    # 3 Kaki: after a chow or pong the player may not throw a tile of that set (nor sink
    # its Fei) in the same turn. Hong Kong has no such rule.
    same_turn_throw_ban: bool
    # The seed rules' fan minimum to win and the fan cap of a payment (house rules may
    # set others per table); the web client reads them from the room, not its own copy.
    min_fan: int
    fan_cap: int
    # Deals in one "round" of the game when the game counts deals (3 Kaki has no wind
    # rounds: one round is one deal per seat); None when wind rounds end it (Hong Kong).
    deals_per_round: int | None
    # Thirteen orphans and seven pairs are winning shapes (Hong Kong only).
    has_special_hands: bool
    exposed_kong_points: int = 2
    added_kong_points: int = 1
    concealed_kong_points: int = 2

    @property
    def player_count(self) -> int:
        """How many seats play."""
        return len(self.seats)

    @property
    def has_wind_rounds(self) -> bool:
        """True when the game runs through wind rounds (Hong Kong); 3 Kaki counts deals
        and always plays the East round."""
        return self.deals_per_round is None

    def next_seat(self, seat: str) -> str:
        """The seat after `seat` in turn order."""
        return _NEXT_SEAT[self.seats][seat]

    def distance(self, from_seat: str, to_seat: str) -> int:
        """How many places after `from_seat` `to_seat` sits (1 = the next player)."""
        return (self.seats.index(to_seat) - self.seats.index(from_seat)) % len(self.seats)

    def hand_size(self, seat: str) -> int:
        """Tiles dealt to `seat`: the dealer (East) takes one more."""
        return 14 if seat == "E" else 13


VARIANTS: dict[str, Variant] = {
    HK: Variant(
        name=HK,
        seats=("E", "S", "W", "N"),
        suits=("m", "p", "s"),
        tile_set=tuple(hk_tile_set()),
        dead_wall=0,
        has_fei=False,
        has_bonus_tiles=False,
        one_winner_per_discard=False,
        winner_deals_next=False,
        same_turn_throw_ban=False,
        min_fan=3,
        fan_cap=8,
        deals_per_round=None,
        has_special_hands=True,
    ),
    KAKI3: Variant(
        name=KAKI3,
        seats=("E", "S", "W"),
        suits=("p",),
        tile_set=tuple(kaki3_tile_set()),
        dead_wall=7,
        has_fei=True,
        has_bonus_tiles=True,
        one_winner_per_discard=True,
        winner_deals_next=True,
        same_turn_throw_ban=True,
        min_fan=5,
        fan_cap=10,
        deals_per_round=3,
        has_special_hands=False,
    ),
}

# The tables where seven pairs and thirteen orphans win, as names: the hand functions take
# the table's name and run in the bots' inner loops, where a set lookup is what they afford.
SPECIAL_HAND_TABLES: frozenset[str] = frozenset(
    name for name, variant in VARIANTS.items() if variant.has_special_hands
)

_NEXT_SEAT = {
    variant.seats: {
        seat: variant.seats[(i + 1) % len(variant.seats)] for i, seat in enumerate(variant.seats)
    }
    for variant in VARIANTS.values()
}


def get_variant(name: str) -> Variant:
    """The `Variant` called `name` (``"hk"`` or ``"kaki3"``); `EngineError` for others."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise EngineError(f"unknown variant {name!r}; expected one of {sorted(VARIANTS)}") from None
