"""Payments: kongs and families at once, and the settlement after a win.

Every payment is a frozen `Payment` (JSON ``{"from", "to", "points", "reason"}``) with a reason
among `win`, `liability`, `kong`, `family`, `extra_fei`, `square_up`. Nothing here looks
at tiles: the deal counts what each rule needs and this module does the arithmetic, so
each rule of docs/rules.md ("3 Kaki: payments") reads as one function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.deal_result import Payment, net_of
from server.engine.rules import EVERYONE_FULL, TableRules
from server.engine.variants import Variant

WIN = "win"
LIABILITY = "liability"
KONG = "kong"
FAMILY = "family"
EXTRA_FEI = "extra_fei"
SQUARE_UP = "square_up"

EXPOSED = "exposed"
ADDED = "added"
CONCEALED = "concealed"


def payment(payer: str, payee: str, points: int, reason: str) -> Payment:
    """One payment record."""
    return Payment(payer, payee, points, reason)


def half_share(value: int) -> int:
    """The other loser's half of a 3 Kaki discard win, rounded up.

    Every value of the 3 Kaki schedule is even, so the rounding never shows at this
    table; it is fixed here so a changed schedule stays whole points.
    """
    return (value + 1) // 2


def kong_payments(
    variant: Variant, kong_seat: str, kind: str, discarder: str | None
) -> list[Payment]:
    """Payments for a kong, made at once: exposed from the discarder, others from each."""
    if kind == EXPOSED:
        assert discarder is not None
        return [payment(discarder, kong_seat, variant.exposed_kong_points, KONG)]
    points = variant.added_kong_points if kind == ADDED else variant.concealed_kong_points
    return [
        payment(other, kong_seat, points, KONG) for other in variant.seats if other != kong_seat
    ]


def family_payments(variant: Variant, seat: str, complete_in_deal: bool) -> list[Payment]:
    """A complete family of four: 2 from each other player, 4 if complete in the deal."""
    points = 4 if complete_in_deal else 2
    return [payment(other, seat, points, FAMILY) for other in variant.seats if other != seat]


@dataclass(frozen=True)
class Win:
    """One winner's claim on the table, as settlement needs it."""

    seat: str
    points: int
    # The seat that threw the winning tile (or added the robbed kong); None for self-draw.
    shooter: str | None
    # 3 Kaki dragon liability: the seat that pays both losers' shares, if any.
    liable: str | None = None


def hk_win_payments(
    variant: Variant,
    win: Win,
    rules: TableRules | None = None,
    winners: Sequence[str] = (),
) -> list[Payment]:
    """Hong Kong: the shooter pays the value; on a self-draw each other player pays it.

    Under the house rule ``win_payment="everyone_full"`` every other player pays the
    value on a discard win too, the shooter listed first, except the other `winners` of
    the same discard: winners never pay each other.
    """
    everyone = rules is not None and rules.win_payment == EVERYONE_FULL
    if win.shooter is not None and everyone:
        others = [
            seat
            for seat in variant.seats
            if seat not in (win.seat, win.shooter) and seat not in winners
        ]
        return [payment(loser, win.seat, win.points, WIN) for loser in [win.shooter, *others]]
    if win.shooter is not None:
        return [payment(win.shooter, win.seat, win.points, WIN)]
    return [
        payment(other, win.seat, win.points, WIN) for other in variant.seats if other != win.seat
    ]


def kaki3_win_payments(variant: Variant, win: Win) -> list[Payment]:
    """3 Kaki: shooter pays the value and the other loser half; self-draw both pay the value.

    With dragon liability the liable seat pays its own share (``win``) and the other
    loser's share too (``liability``).
    """
    losers = [seat for seat in variant.seats if seat != win.seat]
    shares: dict[str, int] = {}
    for loser in losers:
        if win.shooter is None or loser == win.shooter:
            shares[loser] = win.points
        else:
            shares[loser] = half_share(win.points)
    if win.liable is None:
        return [payment(loser, win.seat, shares[loser], WIN) for loser in losers]
    other = next(loser for loser in losers if loser != win.liable)
    return [
        payment(win.liable, win.seat, shares[win.liable], WIN),
        payment(win.liable, win.seat, shares[other], LIABILITY),
    ]


def extra_fei_payments(winner: str, fei_counts: dict[str, int]) -> list[Payment]:
    """Each loser pays 1 per Fei the winner holds beyond the loser's own count."""
    payments = []
    for loser, count in fei_counts.items():
        if loser == winner:
            continue
        extra = fei_counts[winner] - count
        if extra > 0:
            payments.append(payment(loser, winner, extra, EXTRA_FEI))
    return payments


def square_up_payments(losers: Sequence[str], counts: dict[str, int]) -> list[Payment]:
    """The two losers square up: the lower count pays the other the difference."""
    first, second = losers
    difference = counts[first] - counts[second]
    if difference > 0:
        return [payment(second, first, difference, SQUARE_UP)]
    if difference < 0:
        return [payment(first, second, -difference, SQUARE_UP)]
    return []


def net_scores(seats: Sequence[str], payments: Sequence[Payment]) -> dict[str, int]:
    """Each seat's net from `payments`."""
    return net_of(seats, payments)
