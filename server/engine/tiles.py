"""Tiles and the project's public "mpsz" notation (docs/rules.md, "Tile notation").

A tile is a short string in canonical notation: ``"1m"``..``"9m"``, ``"1p"``..``"9p"``,
``"1s"``..``"9s"``, ``"1z"``..``"7z"`` (East South West North White Green Red), the 3 Kaki
bonus tiles ``"1f"``..``"4f"`` (flowers), ``"1n"``..``"4n"`` (seasons), ``"1a"``..``"4a"``
(animals), ``"1c"``..``"4c"`` (faces), and ``"j"`` for a Fei (joker).

Strings keep every layer (engine, wire, database, tests) on one readable representation;
hot paths convert to count arrays where speed matters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from server.engine.errors import TileParseError

Tile = str

FEI: Tile = "j"

SUITS = ("m", "p", "s")
HONOUR_SUIT = "z"
BONUS_SUITS = ("f", "n", "a", "c")
SUIT_ORDER = {"m": 0, "p": 1, "s": 2, "z": 3, "f": 4, "n": 5, "a": 6, "c": 7, "j": 8}
_MAX_RANK = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "n": 4, "a": 4, "c": 4}

WINDS: tuple[Tile, ...] = ("1z", "2z", "3z", "4z")
DRAGONS: tuple[Tile, ...] = ("5z", "6z", "7z")
SEATS: tuple[str, ...] = ("E", "S", "W", "N")
WIND_OF_SEAT: dict[str, Tile] = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}

ALL_TILE_KINDS: tuple[Tile, ...] = tuple(
    f"{rank}{suit}"
    for suit in (*SUITS, HONOUR_SUIT, *BONUS_SUITS)
    for rank in range(1, _MAX_RANK[suit] + 1)
) + (FEI,)


def suit(tile: Tile) -> str:
    """The suit letter of `tile` (``"j"`` for a Fei)."""
    return tile[-1]


def rank(tile: Tile) -> int:
    """The number on `tile`; 0 for a Fei."""
    return 0 if tile == FEI else int(tile[0])


def is_fei(tile: Tile) -> bool:
    """True for a Fei (joker)."""
    return tile == FEI


def is_suited(tile: Tile) -> bool:
    """True for a tile of characters, dots or bamboo."""
    return tile[-1] in SUITS


def is_honour(tile: Tile) -> bool:
    """True for a wind or a dragon."""
    return tile[-1] == HONOUR_SUIT


def is_wind(tile: Tile) -> bool:
    """True for one of the four winds."""
    return tile in WINDS


def is_dragon(tile: Tile) -> bool:
    """True for one of the three dragons."""
    return tile in DRAGONS


def is_bonus(tile: Tile) -> bool:
    """True for a flower, season, animal or face tile (not a Fei)."""
    return tile[-1] in BONUS_SUITS


def is_terminal(tile: Tile) -> bool:
    """True for a suited 1 or 9."""
    return is_suited(tile) and tile[0] in "19"


@lru_cache(maxsize=256)  # a few dozen tile kinds; sorting hands calls this per tile
def sort_key(tile: Tile) -> tuple[int, int]:
    """Key that orders tiles by suit (m p s z f n a c, Fei last), then by rank."""
    return (SUIT_ORDER[tile[-1]], rank(tile))


def sorted_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """The tiles in canonical order."""
    return sorted(tiles, key=sort_key)


def parse_tiles(text: str) -> list[Tile]:
    """Read notation such as ``"55p j 123p"`` into a list of tiles, in written order.

    Spaces are allowed anywhere and mean nothing. Raises `TileParseError` naming the
    offending text for digits without a suit, unknown letters and ranks out of range.
    """
    if not isinstance(text, str):
        raise TileParseError(f"tiles must be written as a string, not {type(text).__name__}")
    tiles: list[Tile] = []
    digits: list[str] = []
    start = 0
    for index, char in enumerate(text):
        if char.isspace():
            continue
        if char in "0123456789":
            if not digits:
                start = index
            digits.append(char)
            continue
        if char == FEI:
            if digits:
                raise TileParseError(
                    f"digits {''.join(digits)!r} at position {start} have no suit letter before 'j'"
                )
            tiles.append(FEI)
            continue
        if char in _MAX_RANK:
            if not digits:
                raise TileParseError(
                    f"suit letter {char!r} at position {index} has no digits before it"
                )
            for digit in digits:
                if not 1 <= int(digit) <= _MAX_RANK[char]:
                    raise TileParseError(f"no tile {digit}{char} (in {text[start : index + 1]!r})")
                tiles.append(f"{digit}{char}")
            digits = []
            continue
        raise TileParseError(f"unknown character {char!r} at position {index} in {text!r}")
    if digits:
        raise TileParseError(f"digits {''.join(digits)!r} at position {start} have no suit letter")
    return tiles


def parse_tile(text: str) -> Tile:
    """Read exactly one tile, e.g. ``"5p"`` or ``"j"``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileParseError(f"expected one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in notation, keeping their order: ``["5p", "5p", "j", "1p"]`` -> ``"55p j 1p"``.

    Runs of one suit share a letter and groups are separated by a space, so
    ``parse_tiles(format_tiles(t)) == list(t)`` for every list of tiles.
    """
    groups: list[str] = []
    run: list[str] = []
    run_suit = ""
    for tile in tiles:
        if tile == FEI:
            if run:
                groups.append("".join(run) + run_suit)
                run = []
            groups.append(FEI)
            run_suit = ""
            continue
        tile_suit = tile[-1]
        if run and tile_suit != run_suit:
            groups.append("".join(run) + run_suit)
            run = []
        run_suit = tile_suit
        run.append(tile[0])
    if run:
        groups.append("".join(run) + run_suit)
    return " ".join(groups)


def hk_tile_set() -> list[Tile]:
    """The 136 tiles of the Hong Kong table: three suits and the honours, four of each."""
    kinds = [f"{r}{s}" for s in SUITS for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    return [tile for tile in kinds for _ in range(4)]


def kaki3_tile_set() -> list[Tile]:
    """The 84 tiles of the 3 Kaki table: Tong, honours, 16 bonus tiles and four Fei."""
    kinds = [f"{r}p" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    tiles = [tile for tile in kinds for _ in range(4)]
    tiles += [f"{r}{s}" for s in BONUS_SUITS for r in range(1, 5)]
    tiles += [FEI] * 4
    return tiles


def tile_diff(have: Iterable[Tile], want: Iterable[Tile]) -> tuple[list[Tile], list[Tile]]:
    """Compare two multisets: (tiles missing from `have`, tiles extra in `have`), each sorted."""
    have_count, want_count = Counter(have), Counter(want)
    missing = sorted_tiles((want_count - have_count).elements())
    extra = sorted_tiles((have_count - want_count).elements())
    return missing, extra
