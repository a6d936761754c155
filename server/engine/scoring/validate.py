"""Checks that a hand handed to scoring could exist at its table.

Impossible input (unknown or wrong-table tiles, too many copies, a malformed shown set, a
winning tile that is not in the hand) raises `HandError`. A hand that merely does not win
is not an error: scoring reports it as not valid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from server.engine.errors import HandError
from server.engine.hand_counts import (
    KIND_INDEX,
    PLAYABLE_KINDS,
    check_variant,
    hand_counts,
    variant_allows,
)
from server.engine.melds import CHOW, KONG, PONG, Meld
from server.engine.scoring.types import WinningHand
from server.engine.tiles import BONUS_SUITS, FEI, SEATS, Tile, format_tiles, is_suited, rank
from server.engine.variants import HK, KAKI3, VARIANTS

SEATS_OF_VARIANT = {name: variant.seats for name, variant in VARIANTS.items()}


def normalise_meld(meld: Meld, variant: str) -> Meld:
    """`meld` checked, with `fei_as` filled in when the set holds a Fei.

    A pong's Fei stands for the pong's tile; a chow's Fei may be left unnamed when only one
    tile fits (``3p j 5p``). Raises `HandError` naming the set otherwise.
    """
    written = _Written(meld.tiles)
    if meld.kind not in (CHOW, PONG, KONG):
        raise HandError(f"unknown set kind {meld.kind!r} (expected chow, pong or kong)")
    size = 4 if meld.kind == KONG else 3
    if len(meld.tiles) != size:
        raise HandError(f"a {meld.kind} has {size} tiles, not {len(meld.tiles)} ({written})")
    for tile in meld.tiles:
        if not variant_allows(tile, variant):
            raise HandError(f"tile {tile!r} cannot be in a set at the {variant} table ({written})")
    if meld.concealed and meld.kind != KONG:
        raise HandError(f"only a kong can be concealed, not a {meld.kind} ({written})")
    fei = meld.fei_count
    if fei and meld.kind == KONG:
        raise HandError(f"a kong never holds a Fei ({written})")
    if fei > 1:
        raise HandError(f"a shown set holds at most one Fei ({written})")
    real = [tile for tile in meld.tiles if tile != FEI]
    if fei == 0:
        # A `fei_as` left on a set whose Fei was swapped out means nothing: drop it.
        normalised = meld if meld.fei_as is None else replace(meld, fei_as=None)
    elif meld.kind == PONG:
        if meld.fei_as is not None and meld.fei_as != real[0]:
            raise HandError(
                f"the Fei in a pong of {real[0]} stands for {real[0]}, not {meld.fei_as}"
            )
        normalised = replace(meld, fei_as=real[0])
    else:
        normalised = replace(meld, fei_as=_chow_fei_tile(real, meld.fei_as, written, variant))
    stands_for = normalised.real_tiles
    if meld.kind == CHOW:
        if not _is_run(stands_for):
            raise HandError(f"a chow must be a run of three in one suit ({written})")
    elif len(set(stands_for)) != 1:
        raise HandError(f"a {meld.kind} must be {size} of one tile ({written})")
    return normalised


class _Written:
    """A set's tiles in notation, written only when an error message needs them."""

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.tiles = tiles

    def __str__(self) -> str:
        return format_tiles(self.tiles)


def _chow_fei_tile(real: list[Tile], fei_as: Tile | None, written: _Written, variant: str) -> Tile:
    """The tile a chow's Fei stands for: the given one, or the only one that fits."""
    if fei_as is not None:
        if fei_as == FEI or not is_suited(fei_as) or not variant_allows(fei_as, variant):
            raise HandError(f"a chow's Fei cannot stand for {fei_as} ({written})")
        return fei_as
    if len(real) == 2 and real[0][-1] == real[1][-1] and is_suited(real[0]):
        low, high = sorted(rank(tile) for tile in real)
        if high - low == 2:
            return f"{low + 1}{real[0][-1]}"
    raise HandError(f"say which tile the Fei stands for (fei_as) in the chow {written}")


def _is_run(tiles: Sequence[Tile]) -> bool:
    """Three suited tiles of one suit in a run, in any order."""
    if not all(is_suited(tile) for tile in tiles) or len({tile[-1] for tile in tiles}) != 1:
        return False
    ranks = sorted(rank(tile) for tile in tiles)
    return ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]


def validate_hand(hand: WinningHand) -> tuple[tuple[Meld, ...], tuple[int, ...], int]:
    """Check `hand`; return its melds normalised (see `normalise_meld`) and the concealed
    tiles as counts and a Fei count (see `hand_counts`).

    Raises `HandError` for anything that cannot happen at the table.
    """
    variant = hand.variant
    check_variant(variant)
    if hand.seat_wind not in SEATS_OF_VARIANT[variant]:
        raise HandError(f"seat {hand.seat_wind!r} does not exist at the {variant} table")
    if hand.round_wind not in SEATS or (variant == KAKI3 and hand.round_wind != "E"):
        raise HandError(f"round wind {hand.round_wind!r} is not possible at the {variant} table")
    counts, fei = hand_counts(hand.concealed, variant)
    if hand.winning_tile not in hand.concealed:
        raise HandError(f"the winning tile {hand.winning_tile} is not among the concealed tiles")
    melds = tuple(normalise_meld(meld, variant) for meld in hand.melds)
    if hand.bonus:
        _check_bonus(hand.bonus, variant)
    if melds or hand.bonus:
        _check_copies(hand, melds, counts, fei)
    if hand.flags.replacement not in (None, "bonus", "kong"):
        raise HandError(
            f"replacement must be null, 'bonus' or 'kong', not {hand.flags.replacement!r}"
        )
    return melds, counts, fei


def _check_bonus(bonus: Sequence[Tile], variant: str) -> None:
    if variant == HK:
        raise HandError("the hk table has no bonus tiles")
    for tile in bonus:
        if tile != FEI and tile[-1] not in BONUS_SUITS:
            raise HandError(
                f"{tile!r} is not a bonus tile (flowers, seasons, animals, faces or a sunk Fei)"
            )
    for tile, count in Counter(tile for tile in bonus if tile != FEI).items():
        if count > 1:
            raise HandError(f"bonus tile {tile} appears {count} times; there is one of each")


def _check_copies(
    hand: WinningHand, melds: Sequence[Meld], counts: tuple[int, ...], fei: int
) -> None:
    # The concealed tiles alone were checked by `hand_counts`; add the sets and sunk Fei.
    copies = list(counts)
    for meld in melds:
        for tile in meld.tiles:
            if tile == FEI:
                fei += 1
            else:
                copies[KIND_INDEX[tile]] += 1
    fei += list(hand.bonus).count(FEI)
    if fei > 4:
        raise HandError(f"{fei} Fei counting the hand, the sets and the sunk ones; there are four")
    for index, count in enumerate(copies):
        if count > 4:
            raise HandError(
                f"{count} copies of {PLAYABLE_KINDS[index]} counting the sets; there are four"
            )
