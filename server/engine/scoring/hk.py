"""The Hong Kong three-fan pattern table (docs/rules.md, "Hong Kong three fan").

Each function returns the fan patterns and the named limit hands that one reading holds;
`score_hand` picks the best reading and applies the cap.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from server.engine.hand_counts import hand_counts
from server.engine.melds import KONG
from server.engine.scoring.readings import Reading
from server.engine.scoring.shape import Tally, shape_facts
from server.engine.scoring.types import Pattern, WinningHand
from server.engine.tiles import WIND_OF_SEAT, Tile
from server.engine.variants import HK

# Fan of each Hong Kong pattern id (limit hands score the cap and are listed apart).
HK_FAN = {
    "seven_pairs": 4,
    "all_pungs": 3,
    "half_flush": 3,
    "full_flush": 6,
    "dragon_set": 1,
    "seat_wind_set": 1,
    "round_wind_set": 1,
    "self_draw": 1,
}
HK_LIMITS = (
    "thirteen_orphans",
    "big_three_dragons",
    "small_four_winds",
    "big_four_winds",
    "all_honours",
    "all_terminals",
    "nine_gates",
    "four_concealed_pungs",
    "four_kongs",
    "heavenly_hand",
    "earthly_hand",
)

# One shared, immutable Pattern per id: scoring builds many readings.
PATTERNS = {pattern_id: Pattern(pattern_id, fan) for pattern_id, fan in HK_FAN.items()}

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _is_self_drawn(hand: WinningHand) -> bool:
    # A win on a replacement tile is self-drawn; a robbed kong is a discard win.
    flags = hand.flags
    return (flags.self_drawn or flags.replacement is not None) and not flags.robbing_kong


def _flush_patterns(suits: Set[str], honours: bool) -> list[Pattern]:
    if len(suits) != 1:
        return []
    if honours:
        return [PATTERNS["half_flush"]]
    return [PATTERNS["full_flush"]]


def hk_standard_tally(reading: Reading, hand: WinningHand) -> Tally:
    """Fan patterns and limit hands of one four-sets-and-an-eye reading."""
    facts = shape_facts(reading)
    patterns: list[Pattern] = []
    limits: list[str] = []
    if facts.all_pongs:
        patterns.append(PATTERNS["all_pungs"])
    patterns += _flush_patterns(facts.suits, facts.honour_tiles)
    seat_wind = WIND_OF_SEAT[hand.seat_wind]
    round_wind = WIND_OF_SEAT[hand.round_wind]
    for tile in facts.pong_tiles:
        if tile in ("5z", "6z", "7z"):
            patterns.append(PATTERNS["dragon_set"])
        if tile == seat_wind:
            patterns.append(PATTERNS["seat_wind_set"])
        if tile == round_wind:
            patterns.append(PATTERNS["round_wind_set"])
    if _is_self_drawn(hand):
        patterns.append(PATTERNS["self_draw"])

    honours = facts.honours
    if honours.big_dragons:
        limits.append("big_three_dragons")
    if honours.little_winds:
        limits.append("small_four_winds")
    if honours.big_winds:
        limits.append("big_four_winds")
    if not facts.suits:
        limits.append("all_honours")
    if facts.all_terminals:
        limits.append("all_terminals")
    if (
        not hand.melds
        and len(facts.suits) == 1
        and not facts.honour_tiles
        and _is_nine_gates(hand.concealed)
    ):
        limits.append("nine_gates")
    if facts.all_pongs and _four_concealed_pungs(reading, hand):
        limits.append("four_concealed_pungs")
    if sum(1 for meld in hand.melds if meld.kind == KONG) == 4:
        limits.append("four_kongs")
    if hand.flags.heavenly:
        limits.append("heavenly_hand")
    if hand.flags.earthly:
        limits.append("earthly_hand")
    return Tally.of(patterns, limits)


def _four_concealed_pungs(reading: Reading, hand: WinningHand) -> bool:
    # Concealed pungs in hand or concealed kongs; a pung the winning discard completes is
    # not concealed, so a discard win (a robbed kong too) must complete the pair.
    # (The caller checked that every set is a pung or kong.)
    if not all(s.concealed for s in reading.sets):
        return False
    return _is_self_drawn(hand) or reading.win_in_eye


def _is_nine_gates(concealed: Sequence[Tile]) -> bool:
    counts, _ = hand_counts(concealed, HK)
    for start in (0, 9, 18):
        suit_counts = counts[start : start + 9]
        if sum(suit_counts) == 14:
            extra = [have - need for have, need in zip(suit_counts, _NINE_GATES, strict=True)]
            return min(extra) >= 0
    return False


def hk_seven_pairs_tally(hand: WinningHand) -> Tally:
    """Seven pairs: 4 fan, plus flush fan and self-draw; never a limit hand."""
    suits = {tile[-1] for tile in hand.concealed if tile[-1] != "z"}
    honours = any(tile[-1] == "z" for tile in hand.concealed)
    patterns = [PATTERNS["seven_pairs"], *_flush_patterns(suits, honours)]
    if _is_self_drawn(hand):
        patterns.append(PATTERNS["self_draw"])
    return Tally.of(patterns, ())


def hk_thirteen_orphans_tally(hand: WinningHand) -> Tally:
    """Thirteen orphans: a limit hand on its own."""
    limits = ["thirteen_orphans"]
    if hand.flags.heavenly:
        limits.append("heavenly_hand")
    if hand.flags.earthly:
        limits.append("earthly_hand")
    return Tally.of((), limits)
