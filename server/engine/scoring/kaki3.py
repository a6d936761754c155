"""The Malaysian 3 Kaki pattern table (docs/scoring.md, "3 Kaki patterns").

Patterns that depend on the sets are counted per reading (`kaki3_shape_tally`); bonus
tiles and the way the hand was won do not depend on the reading and are counted once
(`kaki3_fixed_tally`). The three helpers at the end serve the settlement, where the
losers square up.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.hand_counts import hand_counts
from server.engine.melds import CHOW, KONG, Meld
from server.engine.scoring.readings import Reading
from server.engine.scoring.shape import DRAGON_TILES, Tally, shape_facts
from server.engine.scoring.types import Pattern, WinningHand
from server.engine.tiles import FEI, WIND_OF_SEAT, Tile
from server.engine.variants import KAKI3

KAKI3_FAN = {
    "full_flush": 3,
    "half_flush": 1,
    "all_chow": 1,
    "all_pong": 2,
    "little_dragons": 3,
    "dragon_set": 1,
    "dong_set": 1,
    "seat_wind_set": 1,
    "bei_set": 1,
    "animal": 1,
    "face_tile": 1,
    "own_flower": 1,
    "own_season": 1,
    "flower_4": 1,
    "season_4": 1,
    "fei_set_aside": 1,
    "all_four_flowers": 1,
    "all_four_seasons": 1,
    "bonus_replacement_win": 1,
    "kong_replacement_win": 1,
    "robbing_the_kong": 1,
}
KAKI3_LIMITS = (
    "no_bonus_tiles",
    "all_sixteen_bonus_tiles",
    "four_fei",
    "big_dragons",
    "big_winds",
    "little_winds",
    "all_honours",
    "four_concealed_pongs",
    "nine_gates",
    "four_kongs",
    "last_tile_win",
    "last_discard_win",
    "heavenly_hand",
    "earthly_hand",
    "kong_upon_kong",
)

# One shared, immutable Pattern per id: scoring builds many readings.
PATTERNS = {pattern_id: Pattern(pattern_id, fan) for pattern_id, fan in KAKI3_FAN.items()}


SEAT_NUMBER = {"E": 1, "S": 2, "W": 3}
FAMILIES = {"flowers": "f", "seasons": "n", "animals": "a", "faces": "c"}
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def kaki3_shape_tally(reading: Reading, hand: WinningHand) -> Tally:
    """Fan patterns and limit hands that depend on how the sets are read."""
    facts = shape_facts(reading)
    patterns: list[Pattern] = []
    limits: list[str] = []
    tong_only = facts.suits == {"p"}
    if tong_only and not facts.honour_tiles:
        patterns.append(PATTERNS["full_flush"])
    if tong_only and facts.honour_tiles:
        patterns.append(PATTERNS["half_flush"])
    if facts.chows == 4 and reading.eye[-1] == "p":
        patterns.append(PATTERNS["all_chow"])
    if facts.all_pongs:
        patterns.append(PATTERNS["all_pong"])
    honours = facts.honours
    if honours.little_dragons:
        patterns.append(PATTERNS["little_dragons"])
    seat_wind = WIND_OF_SEAT[hand.seat_wind]
    for tile in facts.pong_tiles:
        if tile in DRAGON_TILES:
            patterns.append(PATTERNS["dragon_set"])
        if tile == "1z":
            patterns.append(PATTERNS["dong_set"])
        if tile == seat_wind:
            patterns.append(PATTERNS["seat_wind_set"])
        if tile == "4z":
            patterns.append(PATTERNS["bei_set"])

    if honours.big_dragons:
        limits.append("big_dragons")
    if honours.big_winds:
        limits.append("big_winds")
    if honours.little_winds:
        limits.append("little_winds")
    if not facts.suits:
        limits.append("all_honours")
    if _kang_kang_hu(reading):
        limits.append("four_concealed_pongs")
    if not hand.melds and _is_nine_gates(hand.concealed):
        limits.append("nine_gates")
    if sum(1 for meld in hand.melds if meld.kind == KONG) == 4:
        limits.append("four_kongs")
    return Tally.of(patterns, limits)


def _kang_kang_hu(reading: Reading) -> bool:
    # Four pongs made in the hand (or concealed kongs), the winning tile finishing a pong
    # and never the eye; a pong finished by the winning discard still counts.
    made_in_hand = all(
        s.is_pong_or_kong and (s.in_hand or (s.kind == KONG and s.concealed)) for s in reading.sets
    )
    return made_in_hand and reading.win_in_hand_pong


def _is_nine_gates(concealed: Sequence[Tile]) -> bool:
    # Fourteen real Tong tiles: 1112345678999 and one more of them.
    if len(concealed) != 14 or any(tile[-1] != "p" for tile in concealed):
        return False
    counts, _ = hand_counts(concealed, KAKI3)
    extra = [have - need for have, need in zip(counts[9:18], _NINE_GATES, strict=True)]
    return min(extra) >= 0


def kaki3_fixed_tally(hand: WinningHand, melds: Sequence[Meld]) -> Tally:
    """Fan patterns and limit hands from the bonus tiles and the way the hand was won."""
    patterns: list[Pattern] = []
    limits: list[str] = []
    bonus = set(hand.bonus)
    own = SEAT_NUMBER[hand.seat_wind]
    patterns += [PATTERNS["animal"] for tile in sorted(bonus) if tile[-1] == "a"]
    patterns += [PATTERNS["face_tile"] for tile in sorted(bonus) if tile[-1] == "c"]
    if f"{own}f" in bonus:
        patterns.append(PATTERNS["own_flower"])
    if f"{own}n" in bonus:
        patterns.append(PATTERNS["own_season"])
    if "4f" in bonus:
        patterns.append(PATTERNS["flower_4"])
    if "4n" in bonus:
        patterns.append(PATTERNS["season_4"])
    patterns += [PATTERNS["fei_set_aside"]] * list(hand.bonus).count(FEI)
    families = complete_families(hand.bonus)
    if "flowers" in families:
        patterns.append(PATTERNS["all_four_flowers"])
    if "seasons" in families:
        patterns.append(PATTERNS["all_four_seasons"])
    flags = hand.flags
    if flags.replacement == "bonus":
        patterns.append(PATTERNS["bonus_replacement_win"])
    if flags.replacement == "kong":
        patterns.append(PATTERNS["kong_replacement_win"])
    if flags.robbing_kong:
        patterns.append(PATTERNS["robbing_the_kong"])

    if not hand.bonus:
        limits.append("no_bonus_tiles")
    if len(families) == 4:
        limits.append("all_sixteen_bonus_tiles")
    fei_held = list(hand.concealed).count(FEI) + list(hand.bonus).count(FEI)
    fei_held += sum(meld.fei_count for meld in melds)
    if fei_held == 4:
        limits.append("four_fei")
    for flag, limit in (
        (flags.last_tile, "last_tile_win"),
        (flags.last_discard, "last_discard_win"),
        (flags.heavenly, "heavenly_hand"),
        (flags.earthly, "earthly_hand"),
        (flags.kong_upon_kong, "kong_upon_kong"),
    ):
        if flag:
            limits.append(limit)
    return Tally.of(patterns, limits)


def scoring_bonus_count(seat_wind: str, bonus: Sequence[Tile]) -> int:
    """How many of `bonus` score fan for `seat_wind`: animals, faces, the seat's own flower
    and season, flower 4 and season 4, and each sunk Fei (1 fan, "Fei set aside").

    The square-up counts a sunk Fei here and again, twice, among the seat's Fei, so it
    counts 3 in all: it is both a scoring bonus tile and a Fei.
    """
    own = SEAT_NUMBER[seat_wind]
    scoring = {f"{own}f", f"{own}n", "4f", "4n"}
    flowers = sum(1 for tile in set(bonus) if tile[-1] in "ac" or tile in scoring)
    return flowers + list(bonus).count(FEI)


def complete_families(bonus: Sequence[Tile]) -> list[str]:
    """Which of "flowers", "seasons", "animals", "faces" are complete among `bonus`."""
    held = set(bonus)
    return [
        family
        for family, letter in FAMILIES.items()
        if all(f"{number}{letter}" in held for number in range(1, 5))
    ]


def honour_set_fan(seat_wind: str, melds: Sequence[Meld]) -> int:
    """Fan of the scoring honour sets among `melds`: each dragon set 1, the East set 1 (and
    1 more for the dealer, whose seat wind it is), the seat-wind set 1, the North set 1.
    A pong holding a Fei counts as the tile it stands for."""
    seat = WIND_OF_SEAT[seat_wind]
    fan = 0
    for meld in melds:
        if meld.kind == CHOW:
            continue
        tile = next((t for t in meld.tiles if t != FEI), meld.fei_as)
        if tile in DRAGON_TILES:
            fan += 1
        if tile == "1z":
            fan += 1
        if tile == seat:
            fan += 1
        if tile == "4z":
            fan += 1
    return fan
