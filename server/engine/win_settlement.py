"""The payments that follow the win(s) of a deal, from what the table shows at its end.

The deal calls this when it ends with winners, and so does the real-table ledger
(`server.ledger`), which knows no deal state: only the win values, who pays them, and, at
3 Kaki, what each seat shows (its bonus tiles, its shown sets and its Fei). So both
settle a win by the same arithmetic (`settlement.py`), in the same order:

- each winner's win payments (Hong Kong: the shooter or everyone; 3 Kaki: the shooter's
  value and the other loser's half, or both the value, with dragon liability);
- at 3 Kaki, after the win: extra Fei, then the two losers square up.

Kongs and families are paid at once during the deal (`settlement.kong_payments`,
`settlement.family_payments`), never here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.engine.deal_result import Payment
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring.kaki3 import complete_families, honour_set_fan, scoring_bonus_count
from server.engine.settlement import (
    Win,
    extra_fei_payments,
    hk_win_payments,
    kaki3_win_payments,
    square_up_payments,
)
from server.engine.tiles import Tile
from server.engine.variants import KAKI3, Variant


@dataclass(frozen=True)
class SeatShowing:
    """What one seat shows at the end of a 3 Kaki deal, as the settlement counts it.

    `bonus` are its bonus tiles laid aside (a sunk Fei written ``"j"``), `melds` its shown
    sets and concealed kongs, `fei` every Fei it holds: in hand, in shown sets and sunk.
    """

    bonus: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    fei: int = 0


def win_settlement(
    variant: Variant,
    wins: Sequence[Win],
    showing: Mapping[str, SeatShowing],
    rules: TableRules | None = None,
) -> list[Payment]:
    """Every payment after the deal's `wins`, in order (see the module docstring).

    `showing` maps every seat to what it shows (3 Kaki; Hong Kong reads none of it).
    `rules` are the table's house rules (who pays a Hong Kong win).
    """
    payments: list[Payment] = []
    winner_seats = [win.seat for win in wins]
    for win in wins:
        if variant.name == KAKI3:
            payments += kaki3_win_payments(variant, win)
            payments += _after_win_payments(variant, win.seat, showing)
        else:
            payments += hk_win_payments(variant, win, rules, winner_seats)
    return payments


def square_up_count(seat: str, shown: SeatShowing) -> int:
    """A 3 Kaki loser's count for the square-up: scoring bonus tiles, complete families,
    the fan of scoring honour sets on the table, and twice the Fei."""
    return (
        scoring_bonus_count(seat, shown.bonus)
        + len(complete_families(shown.bonus))
        + honour_set_fan(seat, shown.melds)
        + 2 * shown.fei
    )


def _after_win_payments(
    variant: Variant, winner: str, showing: Mapping[str, SeatShowing]
) -> list[Payment]:
    """Extra Fei, then the two losers square up."""
    fei_counts = {seat: showing[seat].fei for seat in variant.seats}
    payments = extra_fei_payments(winner, fei_counts)
    losers = [seat for seat in variant.seats if seat != winner]
    counts = {loser: square_up_count(loser, showing[loser]) for loser in losers}
    return payments + square_up_payments(losers, counts)
