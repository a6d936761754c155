"""House rules: the choices a table makes when it opens, as one frozen `TableRules`.

`TableRules.default(variant)` is the seed's table exactly (Hong Kong 3 fan to win, capped
at 8; 3 Kaki 5 fan, limit 10), so a deal, a score or a settlement given no rules behaves
as it always has. `TableRules.from_json` reads the ``"rules"`` object of the command line
and the API with strict checks: an unknown key, a wrong type or a value the table does
not offer raises `RulesError` naming the field. See docs/rules.md, "House rules".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.engine.errors import EngineError
from server.engine.variants import HK, KAKI3, VARIANTS

# Points schedules. "seed" is the seed's table; "half" (Hong Kong only) halves it.
SEED_POINTS = "seed"
HALF_POINTS = "half"

# Who pays a win. "seed": a discard win is paid by the discarder alone, a self-draw by
# every other player. "everyone_full" (Hong Kong only): every other player pays the full
# value on every win, a discard win included (the discarder no more than the others).
SEED_PAYMENT = "seed"
EVERYONE_FULL = "everyone_full"

# The Hong Kong schedule by fan, from the common HK table: doubling every two fan, with
# the half step in between (8, 16, 24, 32, 48, 64, ...). The seed uses 3..8.
_HK_SEED_POINTS = {
    0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 24, 6: 32, 7: 48,
    8: 64, 9: 96, 10: 128, 11: 192, 12: 256, 13: 384,
}  # fmt: skip
# Half of each value; the 1 of a 0-fan win rounds up, so that every win still pays.
_HK_HALF_POINTS = {fan: (points + 1) // 2 for fan, points in _HK_SEED_POINTS.items()}
# 3 Kaki rises 2 points a fan from 8 at 5 fan, extended downward evenly for minimums 3
# and 4. The limit (reached at the cap, and by every limit hand) pays 24 whichever the
# cap, so a limit of 8 makes big hands reach the limit sooner rather than pay less.
_KAKI3_POINTS = {3: 4, 4: 6, 5: 8, 6: 10, 7: 12, 8: 14, 9: 16}
KAKI3_LIMIT_POINTS = 24

MIN_FAN_CHOICES: dict[str, tuple[int, ...]] = {HK: (0, 1, 2, 3), KAKI3: (3, 4, 5)}
FAN_CAP_CHOICES: dict[str, tuple[int, ...]] = {HK: (8, 10, 13), KAKI3: (10, 8)}
POINTS_CHOICES: dict[str, tuple[str, ...]] = {HK: (SEED_POINTS, HALF_POINTS), KAKI3: (SEED_POINTS,)}
PAYMENT_CHOICES: dict[str, tuple[str, ...]] = {
    HK: (SEED_PAYMENT, EVERYONE_FULL),
    KAKI3: (SEED_PAYMENT,),
}
# The seed's minimum and cap are the table's own facts (`Variant`); house rules override them.
_DEFAULT_MIN_FAN = {name: variant.min_fan for name, variant in VARIANTS.items()}
_DEFAULT_FAN_CAP = {name: variant.fan_cap for name, variant in VARIANTS.items()}
# The time bank is spent by the room (not the deal engine): whole seconds per player and
# game, used when the turn clock runs out and before a bot steps in. 0 means none.
MAX_TIME_BANK_SECONDS = 300

_FIELDS = ("variant", "min_fan", "fan_cap", "points", "win_payment", "time_bank_seconds")


class RulesError(EngineError):
    """A ``rules`` object that is not one the table offers; the message names the field."""


@dataclass(frozen=True)
class TableRules:
    """The house rules of one table. Build it with `default` or `from_json`."""

    variant: str
    min_fan: int
    fan_cap: int
    points: str = SEED_POINTS
    win_payment: str = SEED_PAYMENT
    time_bank_seconds: int = 0

    def __post_init__(self) -> None:
        _check(self)

    @classmethod
    def default(cls, variant: str) -> TableRules:
        """The seed's rules of `variant` (``"hk"`` or ``"kaki3"``): today's behaviour."""
        if variant not in _DEFAULT_MIN_FAN:
            raise RulesError(
                f"rules.variant: unknown variant {variant!r}; expected 'hk' or 'kaki3'"
            )
        return _DEFAULTS[variant]

    @classmethod
    def from_json(cls, obj: Any, variant: str | None = None) -> TableRules:
        """Read a ``rules`` object; omitted fields keep the table's default.

        `variant` is the table's, when the caller knows it: the object may then leave
        ``"variant"`` out, and must agree with it if present.
        """
        if not isinstance(obj, dict):
            raise RulesError(f"rules: expected an object, got {type(obj).__name__}")
        unknown = sorted(set(obj) - set(_FIELDS))
        if unknown:
            raise RulesError(f"rules.{unknown[0]}: unknown field; expected some of {list(_FIELDS)}")
        named = obj.get("variant", variant)
        if named is None:
            raise RulesError("rules.variant: missing; expected 'hk' or 'kaki3'")
        if variant is not None and named != variant:
            raise RulesError(f"rules.variant: {named!r} does not match the table's {variant!r}")
        base = cls.default(named) if isinstance(named, str) else cls.default(repr(named))
        values: dict[str, Any] = {
            "variant": base.variant,
            "min_fan": base.min_fan,
            "fan_cap": base.fan_cap,
            "points": base.points,
            "win_payment": base.win_payment,
            "time_bank_seconds": base.time_bank_seconds,
        }
        for name in _FIELDS[1:]:
            if name in obj:
                values[name] = obj[name]
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """Every field, as `from_json` reads it back."""
        return {
            "variant": self.variant,
            "min_fan": self.min_fan,
            "fan_cap": self.fan_cap,
            "points": self.points,
            "win_payment": self.win_payment,
            "time_bank_seconds": self.time_bank_seconds,
        }

    @property
    def is_default(self) -> bool:
        """True for the seed's rules of the table."""
        return self == _DEFAULTS[self.variant]

    def win_points(self, fan: int, limit: bool) -> int:
        """The win value: 0 below the minimum, the cap's value at or above the cap."""
        if limit or fan >= self.fan_cap:
            return self._schedule_value(self.fan_cap, at_cap=True)
        if fan < self.min_fan:
            return 0
        return self._schedule_value(fan, at_cap=False)

    def points_table(self) -> dict[int, int]:
        """Fan to points from the minimum to the cap (the cap's entry is the limit)."""
        return {fan: self.win_points(fan, False) for fan in range(self.min_fan, self.fan_cap + 1)}

    def _schedule_value(self, fan: int, at_cap: bool) -> int:
        if self.variant == KAKI3:
            return KAKI3_LIMIT_POINTS if at_cap else _KAKI3_POINTS[fan]
        table = _HK_HALF_POINTS if self.points == HALF_POINTS else _HK_SEED_POINTS
        return table[fan]


def _check(rules: TableRules) -> None:
    variant = rules.variant
    if variant not in _DEFAULT_MIN_FAN:
        raise RulesError(f"rules.variant: unknown variant {variant!r}; expected 'hk' or 'kaki3'")
    _check_choice("min_fan", rules.min_fan, MIN_FAN_CHOICES[variant], variant, integer=True)
    _check_choice("fan_cap", rules.fan_cap, FAN_CAP_CHOICES[variant], variant, integer=True)
    _check_choice("points", rules.points, POINTS_CHOICES[variant], variant, integer=False)
    _check_choice("win_payment", rules.win_payment, PAYMENT_CHOICES[variant], variant, False)
    bank = rules.time_bank_seconds
    if not _is_int(bank) or not 0 <= bank <= MAX_TIME_BANK_SECONDS:
        raise RulesError(
            f"rules.time_bank_seconds: expected a whole number of seconds from 0 to "
            f"{MAX_TIME_BANK_SECONDS}, got {bank!r}"
        )


def _is_int(value: Any) -> bool:
    # JSON true/false are Python bools, which are ints: refuse them as numbers.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_choice(
    name: str, value: Any, choices: tuple[Any, ...], variant: str, integer: bool
) -> None:
    right_type = _is_int(value) if integer else isinstance(value, str)
    if not right_type or value not in choices:
        raise RulesError(
            f"rules.{name}: {value!r} is not offered at the {variant} table; "
            f"expected one of {list(choices)}"
        )


_DEFAULTS: dict[str, TableRules] = {
    HK: TableRules(HK, _DEFAULT_MIN_FAN[HK], _DEFAULT_FAN_CAP[HK]),
    KAKI3: TableRules(KAKI3, _DEFAULT_MIN_FAN[KAKI3], _DEFAULT_FAN_CAP[KAKI3]),
}
