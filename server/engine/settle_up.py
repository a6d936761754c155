"""Settling up: turn players' point balances into the fewest payments that clear them.

A game (or a whole night: several games' scores summed per player with `night_balances`)
leaves each player a balance in points that sums to zero. `settle_up` values a point in
money (`PointValue`: RM 0.10, HK$1, or plain points) and lists who pays whom, with as few
transfers as possible. All arithmetic is in integers: points, and money in minor units
(sen, cents), so the amounts and the text are exact.

The fewest transfers: with n players whose balances are not zero, a list of transfers is
a graph whose every connected part sums to zero, so it needs at least n - g transfers
where g is the most groups the players can be split into that each sum to zero, and that
many suffice (inside a group, the largest debtor pays the largest creditor until the
group is square, clearing one player a transfer and two with the last). Up to
`EXACT_PLAYERS` players the groups are found exactly by a dynamic programme over
subsets; beyond that a greedy pairing (largest debtor pays largest creditor) settles
every balance in at most n - 1 transfers, which may be more than the fewest.
See docs/rules.md, "Settling up".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Beyond this many players with a balance, the exact search (2^n subsets) gives way to
# the greedy pairing. 12 players is 4,096 subsets: instant; a night rarely has more.
EXACT_PLAYERS = 12


@dataclass(frozen=True)
class Currency:
    """How an amount is written: a code for the client to localise, an English prefix
    or suffix, and how many decimal digits its minor unit has (0 for plain points)."""

    code: str
    prefix: str = ""
    suffix: str = ""
    digits: int = 2


POINTS = Currency("points", suffix=" points", digits=0)
RINGGIT = Currency("MYR", prefix="RM ")
HONG_KONG_DOLLAR = Currency("HKD", prefix="HK$")
CURRENCIES = {currency.code: currency for currency in (POINTS, RINGGIT, HONG_KONG_DOLLAR)}


@dataclass(frozen=True)
class PointValue:
    """What one point is worth: `minor_per_point` minor units of `currency`.

    RM 0.10 a point is ``PointValue(RINGGIT, 10)``; HK$1 is ``PointValue(HONG_KONG_DOLLAR,
    100)``; plain points are ``PointValue(POINTS, 1)``.
    """

    currency: Currency
    minor_per_point: int

    def __post_init__(self) -> None:
        value = self.minor_per_point
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise SettleUpError(f"a point's value must be a whole positive number, not {value!r}")

    @classmethod
    def from_json(cls, obj: Any) -> PointValue:
        """Read ``{"currency": "MYR", "minor_per_point": 10}`` (RM 0.10 a point).

        `currency` is one of `CURRENCIES` (``"points"``, ``"MYR"``, ``"HKD"``); plain
        points take ``minor_per_point`` 1. Raises `SettleUpError` naming the field.
        """
        if not isinstance(obj, dict):
            raise SettleUpError(f"point value: expected an object, got {type(obj).__name__}")
        unknown = sorted(set(obj) - {"currency", "minor_per_point"})
        if unknown:
            raise SettleUpError(f"point value.{unknown[0]}: unknown field")
        code = obj.get("currency")
        if code not in CURRENCIES:
            raise SettleUpError(
                f"point value.currency: {code!r} is not one of {sorted(CURRENCIES)}"
            )
        currency = CURRENCIES[code]
        per_point = obj.get("minor_per_point", 1)
        if currency is POINTS and per_point != 1:
            raise SettleUpError("point value.minor_per_point: plain points are worth 1")
        return cls(currency, per_point)

    def to_json(self) -> dict[str, Any]:
        """What `from_json` reads back."""
        return {"currency": self.currency.code, "minor_per_point": self.minor_per_point}


PLAIN_POINTS = PointValue(POINTS, 1)


class SettleUpError(ValueError):
    """Balances that cannot be settled (they do not sum to zero, or are not whole)."""


@dataclass(frozen=True)
class Transfer:
    """`payer` pays `payee` `points` points, which is `amount` minor units of money."""

    payer: str
    payee: str
    points: int
    amount: int

    def to_json(self, currency: Currency) -> dict[str, Any]:
        """A structured line for a client to render in its own language."""
        return {
            "from": self.payer,
            "to": self.payee,
            "points": self.points,
            "amount_minor": self.amount,
            "currency": currency.code,
        }


@dataclass(frozen=True)
class Settlement:
    """The transfers that settle `balances` (points), valued at `value`."""

    balances: dict[str, int]
    value: PointValue
    transfers: tuple[Transfer, ...]

    def to_json(self) -> dict[str, Any]:
        """Balances, the point's value and the transfers, ready for a client."""
        return {
            "balances": dict(self.balances),
            "currency": self.value.currency.code,
            "minor_per_point": self.value.minor_per_point,
            "transfers": [transfer.to_json(self.value.currency) for transfer in self.transfers],
        }


def english_amount(amount: int, currency: Currency) -> str:
    """``RM 14.20``, ``HK$3.00``, ``14 points`` (``1 point``): exact, from minor units."""
    if currency.digits == 0:
        text = f"{amount:,}"
        suffix = " point" if amount == 1 and currency is POINTS else currency.suffix
        return f"{currency.prefix}{text}{suffix}"
    scale = 10**currency.digits
    whole, minor = divmod(amount, scale)
    return f"{currency.prefix}{whole:,}.{minor:0{currency.digits}d}{currency.suffix}"


def night_balances(games: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each player's balance over several games: the games' scores summed per player."""
    total: dict[str, int] = {}
    for game in games:
        for player, points in game.items():
            total[player] = total.get(player, 0) + _whole(player, points)
    return total


def settle_up(balances: Mapping[str, int], value: PointValue = PLAIN_POINTS) -> Settlement:
    """The fewest transfers that settle `balances` (points per player, summing to zero).

    Raises `SettleUpError` for balances that are not whole numbers or do not sum to zero.
    The same balances always give the same transfers (ties go by player name).
    """
    checked = {player: _whole(player, points) for player, points in balances.items()}
    total = sum(checked.values())
    if total != 0:
        raise SettleUpError(f"balances must sum to zero to be settled, they sum to {total}")
    transfers = [
        Transfer(payer, payee, points, points * value.minor_per_point)
        for payer, payee, points in fewest_transfers(checked)
    ]
    return Settlement(checked, value, tuple(transfers))


def render_text(
    settlement: Settlement,
    format_amount: Callable[[int, Currency], str] = english_amount,
    line: str = "{payer} pays {payee} {amount}",
    square: str = "Everyone is square.",
) -> str:
    """The transfers as lines of text to paste into a group chat.

    `format_amount`, `line` and `square` are the English defaults; a client passes its
    own to localise.
    """
    if not settlement.transfers:
        return square
    currency = settlement.value.currency
    return "\n".join(
        line.format(
            payer=transfer.payer,
            payee=transfer.payee,
            amount=format_amount(transfer.amount, currency),
        )
        for transfer in settlement.transfers
    )


def fewest_transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """(payer, payee, points) that settle `balances`, fewest possible up to `EXACT_PLAYERS`."""
    players = sorted(player for player, points in balances.items() if points != 0)
    if len(players) > EXACT_PLAYERS:
        return _pay_largest_first(players, balances)
    transfers: list[tuple[str, str, int]] = []
    for group in _zero_sum_groups(players, [balances[player] for player in players]):
        transfers += _pay_largest_first(group, balances)
    # Listed by payer, so each player finds their own lines together.
    return sorted(transfers)


def _zero_sum_groups(players: Sequence[str], points: Sequence[int]) -> list[list[str]]:
    """The players split into the most groups that each sum to zero (exact, over subsets).

    best[mask] is the most zero-sum groups the players of `mask` can be split into, plus
    one when `mask` itself does not sum to zero; removing players one at a time, a group
    closes each time what is left sums to zero.
    """
    count = len(players)
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + points[low]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        closes = 1 if sums[mask] == 0 else 0
        best[mask] = closes + max(best[mask & ~(1 << i)] for i in range(count) if mask >> i & 1)
    groups: list[list[str]] = []
    current: list[str] = []
    mask = full
    while mask:
        closes = 1 if sums[mask] == 0 else 0
        if closes and current:
            groups.append(current)
            current = []
        chosen = next(
            i
            for i in range(count)
            if mask >> i & 1 and best[mask & ~(1 << i)] + closes == best[mask]
        )
        current.append(players[chosen])
        mask &= ~(1 << chosen)
    if current:
        groups.append(current)
    return groups


def _pay_largest_first(
    players: Sequence[str], balances: Mapping[str, int]
) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor until all of `players` are square.

    Each transfer clears at least one of them, so a zero-sum group of k players takes at
    most k - 1 transfers.
    """
    left = {player: balances[player] for player in players if balances[player] != 0}
    transfers: list[tuple[str, str, int]] = []
    while left:
        payer = min(left, key=lambda player: (left[player], player))
        payee = min(left, key=lambda player: (-left[player], player))
        points = min(-left[payer], left[payee])
        transfers.append((payer, payee, points))
        for player, change in ((payer, points), (payee, -points)):
            left[player] += change
            if left[player] == 0:
                del left[player]
    return transfers


def _whole(player: str, points: Any) -> int:
    if not isinstance(points, int) or isinstance(points, bool):
        raise SettleUpError(f"{player}'s balance must be a whole number of points, not {points!r}")
    return points
