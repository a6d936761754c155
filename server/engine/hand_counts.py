"""Count arrays: the fast form of a concealed hand used by hand analysis.

A hand is read into 34 counts, one per playable tile kind in the order 1m..9m, 1p..9p,
1s..9s, 1z..7z, plus the number of Fei. Suits occupy blocks of nine, so a chow is three
neighbouring indexes inside one block; honours (27..33) never chow.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.errors import HandError
from server.engine.tiles import FEI, Tile
from server.engine.variants import HK, KAKI3, VariantName

PLAYABLE_KINDS: tuple[Tile, ...] = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8)
)
KIND_INDEX: dict[Tile, int] = {tile: index for index, tile in enumerate(PLAYABLE_KINDS)}
HONOUR_START = 27

VARIANTS = tuple(VariantName)

# The concealed kinds each table plays with. 3 Kaki has only Tong (dots) and honours.
_VARIANT_KINDS: dict[str, frozenset[Tile]] = {
    HK: frozenset(PLAYABLE_KINDS),
    KAKI3: frozenset(tile for tile in PLAYABLE_KINDS if tile[-1] in "pz"),
}

# Candidate winning tiles, in canonical order, for `waits`.
VARIANT_WAIT_KINDS: dict[str, tuple[Tile, ...]] = {
    HK: PLAYABLE_KINDS,
    KAKI3: tuple(tile for tile in PLAYABLE_KINDS if tile[-1] in "pz") + (FEI,),
}


def check_variant(variant: str) -> None:
    """Raise `HandError` unless `variant` is ``"hk"`` or ``"kaki3"``."""
    if variant not in VARIANTS:
        raise HandError(f"unknown variant {variant!r}; expected 'hk' or 'kaki3'")


def variant_allows(tile: Tile, variant: str) -> bool:
    """True when `tile` can be held in a concealed hand at this table."""
    if tile == FEI:
        return variant == KAKI3
    return tile in _VARIANT_KINDS[variant]


# Where each tile a hand may hold is counted, per table; a Fei is counted at index 34.
_COUNT_INDEX: dict[str, dict[Tile, int]] = {
    variant: {tile: KIND_INDEX[tile] for tile in kinds} for variant, kinds in _VARIANT_KINDS.items()
}
_COUNT_INDEX[KAKI3][FEI] = 34


def hand_counts(concealed: Sequence[Tile], variant: str) -> tuple[tuple[int, ...], int]:
    """The 34 kind counts and the Fei count of a concealed hand.

    Raises `HandError` for an unknown variant, a tile this table does not hold in a hand
    (bonus tiles, ``1m`` at 3 Kaki, a Fei at Hong Kong) or more than four of a kind.
    """
    index_of = _COUNT_INDEX.get(variant)
    if index_of is None:
        check_variant(variant)
        raise AssertionError("unreachable")
    counts = [0] * 35
    for tile in concealed:
        index = index_of.get(tile)
        if index is None:
            raise HandError(f"tile {tile!r} cannot be in a concealed hand at the {variant} table")
        counts[index] += 1
    fei = counts.pop()
    if fei > 4:
        raise HandError(f"{fei} Fei; at most four exist")
    if max(counts) > 4:
        index = max(range(34), key=counts.__getitem__)
        raise HandError(f"{counts[index]} copies of {PLAYABLE_KINDS[index]}; at most four exist")
    return tuple(counts), fei


def is_suited_index(index: int) -> bool:
    """True for an index of a suited kind (which can chow)."""
    return index < HONOUR_START


def suit_blocks(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The counts split into the three suits (nine each) and the honours (seven)."""
    return (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
