"""The two tables' fan lists, applied to one reading.

Part of the reference scorer (see `scorer.py`): 3 Kaki from seed 000's "Every Hand 3 Kaki
Pays" with the house rulings, Hong Kong from seed 002 and the house rulings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from server.engine.tiles import FEI
from tests.engine.scoring.reference.reading import Hand, Reading
from tests.engine.scoring.reference.splits import CONCEALED_KONG, HAND

WINDS = ("1z", "2z", "3z", "4z")
DRAGONS = ("5z", "6z", "7z")
SEAT_WIND = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3}
ORPHANS = ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z")
# Seed 000, "Every Hand 3 Kaki Pays": the fan of each pattern id (limit hands are apart).
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
# The named limit hands of seed 000's list, 10 fan each.
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
# Seed 002 and the Hong Kong rules.
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
# The Hong Kong limit hands, 8 fan each.
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


class Tally(NamedTuple):
    patterns: tuple[tuple[str, int], ...]
    limits: tuple[str, ...]


def _honour_tiles_distinct(reading: Reading) -> bool:
    """False when a Fei makes a fifth copy: two sets of one honour, or an eye of a set's
    honour. Such a reading scores none of the honour patterns."""
    honours = [group.tile for group in (*reading.sets, reading.eye) if group.tile[-1] == "z"]
    return len(honours) == len(set(honours))


def _stood_tiles(reading: Reading) -> list[str]:
    return [tile for group in (*reading.sets, reading.eye) for tile in group.stands]


def kaki3_tally(hand: Hand, reading: Reading) -> Tally:
    """Every fan and limit hand of seed 000's list ("Every Hand 3 Kaki Pays") the reading
    holds, as docs/rules.md reads them."""
    fan: list[str] = []
    limits: list[str] = []
    tiles = _stood_tiles(reading)
    tong = any(tile[-1] == "p" for tile in tiles)
    honours = any(tile[-1] == "z" for tile in tiles)
    sets = reading.sets
    pong_tiles = [group.tile for group in sets if group.kind in ("pong", "kong")]
    if tong and not honours:
        fan.append("full_flush")
    if tong and honours:
        fan.append("half_flush")
    if all(group.kind == "chow" for group in sets) and reading.eye.tile[-1] == "p":
        fan.append("all_chow")
    if len(pong_tiles) == 4:
        fan.append("all_pong")
    dragon_sets = [tile for tile in pong_tiles if tile in DRAGONS]
    wind_sets = [tile for tile in pong_tiles if tile in WINDS]
    distinct = _honour_tiles_distinct(reading)
    if distinct and len(dragon_sets) == 2 and reading.eye.tile in DRAGONS:
        fan.append("little_dragons")
    for tile in pong_tiles:
        if tile in DRAGONS:
            fan.append("dragon_set")
        if tile == "1z":
            fan.append("dong_set")
        if tile == SEAT_WIND[hand.seat]:
            fan.append("seat_wind_set")
        if tile == "4z":
            fan.append("bei_set")
    bonus = set(hand.bonus)
    own = SEAT_NUMBER[hand.seat]
    fan += ["animal" for tile in bonus if tile[-1] == "a"]
    fan += ["face_tile" for tile in bonus if tile[-1] == "c"]
    for tile, pattern in (
        (f"{own}f", "own_flower"),
        (f"{own}n", "own_season"),
        ("4f", "flower_4"),
        ("4n", "season_4"),
    ):
        if tile in bonus:
            fan.append(pattern)
    fan += ["fei_set_aside"] * hand.bonus.count(FEI)
    families = [letter for letter in "fnac" if all(f"{n}{letter}" in bonus for n in range(1, 5))]
    if "f" in families:
        fan.append("all_four_flowers")
    if "n" in families:
        fan.append("all_four_seasons")
    if hand.replacement == "bonus":
        fan.append("bonus_replacement_win")
    if hand.replacement == "kong":
        fan.append("kong_replacement_win")
    if hand.robbing_kong:
        fan.append("robbing_the_kong")

    if not hand.bonus:
        limits.append("no_bonus_tiles")
    if len(families) == 4:
        limits.append("all_sixteen_bonus_tiles")
    if hand.fei_held == 4:
        limits.append("four_fei")
    if distinct and len(dragon_sets) == 3:
        limits.append("big_dragons")
    if distinct and len(wind_sets) == 4:
        limits.append("big_winds")
    if distinct and len(wind_sets) == 3 and reading.eye.tile in WINDS:
        limits.append("little_winds")
    if not tong:
        limits.append("all_honours")
    made_in_hand = all(
        (group.kind == "pong" and group.origin == HAND) or group.origin == CONCEALED_KONG
        for group in sets
    )
    if made_in_hand and reading.winning_group.kind == "pong":
        limits.append("four_concealed_pongs")
    if not hand.melds and _nine_gates(hand.concealed):
        limits.append("nine_gates")
    if sum(1 for group in hand.melds if group.kind == "kong") == 4:
        limits.append("four_kongs")
    for flag, limit in (
        (hand.last_tile, "last_tile_win"),
        (hand.last_discard, "last_discard_win"),
        (hand.heavenly, "heavenly_hand"),
        (hand.earthly, "earthly_hand"),
        (hand.kong_upon_kong, "kong_upon_kong"),
    ):
        if flag:
            limits.append(limit)
    return Tally(tuple((pattern, KAKI3_FAN[pattern]) for pattern in fan), tuple(limits))


def _nine_gates(concealed: Sequence[str]) -> bool:
    """Fourteen real tiles of one suit holding 1112345678999."""
    if len(concealed) != 14 or FEI in concealed:
        return False
    suits = {tile[-1] for tile in concealed}
    if len(suits) != 1 or suits & {"z"}:
        return False
    (suit,) = suits
    need = Counter({f"1{suit}": 3, f"9{suit}": 3, **{f"{n}{suit}": 1 for n in range(2, 9)}})
    return not need - Counter(concealed)


def _hk_self_drawn(hand: Hand) -> bool:
    # A win on a replacement tile is self-drawn; a robbed kong is won on a "discard".
    return (hand.self_drawn or hand.replacement is not None) and not hand.robbing_kong


def _hk_flush(tiles: Sequence[str]) -> list[str]:
    suits = {tile[-1] for tile in tiles if tile[-1] != "z"}
    if len(suits) != 1:
        return []
    return ["half_flush"] if any(tile[-1] == "z" for tile in tiles) else ["full_flush"]


def hk_tally(hand: Hand, reading: Reading) -> Tally:
    """The Hong Kong table's fan and limit hands for a four-sets-and-a-pair reading."""
    fan: list[str] = []
    limits: list[str] = []
    sets = reading.sets
    tiles = _stood_tiles(reading)
    pong_tiles = [group.tile for group in sets if group.kind in ("pong", "kong")]
    if len(pong_tiles) == 4:
        fan.append("all_pungs")
    fan += _hk_flush(tiles)
    for tile in pong_tiles:
        if tile in DRAGONS:
            fan.append("dragon_set")
        if tile == SEAT_WIND[hand.seat]:
            fan.append("seat_wind_set")
        if tile == SEAT_WIND[hand.round_wind]:
            fan.append("round_wind_set")
    self_drawn = _hk_self_drawn(hand)
    if self_drawn:
        fan.append("self_draw")

    if sum(1 for tile in pong_tiles if tile in DRAGONS) == 3:
        limits.append("big_three_dragons")
    wind_sets = [tile for tile in pong_tiles if tile in WINDS]
    if len(wind_sets) == 3 and reading.eye.tile in WINDS:
        limits.append("small_four_winds")
    if len(wind_sets) == 4:
        limits.append("big_four_winds")
    if all(tile[-1] == "z" for tile in tiles):
        limits.append("all_honours")
    if all(tile[-1] != "z" and tile[0] in "19" for tile in tiles):
        limits.append("all_terminals")
    if not hand.melds and _nine_gates(hand.concealed):
        limits.append("nine_gates")
    concealed_pungs = all(
        (group.kind == "pong" and group.origin == HAND) or group.origin == CONCEALED_KONG
        for group in sets
    )
    if concealed_pungs and (self_drawn or reading.winning_group.kind == "eye"):
        limits.append("four_concealed_pungs")
    if sum(1 for group in hand.melds if group.kind == "kong") == 4:
        limits.append("four_kongs")
    if hand.heavenly:
        limits.append("heavenly_hand")
    if hand.earthly:
        limits.append("earthly_hand")
    return Tally(tuple((pattern, HK_FAN[pattern]) for pattern in fan), tuple(limits))


def hk_special_tallies(hand: Hand) -> Iterator[Tally]:
    """Seven pairs and thirteen orphans, closed hands only."""
    if hand.melds or len(hand.concealed) != 14:
        return
    counts = Counter(hand.concealed)
    if all(count in (2, 4) for count in counts.values()):
        fan = ["seven_pairs", *_hk_flush(hand.concealed)]
        if _hk_self_drawn(hand):
            fan.append("self_draw")
        yield Tally(tuple((pattern, HK_FAN[pattern]) for pattern in fan), ())
    if set(counts) == set(ORPHANS):
        limits = ["thirteen_orphans"]
        if hand.heavenly:
            limits.append("heavenly_hand")
        if hand.earthly:
            limits.append("earthly_hand")
        yield Tally((), tuple(limits))
