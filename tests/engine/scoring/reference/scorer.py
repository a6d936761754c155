"""A slow, plain reference scorer for both tables, written from the tables' fan lists.

It shares nothing with `server.engine.scoring` (only the tile notation of
`server.engine.tiles`), and works by a different method: the engine reads the concealed
tiles suit by suit into merged "shares"; this module lists every split of the whole hand
into groups with the tiles each group holds and the tiles it counts as (so every choice of
what each Fei stands for is explicit), joins the shown sets, tries every tile a two-Fei
eye could stand for and every group the winning tile could have completed, scores each
such reading from the pattern list, and keeps the best.

The input is the `mahjong-hall score` JSON object. The result gives `valid`, `fan`,
`limit` and `points`, and `pattern_choices`: the patterns of every reading that ranks
best (readings that tie may list different patterns, and either is a right answer).
See docs/reference_scorer.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.engine.scoring.reference.fan_lists import (
    Tally,
    hk_special_tallies,
    hk_tally,
    kaki3_tally,
)
from tests.engine.scoring.reference.reading import Hand, readings

MIN_FAN = {"hk": 3, "kaki3": 5}
CAP = {"hk": 8, "kaki3": 10}
# Win value by fan, the cap's value standing for every limit hand.
POINTS = {
    "hk": {3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64},
    "kaki3": {5: 8, 6: 10, 7: 12, 8: 14, 9: 16, 10: 24},
}


@dataclass(frozen=True)
class ReferenceResult:
    """What the reference makes of a hand."""

    valid: bool
    fan: int
    limit: bool
    points: int
    # Each best reading's patterns as a sorted tuple of (id, fan); empty set when no shape.
    pattern_choices: frozenset[tuple[tuple[str, int], ...]]


def rank(tally: Tally, variant: str) -> tuple[int, bool, int, int]:
    """Capped fan first; at the cap a named limit hand before an added-up one; then the
    raw fan and the number of limit hands."""
    raw = sum(fan for _, fan in tally.patterns)
    if tally.limits:
        return (CAP[variant], True, raw, len(set(tally.limits)))
    return (min(raw, CAP[variant]), False, raw, 0)


def tallies(hand: Hand) -> Iterator[Tally]:
    """A tally for every reading of the hand."""
    score = hk_tally if hand.variant == "hk" else kaki3_tally
    for reading in readings(hand):
        yield score(hand, reading)
    if hand.variant == "hk":
        yield from hk_special_tallies(hand)


def shown_patterns(tally: Tally, variant: str) -> tuple[tuple[str, int], ...]:
    """What the result lists: every limit hand at the cap, or the fan patterns."""
    if tally.limits:
        return tuple(sorted((limit, CAP[variant]) for limit in set(tally.limits)))
    return tuple(sorted(tally.patterns))


def reference_score(obj: dict[str, Any]) -> ReferenceResult:
    """Score a `mahjong-hall score` input object by the reference method."""
    hand = Hand.from_json(obj)
    variant = hand.variant
    if len(hand.concealed) != 14 - 3 * len(hand.melds):
        return ReferenceResult(False, 0, False, 0, frozenset())
    best_key: tuple[int, bool, int, int] | None = None
    choices: set[tuple[tuple[str, int], ...]] = set()
    for tally in tallies(hand):
        key = rank(tally, variant)
        if best_key is None or key > best_key:
            best_key, choices = key, set()
        if key == best_key:
            choices.add(shown_patterns(tally, variant))
    if best_key is None:
        return ReferenceResult(False, 0, False, 0, frozenset())
    fan, limit = best_key[0], best_key[1]
    valid = limit or fan >= MIN_FAN[variant]
    points = POINTS[variant][fan] if valid else 0
    return ReferenceResult(valid, fan, limit, points, frozenset(choices))
