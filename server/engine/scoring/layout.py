"""The best reading's concealed tiles laid out as sets, for the deal result and the score CLI.

Scoring compares readings that keep only what the fan tables look at (pong tiles, chow
suits, the eye), so the chosen reading does not say which chows it holds or where its Fei
sit. Here that is worked out once, for the winner only: take the eye and the pongs out
(trying how many Fei each pong holds), and read what is left as chows of the right suits.
That small search is much cheaper than listing every decomposition of a Fei hand.
"""

from __future__ import annotations

from functools import lru_cache

from server.engine.hand_counts import KIND_INDEX, PLAYABLE_KINDS
from server.engine.melds import CHOW, PONG
from server.engine.scoring.readings import Reading
from server.engine.scoring.types import ReadingSet
from server.engine.tiles import FEI, Tile, sort_key

PAIR = "pair"
ORPHANS = "orphans"

_HONOUR_START = 27

# Fei-free pongs and eyes, built once and shared (they are immutable): results stay in the
# scoring memo, and fewer live objects keep Python's garbage collector quicker.
_PLAIN_PONGS = {tile: ReadingSet(PONG, (tile,) * 3, (tile,) * 3) for tile in PLAYABLE_KINDS}
_PLAIN_PAIRS = {tile: ReadingSet(PAIR, (tile,) * 2, (tile,) * 2) for tile in PLAYABLE_KINDS}


def standard_layout(
    reading: Reading, counts: tuple[int, ...], fei: int, winning_tile: Tile
) -> tuple[ReadingSet, ...]:
    """The concealed sets and eye of `reading` (four-sets-and-an-eye shape), as held.

    Empty only if the reading does not fit the tiles, which scoring never produces.
    """
    eye, eye_fei = reading.eye, reading.eye_fei
    rest = list(counts)
    if eye_fei < 2:
        rest[KIND_INDEX[eye]] -= 2 - eye_fei
    in_hand = [s for s in reading.sets if s.in_hand]
    pongs = [s.tile for s in in_hand if s.kind != CHOW]
    # A Fei that wins by finishing a pong only counts so when the pong holds a Fei: try
    # such placements first.
    fei_pong_first = winning_tile == FEI and reading.win_in_hand_pong and not reading.win_in_eye
    if fei == 0:
        eye_set = _PLAIN_PAIRS[eye]
        # Without Fei the eye and pongs leave exactly one way to read the chows.
        plain = _plain_sets(rest, pongs)
        return () if plain is None else (*plain, eye_set)
    eye_set = ReadingSet(PAIR, (eye,) * (2 - eye_fei) + (FEI,) * eye_fei, (eye, eye))
    # Fei exist only at 3 Kaki, where every chow is a Tong chow: any chows read from what
    # the eye and pongs leave have the reading's chow suits.
    fei_left = fei - eye_fei
    choices = _pong_fei_choices(rest, pongs, fei_left)
    choices.sort(key=lambda fei_in: (not any(fei_in)) == fei_pong_first)
    for fei_in_pongs in choices:
        chows = _chows_after_pongs(rest, fei_left, pongs, fei_in_pongs)
        if chows is None:
            continue
        pong_sets = [
            ReadingSet(PONG, (tile,) * (3 - in_pong) + (FEI,) * in_pong, (tile,) * 3)
            for tile, in_pong in zip(pongs, fei_in_pongs, strict=True)
        ]
        ordered = sorted([*pong_sets, *chows], key=lambda s: (sort_key(s.stands_for[0]), s.kind))
        return (*ordered, eye_set)
    return ()


def _pong_fei_choices(rest: list[int], pongs: list[Tile], fei: int) -> list[tuple[int, ...]]:
    """How many Fei each pong may hold (0 to 2, a real tile always kept), within `fei`."""
    if not pongs:
        return [()]
    tile, others = pongs[0], pongs[1:]
    index = KIND_INDEX[tile]
    held = rest[index]
    choices: list[tuple[int, ...]] = []
    for in_pong in range(min(2, fei) + 1):
        real = 3 - in_pong
        if real > held:
            continue
        rest[index] -= real
        choices += [(in_pong, *tail) for tail in _pong_fei_choices(rest, others, fei - in_pong)]
        rest[index] += real
    return choices


def _chows_after_pongs(
    rest: list[int], fei: int, pongs: list[Tile], fei_in_pongs: tuple[int, ...]
) -> list[ReadingSet] | None:
    left = list(rest)
    for tile, in_pong in zip(pongs, fei_in_pongs, strict=True):
        left[KIND_INDEX[tile]] -= 3 - in_pong
        fei -= in_pong
    if fei < 0 or min(left) < 0:
        return None
    return _chows(left, fei)


def _plain_sets(rest: list[int], pongs: list[Tile]) -> tuple[ReadingSet, ...] | None:
    """Fei-free tiles (eye taken out) read as `pongs` and chows, in tile order."""
    for tile in pongs:
        rest[KIND_INDEX[tile]] -= 3
    if any(rest[_HONOUR_START:]):
        return None
    sets = [_PLAIN_PONGS[tile] for tile in pongs]
    for suit_start in (0, 9, 18):
        block = tuple(rest[suit_start : suit_start + 9])
        if any(block):
            chows = _suit_chows(block, suit_start)
            if chows is None:
                return None
            sets += chows
    return tuple(sorted(sets, key=_tile_order))


def _tile_order(reading_set: ReadingSet) -> tuple[int, str]:
    return KIND_INDEX[reading_set.stands_for[0]], reading_set.kind


@lru_cache(maxsize=20_000)
def _suit_chows(block: tuple[int, ...], suit_start: int) -> tuple[ReadingSet, ...] | None:
    """One suit's nine counts read as chows of real tiles, or None.

    The lowest tile must start a chow, so there is at most one way. Memoised per suit
    (like `readings._suit_shares`): the same suit shapes recur from hand to hand.
    """
    rest = list(block)
    chows: list[ReadingSet] = []
    for rank, count in enumerate(rest):
        if not count:
            continue
        if count < 0 or rank > 6 or rest[rank + 1] < count or rest[rank + 2] < count:
            return None
        rest[rank + 1] -= count
        rest[rank + 2] -= count
        tiles = tuple(PLAYABLE_KINDS[suit_start + rank + step] for step in range(3))
        chows += [ReadingSet(CHOW, tiles, tiles)] * count
    return tuple(chows)


def _chows(left: list[int], fei: int) -> list[ReadingSet] | None:
    """`left` read as chows only, each holding at most one of the `fei` Fei, or None."""
    lowest = next((index for index, count in enumerate(left) if count), -1)
    if lowest < 0:
        return [] if fei == 0 else None
    rank = lowest % 9  # 0-based rank within its suit
    if lowest >= _HONOUR_START:
        return None
    # The lowest tile starts its chow, or (with a Fei below it) is its middle tile.
    for first, fei_at in ((rank, None), (rank, 1), (rank, 2), (rank - 1, 0)):
        if first < 0 or first > 6 or (fei_at is not None and fei == 0):
            continue
        base = lowest - (rank - first)
        uses = [base + position for position in range(3) if position != fei_at]
        if any(left[index] == 0 for index in uses):
            continue
        for index in uses:
            left[index] -= 1
        tail = _chows(left, fei - (fei_at is not None))
        for index in uses:
            left[index] += 1
        if tail is not None:
            tiles = tuple(PLAYABLE_KINDS[base + position] for position in range(3))
            held = tuple(FEI if position == fei_at else tile for position, tile in enumerate(tiles))
            return [ReadingSet(CHOW, held, tiles), *tail]
    return None


def seven_pairs_layout(concealed: tuple[Tile, ...]) -> tuple[ReadingSet, ...]:
    """Seven pairs as seven ``"pair"`` groups (four alike are two pairs)."""
    ordered = sorted(concealed, key=sort_key)
    return tuple(
        ReadingSet(PAIR, (ordered[i], ordered[i + 1]), (ordered[i], ordered[i + 1]))
        for i in range(0, len(ordered), 2)
    )


def thirteen_orphans_layout(concealed: tuple[Tile, ...]) -> tuple[ReadingSet, ...]:
    """Thirteen orphans as one ``"orphans"`` group of its fourteen tiles."""
    ordered = tuple(sorted(concealed, key=sort_key))
    return (ReadingSet(ORPHANS, ordered, ordered),)
