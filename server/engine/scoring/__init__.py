"""Scoring a winning hand at either table: `score_hand`, `win_points` and the table limits.

Both take the table's house rules (`TableRules`: minimum fan, cap, points schedule);
omitted, the seed's rules of the hand's table apply.

The hand's value is its best reading: every decomposition of the concealed tiles, every
choice of what each Fei stands for, and at Hong Kong the special shapes. Readings are
compared by capped fan, then a limit hand before an added-up one, then raw fan.
See docs/scoring.md for every pattern id and decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from server.engine.errors import HandError
from server.engine.hand_shanten import is_thirteen_orphans_counts
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring.hk import (
    HK_LIMITS,
    hk_seven_pairs_tally,
    hk_standard_tally,
    hk_thirteen_orphans_tally,
)
from server.engine.scoring.kaki3 import (
    KAKI3_LIMITS,
    kaki3_fixed_tally,
    kaki3_shape_tally,
)
from server.engine.scoring.layout import (
    seven_pairs_layout,
    standard_layout,
    thirteen_orphans_layout,
)
from server.engine.scoring.readings import Reading, kaki3_readings, meld_read_set
from server.engine.scoring.readings import readings as hand_readings
from server.engine.scoring.shape import Tally
from server.engine.scoring.types import (
    Pattern,
    ReadingSet,
    ScoreResult,
    WinFlags,
    WinningHand,
)
from server.engine.scoring.validate import normalise_meld, validate_hand
from server.engine.variants import HK, KAKI3, VariantName

__all__ = [
    "FAN_CAP",
    "MIN_FAN",
    "HandError",
    "Pattern",
    "ReadingSet",
    "ScoreResult",
    "TableRules",
    "WinFlags",
    "WinningHand",
    "normalise_meld",
    "score_hand",
    "win_points",
]

_SEED_RULES: dict[str, TableRules] = {
    variant: TableRules.default(variant) for variant in VariantName
}
# The seed's limits, kept for callers that read them; the rules in force are TableRules.
MIN_FAN = {variant: rules.min_fan for variant, rules in _SEED_RULES.items()}
FAN_CAP = {variant: rules.fan_cap for variant, rules in _SEED_RULES.items()}

_LIMIT_ORDER: dict[str, tuple[str, ...]] = {HK: HK_LIMITS, KAKI3: KAKI3_LIMITS}


def win_points(variant: str, fan: int, limit: bool, rules: TableRules | None = None) -> int:
    """The win value by fan: 0 below the table's minimum, the cap's value at or above it."""
    return _rules_for(variant, rules).win_points(fan, limit)


def _rules_for(variant: str, rules: TableRules | None) -> TableRules:
    if variant not in _SEED_RULES:
        raise HandError(f"unknown variant {variant!r}; expected 'hk' or 'kaki3'")
    if rules is None:
        return _SEED_RULES[variant]
    if rules.variant != variant:
        raise HandError(f"rules of the {rules.variant} table cannot score a {variant} hand")
    return rules


def score_hand(hand: WinningHand, rules: TableRules | None = None) -> ScoreResult:
    """Score `hand` at its table, under `rules` (the seed's rules when omitted).

    Raises `HandError` for impossible input (see `validate.validate_hand`) and for rules
    of another table. A hand that does not win comes back with ``valid=False``, a
    `reason` and ``points=0``; its `fan` is the best complete reading's, or 0 when the
    tiles make no winning shape.
    """
    # Bots score the same candidate hands again and again; hands and results are frozen,
    # so results are memoised. A hand built with lists instead of tuples cannot be a memo
    # key (the memo raises TypeError before scoring) and is scored directly.
    table_rules = _rules_for(hand.variant, rules) if rules is not None else None
    if table_rules is not None and table_rules.is_default:
        table_rules = None  # one memo entry per hand for the seed's rules
    try:
        return _score_memo(hand, table_rules)
    except TypeError:
        return _score(hand, table_rules)


def _score(hand: WinningHand, table_rules: TableRules | None) -> ScoreResult:
    melds, counts, fei = validate_hand(hand)
    variant = hand.variant
    rules = table_rules if table_rules is not None else _SEED_RULES[variant]
    expected = 14 - 3 * len(melds)
    if len(hand.concealed) != expected:
        return _not_winning(
            0,
            (),
            f"{len(hand.concealed)} concealed tiles; with {len(melds)} shown sets a "
            f"winning hand holds {expected}",
        )
    best: Tally | None = None
    best_shape: Reading | str = ""
    best_key = (-1, False, -1, -1)
    cap = rules.fan_cap
    for tally, shape in _tallies(hand, melds, counts, fei):
        key = _rank(tally, cap)
        if key > best_key:
            best, best_shape, best_key = tally, shape, key
    if best is None:
        return _not_winning(0, (), "the tiles do not form a winning hand")
    sets = _layout(best_shape, hand, counts, fei)
    if best.limits:
        order = _LIMIT_ORDER[variant]
        limits = sorted(set(best.limits), key=order.index)
        patterns = tuple(Pattern(limit, cap) for limit in limits)
        return ScoreResult(True, cap, True, patterns, rules.win_points(cap, True), None, sets)
    fan = min(best.fan, cap)
    if fan < rules.min_fan:
        return _not_winning(
            fan, best.patterns, f"{fan} fan; the {variant} table needs {rules.min_fan}", sets
        )
    return ScoreResult(True, fan, False, best.patterns, rules.win_points(fan, False), None, sets)


_score_memo = lru_cache(maxsize=20_000)(_score)


def _not_winning(
    fan: int, patterns: tuple[Pattern, ...], reason: str, sets: tuple[ReadingSet, ...] = ()
) -> ScoreResult:
    return ScoreResult(False, fan, False, patterns, 0, reason, sets)


_SEVEN_PAIRS = "seven_pairs"
_THIRTEEN_ORPHANS = "thirteen_orphans"


def _layout(
    shape: Reading | str, hand: WinningHand, counts: tuple[int, ...], fei: int
) -> tuple[ReadingSet, ...]:
    """The chosen reading's concealed tiles laid out (built for the best reading only)."""
    if shape == _SEVEN_PAIRS:
        return seven_pairs_layout(hand.concealed)
    if shape == _THIRTEEN_ORPHANS:
        return thirteen_orphans_layout(hand.concealed)
    assert isinstance(shape, Reading)
    return standard_layout(shape, counts, fei, hand.winning_tile)


def _rank(tally: Tally, cap: int) -> tuple[int, bool, int, int]:
    if tally.limits:
        return (cap, True, tally.fan, len(tally.limits))
    return (min(tally.fan, cap), False, tally.fan, 0)


def _tallies(
    hand: WinningHand, melds: tuple[Meld, ...], counts: tuple[int, ...], fei: int
) -> Iterator[tuple[Tally, Reading | str]]:
    """A tally for every reading of the hand, with the reading (or the special shape's
    name) it came from."""
    variant = hand.variant
    shown = tuple(meld_read_set(meld) for meld in melds)
    if variant == HK:
        for reading in hand_readings(counts, fei, shown, hand.winning_tile):
            yield hk_standard_tally(reading, hand), reading
        if not melds and all(count in (0, 2, 4) for count in counts):
            yield hk_seven_pairs_tally(hand), _SEVEN_PAIRS
        if not melds and is_thirteen_orphans_counts(counts):
            yield hk_thirteen_orphans_tally(hand), _THIRTEEN_ORPHANS
        return
    fixed = kaki3_fixed_tally(hand, melds)
    for reading in kaki3_readings(counts, fei, shown, hand.winning_tile):
        shape = kaki3_shape_tally(reading, hand)
        yield (
            Tally(
                shape.patterns + fixed.patterns,
                shape.limits + fixed.limits,
                shape.fan + fixed.fan,
            ),
            reading,
        )
