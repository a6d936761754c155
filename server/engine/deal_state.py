"""The state of one deal: what each seat holds, the wall, whose decision it is.

`apply` never changes a state it is given: it works on `DealState.copy()`, and changes a
seat's tiles only through `DealState.own`, which copies them first. The wall is an
immutable tuple shared by every state of a deal; drawing only moves `front` (draws) or
`back` (replacements), so copying a state stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from server.engine.actions import Action
from server.engine.deal_result import DealResult, Payment, net_of
from server.engine.errors import EngineError
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.tiles import ALL_TILE_KINDS, SEATS, Tile
from server.engine.variants import KAKI3, Variant, get_variant

# Phases of a deal, as `view` reports them.
DISCARD_PHASE = "discard"  # the player to act holds a full hand and must throw (or win, kong...)
CLAIM_PHASE = "claim"  # a discard is on offer: the seats that can claim it decide
ROB_PHASE = "rob"  # an added kong is on offer to the seats that can win on it
ENDED = "ended"

Event = dict[str, Any]

# Canonical tile order as a lookup: the deal sorts small lists often, and a dict lookup
# is much cheaper than `tiles.sort_key`. Same order as `tiles.sorted_tiles`.
_TILE_ORDER: dict[Tile, int] = {tile: index for index, tile in enumerate(ALL_TILE_KINDS)}


def in_tile_order(tiles: Iterable[Tile]) -> list[Tile]:
    """The tiles in canonical order (the fast equivalent of `tiles.sorted_tiles`)."""
    return sorted(tiles, key=_TILE_ORDER.__getitem__)


@dataclass(frozen=True)
class DealSettings:
    """The table settings of one deal.

    `rules` are the table's house rules (minimum fan, cap, points, who pays a win); None
    means the seed's rules of the variant. `table_rules` is always the rules in force.
    """

    variant: str
    round_wind: str = "E"
    rules: TableRules | None = None

    def __post_init__(self) -> None:
        get_variant(self.variant)
        if self.rules is not None and not isinstance(self.rules, TableRules):
            raise EngineError(f"rules must be TableRules, got {type(self.rules).__name__}")
        if self.rules is not None and self.rules.variant != self.variant:
            raise EngineError(
                f"rules of the {self.rules.variant} table given to a {self.variant} deal"
            )
        if self.round_wind not in SEATS:
            raise EngineError(
                f"unknown round wind {self.round_wind!r}; expected one of {list(SEATS)}"
            )
        if self.variant == KAKI3 and self.round_wind != "E":
            raise EngineError("3 Kaki is always played in the East round")

    @property
    def table_rules(self) -> TableRules:
        """The house rules in force: `rules`, or the seed's rules of the variant."""
        return self.rules if self.rules is not None else TableRules.default(self.variant)


@dataclass(slots=True)
class SeatState:
    """One seat's tiles. `hand` holds every concealed tile, the drawn one included."""

    hand: list[Tile]
    drawn: Tile | None = None
    melds: list[Meld] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    bonus: list[Tile] = field(default_factory=list)

    def copy(self) -> SeatState:
        """An independent copy (melds are immutable, so the lists are enough)."""
        return SeatState(
            list(self.hand), self.drawn, list(self.melds), list(self.discards), list(self.bonus)
        )

    def fei_count(self) -> int:
        """Every Fei this seat holds: in hand, in shown sets and sunk."""
        return self.hand.count("j") + self.bonus.count("j") + sum(m.fei_count for m in self.melds)


@dataclass(slots=True)
class DealState:
    """Everything about one deal. Treat it as read-only: `apply` returns a new one."""

    settings: DealSettings
    variant: Variant
    wall: tuple[Tile, ...]
    front: int
    back: int
    players: dict[str, SeatState]
    phase: str = DISCARD_PHASE
    turn: str = "E"
    last_discard: tuple[str, Tile] | None = None
    # Claim or rob window: what each seat may still choose, and what the others chose.
    options: dict[str, tuple[Action, ...]] = field(default_factory=dict)
    decisions: dict[str, Action] = field(default_factory=dict)
    # The added kong on offer in a rob window: (adder, tile).
    robbed_kong: tuple[str, Tile] | None = None
    # Same-turn throw restriction after a chow or pong (3 Kaki).
    forbidden: tuple[Tile, ...] = ()
    # True when the player to act got here by drawing (or as dealer at the start), so may
    # win by self-draw and declare kongs; false straight after a claim.
    drew_this_turn: bool = True
    replacement: str | None = None  # "kong" or "bonus" when the last tile came from the back
    kongs_this_turn: int = 0
    drew_last_tile: bool = False
    discard_count: int = 0
    last_drawer: str = "E"
    # Dragon liability (3 Kaki): seat that claimed a third dragon -> the seat that threw it.
    liable_for: dict[str, str] = field(default_factory=dict)
    # Families already paid, as "seat:suit", so a family is paid once.
    families_paid: tuple[str, ...] = ()
    in_initial_layout: bool = False
    payments: list[Payment] = field(default_factory=list)
    result: DealResult | None = None
    # Memo of the self-draw win check for this exact state (not part of equality);
    # `apply` clears it on the state it returns.
    self_win_memo: list[Any] = field(default_factory=list, compare=False, repr=False)
    # Seats whose `SeatState` this state owns: a copy shares the others with its
    # original until `own` copies them, so `apply` copies only the seats it changes.
    owned: set[str] = field(default_factory=set, compare=False, repr=False)

    @property
    def is_over(self) -> bool:
        """True once the deal has ended (win, draw or timeout)."""
        return self.phase == ENDED

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats playing this deal, in turn order."""
        return self.variant.seats

    @property
    def wall_remaining(self) -> int:
        """Tiles that can still be drawn (3 Kaki never draws its last 7)."""
        return self.back - self.front - self.variant.dead_wall

    def copy(self) -> DealState:
        """A copy to change: seats' tiles are shared until `own` is called for them."""
        return DealState(
            settings=self.settings,
            variant=self.variant,
            wall=self.wall,
            front=self.front,
            back=self.back,
            players=dict(self.players),
            phase=self.phase,
            turn=self.turn,
            last_discard=self.last_discard,
            options=dict(self.options),
            decisions=dict(self.decisions),
            robbed_kong=self.robbed_kong,
            forbidden=self.forbidden,
            drew_this_turn=self.drew_this_turn,
            replacement=self.replacement,
            kongs_this_turn=self.kongs_this_turn,
            drew_last_tile=self.drew_last_tile,
            discard_count=self.discard_count,
            last_drawer=self.last_drawer,
            liable_for=dict(self.liable_for),
            families_paid=self.families_paid,
            in_initial_layout=self.in_initial_layout,
            payments=list(self.payments),
            result=self.result,
            self_win_memo=list(self.self_win_memo),
        )

    def own(self, seat: str) -> SeatState:
        """`seat`'s tiles, ready to change: copied first if shared with another state."""
        if seat not in self.owned:
            self.players[seat] = self.players[seat].copy()
            self.owned.add(seat)
        return self.players[seat]

    def all_tiles(self) -> list[Tile]:
        """Every tile of the deal wherever it lies: hands, sets, discards, bonus, wall."""
        tiles: list[Tile] = list(self.wall[self.front : self.back])
        for player in self.players.values():
            tiles += player.hand + player.discards + player.bonus
            for meld in player.melds:
                tiles += meld.tiles
        return tiles

    def net_scores(self) -> dict[str, int]:
        """Each seat's net from the payments so far."""
        return net_of(self.seats, self.payments)
