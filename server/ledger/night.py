"""A night at a real table: hand after hand, the deal moving on, the running scores.

A ledger is its setup (the table, the house rules, the players in seat order from East,
the round wind of its first hand) and the list of hands entered. Everything else is
worked out from those again whenever they change (`reckon_night`): who sat where at each
hand, follows from the hands before it (the engine's `dealership`), so editing or
deleting hand k moves every later seat, score and payment with it. A change that leaves
some later hand impossible (say, short of fan at its new seat) is refused as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.errors import EngineError
from server.engine.rules import TableRules
from server.engine.tiles import SEATS
from server.engine.variants import Variant, get_variant
from server.ledger.entries import HandEntry, LedgerError
from server.ledger.reckoning import (
    HandReckoning,
    Seating,
    Table,
    first_seating,
    reckon_hand,
)

MOST_HANDS = 500


@dataclass(frozen=True)
class LedgerSetup:
    """What a ledger is opened with. Build it with `checked`."""

    variant: Variant
    players: tuple[str, ...]
    rules: TableRules | None = None
    round_wind: str = "E"

    @classmethod
    def checked(
        cls,
        variant: str,
        players: Sequence[str],
        rules: Any = None,
        round_wind: str = "E",
    ) -> LedgerSetup:
        """The setup, or `LedgerError` naming what the table cannot have."""
        try:
            table = get_variant(variant)
            house = None if rules is None else TableRules.from_json(rules, variant)
        except EngineError as error:
            raise LedgerError(str(error)) from None
        if len(players) != table.player_count:
            raise LedgerError(
                f"players: the {variant} table seats {table.player_count}, not {len(players)}"
            )
        folded = [name.casefold() for name in players]
        if len(set(folded)) != len(folded) or not all(folded):
            raise LedgerError("players: every player needs a name of their own")
        if round_wind not in SEATS or (round_wind != "E" and not table.has_wind_rounds):
            raise LedgerError(f"round_wind: {round_wind!r} is not a round of the {variant} table")
        house_rules = None if house is None or house.is_default else house
        return cls(table, tuple(players), house_rules, round_wind)

    @property
    def table(self) -> Table:
        """The table the hands are reckoned at."""
        return Table(self.variant, self.rules, self.players)

    @property
    def table_rules(self) -> TableRules:
        """The house rules in force (the seed's when none were chosen)."""
        return self.rules or TableRules.default(self.variant.name)

    def read_entry(self, obj: Any) -> HandEntry:
        """A hand body read for this table (`HandEntry.from_json`)."""
        return HandEntry.from_json(obj, self.variant, len(self.players))


@dataclass(frozen=True)
class ReckonedHand:
    """Hand `hand_no` (from 1) as entered, where everyone sat, and what it came to:
    `net` per player for this hand, `totals` per player after it."""

    hand_no: int
    entry: HandEntry
    seating: Seating
    reckoning: HandReckoning
    net: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Night:
    """Every hand reckoned, the seating of the coming hand and the running totals."""

    setup: LedgerSetup
    hands: tuple[ReckonedHand, ...]
    coming: Seating
    totals: tuple[int, ...]

    @property
    def balances(self) -> dict[str, int]:
        """Each player's points so far, by name."""
        return dict(zip(self.setup.players, self.totals, strict=True))


def reckon_night(setup: LedgerSetup, entries: Sequence[HandEntry]) -> Night:
    """Reckon every hand in order; `LedgerError` naming the first hand that cannot be."""
    if len(entries) > MOST_HANDS:
        raise LedgerError(f"a ledger holds at most {MOST_HANDS} hands")
    seating = first_seating(setup.variant, setup.round_wind)
    totals = (0,) * len(setup.players)
    hands = []
    for hand_no, entry in enumerate(entries, 1):
        try:
            reckoning = reckon_hand(setup.table, entry, seating)
        except LedgerError as error:
            error.hand_no = hand_no
            raise
        net = [0] * len(setup.players)
        for paid in reckoning.payments:
            net[paid.payer] -= paid.points
            net[paid.payee] += paid.points
        totals = tuple(total + change for total, change in zip(totals, net, strict=True))
        hands.append(ReckonedHand(hand_no, entry, seating, reckoning, tuple(net), totals))
        seating = seating.after(setup.variant, seating.seat_of[reckoning.next_dealer])
    return Night(setup, tuple(hands), seating, totals)
