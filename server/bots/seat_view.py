"""What one seat knows, read out of the `view` JSON (docs/engine.md) into a handy form.

The bot decides from this and nothing else, so it can never lean on hidden state: every
field below comes from the seat's own view, the same object a player's client receives.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.tiles import FEI, WIND_OF_SEAT, Tile, is_bonus
from server.engine.variants import get_variant


@dataclass(frozen=True)
class OpponentView:
    """The public part of another seat: its shown sets, discards and bonus tiles."""

    seat: str
    melds: tuple[Meld, ...]
    discards: tuple[Tile, ...]
    bonus: tuple[Tile, ...]
    hand_count: int


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the table at a decision.

    `concealed` is the whole concealed hand, the freshly drawn tile included. `unseen`
    counts, for each tile kind, the copies this seat has not seen anywhere (not in its own
    hand, not discarded, not in a shown set, not laid aside as a bonus tile): the copies
    that may still be drawn or thrown.
    """

    variant: str
    me: str
    seats: tuple[str, ...]
    dealer: str
    seat_wind: Tile
    round_wind: Tile
    round_seat: str
    phase: str
    turn: str
    concealed: tuple[Tile, ...]
    drawn_tile: Tile | None
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    forbidden: frozenset[Tile]
    wall_remaining: int
    last_discard: tuple[str, Tile] | None
    opponents: tuple[OpponentView, ...]
    unseen: dict[Tile, int]
    # The table's house rules, given beside the view (the view itself does not carry them).
    rules: TableRules
    # Scratch space for one decision: hand readings already worked out (see evaluation).
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def min_fan(self) -> int:
        """The table's fan minimum under its house rules (seed: 3 Hong Kong, 5 3 Kaki)."""
        return self.rules.min_fan

    def unseen_count(self, tile: Tile) -> int:
        """Copies of `tile` this seat has not seen (0 for a kind that is all out)."""
        return self.unseen.get(tile, 0)


def _seen_tiles(view: dict[str, Any], concealed: tuple[Tile, ...]) -> Counter[Tile]:
    """Every tile this seat can see: its hand, all discards, shown sets and bonus tiles."""
    seen: Counter[Tile] = Counter(concealed)
    for public in view["players"].values():
        seen.update(public.get("discards", ()))
        for meld in public.get("melds", ()):
            seen.update(meld["tiles"])
        # Sunk Fei are laid among the bonus tiles as "j"; they are gone from play too.
        seen.update(tile for tile in public.get("bonus", ()) if tile == FEI)
    # A claimed discard leaves the discarder's pile for the claimer's set, so it is
    # counted once.
    return seen


def _unseen_counts(variant: str, seen: Counter[Tile]) -> dict[Tile, int]:
    suits = get_variant(variant).suits
    kinds = [f"{r}{s}" for s in suits for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    unseen = {kind: max(0, 4 - seen[kind]) for kind in kinds}
    if get_variant(variant).has_fei:
        unseen[FEI] = max(0, 4 - seen[FEI])
    return unseen


def read_view(view: dict[str, Any], rules: TableRules | None = None) -> SeatView:
    """Read a seat's `view` into a `SeatView`, at a table playing `rules` (the seed's
    rules of the view's variant when None). Raises `ValueError` for a spectator's view or
    rules of another table."""
    me = view.get("me")
    if me is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    drawn = view.get("drawn_tile")
    hand = list(view.get("hand") or ())
    concealed = tuple(hand + ([drawn] if drawn else []))
    players = view["players"]
    melds = tuple(Meld.from_json(m) for m in players[me].get("melds", ()))
    opponents = tuple(
        OpponentView(
            seat=seat,
            melds=tuple(Meld.from_json(m) for m in public.get("melds", ())),
            discards=tuple(public.get("discards", ())),
            bonus=tuple(public.get("bonus", ())),
            hand_count=int(public.get("hand_count", 0)),
        )
        for seat, public in players.items()
        if seat != me
    )
    last = view.get("last_discard")
    seen = _seen_tiles(view, concealed)
    return SeatView(
        variant=view["variant"],
        me=me,
        seats=tuple(view["seats"]),
        dealer=view.get("dealer", "E"),
        seat_wind=WIND_OF_SEAT[me],
        round_wind=WIND_OF_SEAT[view.get("round_wind", "E")],
        round_seat=view.get("round_wind", "E"),
        phase=view.get("phase", "discard"),
        turn=view.get("turn", me),
        concealed=tuple(tile for tile in concealed if not is_bonus(tile)),
        drawn_tile=drawn,
        melds=melds,
        bonus=tuple(players[me].get("bonus", ())),
        forbidden=frozenset(view.get("forbidden") or ()),
        wall_remaining=int(view.get("wall_remaining", 0)),
        last_discard=(last["seat"], last["tile"]) if last else None,
        opponents=opponents,
        unseen=_unseen_counts(view["variant"], seen),
        rules=_rules_for(view["variant"], rules),
    )


def _rules_for(variant: str, rules: TableRules | None) -> TableRules:
    if rules is None:
        return TableRules.default(variant)
    if rules.variant != variant:
        raise ValueError(f"rules of the {rules.variant} table given for a {variant} view")
    return rules
