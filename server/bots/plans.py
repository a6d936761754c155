"""Winning plans: the ways a hand can reach the table's fan minimum, and how far each is.

A ready hand is worth nothing if it cannot score the minimum (3 fan in Hong Kong, 5 in
3 Kaki). So the full bot reads each hand as a few plans (go for a flush, collect pungs,
seven pairs, or just build sets around the scoring honours it has) and estimates, for
each, the steps still needed and the fan it would score. Fan figures here are estimates:
a pair of scoring honours counts as part of a pung, weighted by how likely the pung is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from server.bots.efficiency import pungs_shanten, restricted_shanten, seven_pairs_steps
from server.bots.seat_view import SeatView
from server.engine.melds import Meld
from server.engine.tiles import DRAGONS, FEI, Tile
from server.engine.variants import HK, KAKI3, get_variant

# Chance that a held pair of a tile becomes a pung, by unseen copies left.
_PUNG_CHANCE = {0: 0.0, 1: 0.3, 2: 0.55}
# Expected fan from a win being self-drawn (Hong Kong only scores it).
_SELF_DRAW_FAN = {HK: 0.3, KAKI3: 0.0}
_SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}
HONOUR_KINDS = tuple(f"{r}z" for r in range(1, 8))


@dataclass(frozen=True)
class Plan:
    """One way to win: its name, estimated steps to ready (shanten-like) and fan if made."""

    name: str
    steps: int
    fan: float
    # Extra cost per step: some plans need particular tiles (a pair's last two copies,
    # a pung's third), so each of their steps takes longer than a step of plain sets.
    hardness: float = 0.0


# Per-step hardness of the plans that wait on scarce tiles.
SEVEN_PAIRS_HARDNESS = 0.6
ALL_PUNGS_HARDNESS = 0.4


def honour_value(tile: Tile, view: SeatView) -> int:
    """Fan a pung of the honour `tile` scores for this seat (0 for a non-scoring wind)."""
    value = 1 if tile in DRAGONS else 0
    if tile == view.seat_wind:
        value += 1
    if tile == view.round_wind:
        value += 1
    # 3 Kaki: nobody sits North, so the North set scores for everyone.
    if view.variant == KAKI3 and tile == "4z" and view.seat_wind != "4z":
        value += 1
    return value


def bonus_fan(bonus: tuple[Tile, ...], seat: str) -> int:
    """Fan already held in 3 Kaki bonus tiles laid aside (sunk Fei included)."""
    own = _SEAT_NUMBER[seat]
    fan = 0
    for tile in bonus:
        letter = tile[-1]
        # Animals, faces and sunk Fei always score; flowers and seasons only the seat's own
        # number and the 4s (nobody sits North).
        scores = tile == FEI or letter in ("a", "c")
        if letter in ("f", "n") and int(tile[0]) in (own, 4):
            scores = True
        if scores:
            fan += 1
    for letter in ("f", "n"):
        if sum(1 for tile in bonus if tile[-1] == letter) == 4:
            fan += 1
    return fan


def _meld_tile(meld: Meld) -> Tile:
    return meld.fei_as if meld.fei_as else next(t for t in meld.tiles if t != FEI)


def honour_fan(tiles: tuple[Tile, ...], melds: tuple[Meld, ...], view: SeatView) -> float:
    """Expected fan from honour sets: shown ones in full, concealed pairs by their chance."""
    fan = 0.0
    for meld in melds:
        if meld.kind != "chow":
            tile = _meld_tile(meld)
            if tile[-1] == "z":
                fan += honour_value(tile, view)
    counts = Counter(tiles)
    for tile in HONOUR_KINDS:
        held = counts[tile]
        if held < 2:
            continue
        value = honour_value(tile, view)
        if held >= 3:
            fan += value
        else:
            fan += value * _PUNG_CHANCE[min(2, view.unseen_count(tile))]
    return fan


def _suits_of(tiles: tuple[Tile, ...], melds: tuple[Meld, ...]) -> Counter[str]:
    suits: Counter[str] = Counter(tile[-1] for tile in tiles if tile != FEI)
    for meld in melds:
        suits[_meld_tile(meld)[-1]] += 3
    return suits


def _kinds_of_suit(suit: str) -> list[Tile]:
    return [f"{r}{suit}" for r in range(1, 10)]


def hk_plans(
    tiles: tuple[Tile, ...], melds: tuple[Meld, ...], general_steps: int, view: SeatView
) -> list[Plan]:
    """Hong Kong plans: honours and self-draw, half or full flush, all pungs, seven pairs."""
    extra = _SELF_DRAW_FAN[HK]
    honours = honour_fan(tiles, melds, view)
    plans = [Plan("honours", general_steps, honours + extra)]
    suits = _suits_of(tiles, melds)
    meld_suits = {_meld_tile(m)[-1] for m in melds}
    suited = [s for s in ("m", "p", "s") if suits[s]]
    suited.sort(key=lambda s: -suits[s])
    for flush_suit in suited[:2]:
        if meld_suits - {flush_suit, "z"}:
            continue
        keep = _kinds_of_suit(flush_suit)
        full_steps = restricted_shanten(tiles, keep, HK)
        if "z" not in meld_suits:
            plans.append(Plan(f"full_flush_{flush_suit}", full_steps, 6 + extra))
        if suits["z"]:
            half_steps = restricted_shanten(tiles, keep + list(HONOUR_KINDS), HK)
            plans.append(Plan(f"half_flush_{flush_suit}", half_steps, 3 + honours + extra))
    if all(m.kind != "chow" for m in melds):
        plans.append(
            Plan("all_pungs", pungs_shanten(tiles), 3 + honours + extra, ALL_PUNGS_HARDNESS)
        )
    if not melds and len(tiles) >= 13:
        plans.append(Plan("seven_pairs", seven_pairs_steps(tiles), 4 + extra, SEVEN_PAIRS_HARDNESS))
    return plans


# Bonus tiles still to come: draws looked ahead, the share of bonus tiles that score for a
# seat (animals and faces always, half the flowers and seasons), and how far to trust it.
BONUS_LOOKAHEAD_DRAWS = 5
SCORING_BONUS_SHARE = 0.75
FUTURE_BONUS_WEIGHT = 0.8
BONUS_TILE_COUNT = 16


def expected_bonus_fan(view: SeatView) -> float:
    """3 Kaki: fan this seat may expect from bonus tiles it has yet to draw.

    A bonus tile never stays in a hand, so every unseen one is still in the wall.
    """
    live = view.wall_remaining
    if live <= 0:
        return 0.0
    laid = sum(1 for o in view.opponents for t in o.bonus if t != FEI)
    laid += sum(1 for t in view.bonus if t != FEI)
    left = max(0, BONUS_TILE_COUNT - laid)
    draws = min(BONUS_LOOKAHEAD_DRAWS, live / 3)
    chance = left / (live + get_variant(KAKI3).dead_wall)
    return FUTURE_BONUS_WEIGHT * draws * chance * SCORING_BONUS_SHARE


def kaki3_plans(
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    general_steps: int,
    view: SeatView,
) -> list[Plan]:
    """3 Kaki plans: bonus fan plus honours and half flush, full flush, all pungs.

    With no bonus tile laid aside at all, any win is the No Bonus Tiles limit.
    """
    if not bonus:
        return [Plan("no_bonus_tiles", general_steps, 10.0)]
    base = bonus_fan(bonus, view.me) + expected_bonus_fan(view)
    honours = honour_fan(tiles, melds, view)
    has_honours = any(t[-1] == "z" for t in tiles) or any(_meld_tile(m)[-1] == "z" for m in melds)
    flush = 1 if has_honours else 3
    plans = [Plan("honours", general_steps, base + honours + flush)]
    if not any(_meld_tile(m)[-1] == "z" for m in melds) and has_honours:
        steps = restricted_shanten(tiles, _kinds_of_suit("p"), KAKI3)
        plans.append(Plan("full_flush", steps, base + 3))
    if all(m.kind != "chow" for m in melds):
        plans.append(
            Plan(
                "all_pungs",
                pungs_shanten(tiles),
                base + honours + flush + 2,
                ALL_PUNGS_HARDNESS,
            )
        )
    return plans


def hand_plans(
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    general_steps: int,
    view: SeatView,
) -> list[Plan]:
    """The plans of this table for a concealed hand with these shown sets and bonus tiles."""
    if view.variant == KAKI3:
        return kaki3_plans(tiles, melds, bonus, general_steps, view)
    return hk_plans(tiles, melds, general_steps, view)
