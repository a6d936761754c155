"""What the players enter after each hand at a real table, as typed values.

A `HandEntry` is one hand as the phone holder told it: who won and how (or that the hand
was drawn), the winning hand, the win's circumstances, and what the settlement needs
besides (docs/ledger.md). Players are numbered in the ledger's seat order of the first
hand (0 is the first dealer); seats are never entered, since they follow from the hands
before (`server.ledger.night`).

`HandEntry.from_json` reads the body of docs/protocol.md, "Ledgers", and refuses any
shape that is not a hand with a `LedgerError` naming the field; `to_json` writes the
canonical form that is stored and read back (`from_json(e.to_json()) == e`). Whether the
tiles make a win, and fit together at the table, is `server.ledger.reckoning`'s question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from server.engine.errors import EngineError, TileParseError
from server.engine.melds import CHOW, KONG, PONG, Meld
from server.engine.scoring.kaki3 import FAMILIES
from server.engine.scoring.types import WinFlags
from server.engine.settlement import ADDED, CONCEALED, EXPOSED
from server.engine.tiles import Tile, format_tiles, parse_tile, parse_tiles
from server.engine.variants import HK, KAKI3, Variant

WIN = "win"
DRAW = "draw"
KONG_KINDS = (EXPOSED, ADDED, CONCEALED)
# The plain questions of a win (docs/ledger.md, "The win's circumstances").
QUESTIONS = ("last_tile", "last_discard", "robbing_kong", "heavenly", "earthly", "kong_upon_kong")
REPLACEMENTS = (None, "bonus", "kong")
Parsed = TypeVar("Parsed")


class LedgerError(ValueError):
    """An entry that cannot be a hand at this table. The message says why, in words;
    `hand_no` is the hand it was found in, once known."""

    def __init__(self, message: str, hand_no: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand_no = hand_no

    def __str__(self) -> str:
        return self.message if self.hand_no is None else f"hand {self.hand_no}: {self.message}"


@dataclass(frozen=True)
class WinnerEntry:
    """A winner and the winning hand: the input of `mahjong-hall score` without the table,
    the seat and the round, which the ledger knows."""

    player: int
    concealed: tuple[Tile, ...]
    winning_tile: Tile
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    # The win's circumstances; `self_drawn` follows from the entry's discarder.
    flags: WinFlags = WinFlags()


@dataclass(frozen=True)
class LoserEntry:
    """A 3 Kaki loser at the end of a win: bonus tiles (a sunk Fei written ``j``), shown
    honour sets (and concealed honour kongs), and every Fei held (hand, sets, sunk)."""

    player: int
    bonus: tuple[Tile, ...] = ()
    sets: tuple[Meld, ...] = ()
    fei: int = 0


@dataclass(frozen=True)
class KongEntry:
    """A kong made during the hand, paid at once; `discarder` for a kong from a discard."""

    player: int
    kind: str
    discarder: int | None = None


@dataclass(frozen=True)
class FamilyEntry:
    """A 3 Kaki family of four completed during the hand, paid at once; `in_deal` when it
    was complete before the first discard (paid 4, not 2)."""

    player: int
    family: str
    in_deal: bool = False


@dataclass(frozen=True)
class HandEntry:
    """One hand as entered. A drawn hand has no winner; Hong Kong may have several winners
    on one discard."""

    outcome: str
    winners: tuple[WinnerEntry, ...] = ()
    discarder: int | None = None
    losers: tuple[LoserEntry, ...] = ()
    liable: int | None = None
    kongs: tuple[KongEntry, ...] = ()
    families: tuple[FamilyEntry, ...] = ()
    last_to_draw: int | None = None

    @property
    def self_drawn(self) -> bool:
        """A win without a discarder."""
        return self.outcome == WIN and self.discarder is None

    @classmethod
    def from_json(cls, obj: Any, variant: Variant, players: int) -> HandEntry:
        """Read a hand body (docs/protocol.md, "Ledgers") for a table of `players`."""
        return _read_entry(_Reader(obj, "", players), variant)

    def to_json(self) -> dict[str, Any]:
        """The canonical body, as stored; `from_json` reads it back unchanged."""
        obj: dict[str, Any] = {"outcome": self.outcome}
        if self.outcome == WIN:
            first, *more = self.winners
            obj["winner"] = first.player
            obj["discarder"] = self.discarder
            obj["hand"] = _hand_json(first)
            if more:
                obj["more_winners"] = [{"winner": w.player, "hand": _hand_json(w)} for w in more]
        if self.losers:
            obj["losers"] = [
                {
                    "player": loser.player,
                    "bonus": format_tiles(loser.bonus),
                    "sets": [_meld_json(meld) for meld in loser.sets],
                    "fei": loser.fei,
                }
                for loser in self.losers
            ]
        if self.liable is not None:
            obj["liable"] = self.liable
        if self.kongs:
            obj["kongs"] = [_kong_json(kong) for kong in self.kongs]
        if self.families:
            obj["families"] = [
                {"player": f.player, "family": f.family, "in_deal": f.in_deal}
                for f in self.families
            ]
        if self.last_to_draw is not None:
            obj["last_to_draw"] = self.last_to_draw
        return obj


def _hand_json(winner: WinnerEntry) -> dict[str, Any]:
    flags = winner.flags
    win: dict[str, Any] = {name: True for name in QUESTIONS if getattr(flags, name)}
    if flags.replacement is not None:
        win["replacement"] = flags.replacement
    return {
        "concealed": format_tiles(winner.concealed),
        "melds": [_meld_json(meld) for meld in winner.melds],
        "bonus": format_tiles(winner.bonus),
        "winning_tile": winner.winning_tile,
        "win": win,
    }


def _meld_json(meld: Meld) -> dict[str, Any]:
    obj: dict[str, Any] = {"kind": meld.kind, "tiles": format_tiles(meld.tiles)}
    if meld.concealed:
        obj["concealed"] = True
    if meld.fei_as is not None:
        obj["fei_as"] = meld.fei_as
    return obj


def _kong_json(kong: KongEntry) -> dict[str, Any]:
    obj: dict[str, Any] = {"player": kong.player, "kind": kong.kind}
    if kong.discarder is not None:
        obj["from"] = kong.discarder
    return obj


class _Reader:
    """One JSON object being read, with the path its errors name (``hand.melds[1]``)."""

    def __init__(self, obj: Any, path: str, players: int) -> None:
        if not isinstance(obj, Mapping):
            raise LedgerError(f"{path or 'the hand'}: expected an object")
        self.obj = obj
        self.path = path
        self.players = players

    def name(self, field: str) -> str:
        return f"{self.path}.{field}" if self.path else field

    def allow(self, *fields: str) -> None:
        unknown = sorted(set(self.obj) - set(fields))
        if unknown:
            raise LedgerError(f"{self.name(unknown[0])}: not a field of this part of a hand")

    def has(self, field: str) -> bool:
        return self.obj.get(field) is not None

    def child(self, field: str) -> _Reader:
        return _Reader(self.obj.get(field), self.name(field), self.players)

    def items(self, field: str) -> list[_Reader]:
        value = self.obj.get(field)
        if value is None:
            return []
        if not isinstance(value, list):
            raise LedgerError(f"{self.name(field)}: expected a list")
        return [
            _Reader(item, f"{self.name(field)}[{index}]", self.players)
            for index, item in enumerate(value)
        ]

    def player(self, field: str, *, optional: bool = False) -> int | None:
        value = self.obj.get(field)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise LedgerError(
                f"{self.name(field)}: expected a player number, 0 to {self.players - 1}"
            )
        if not 0 <= value < self.players:
            raise LedgerError(
                f"{self.name(field)}: there is no player {value} (players are 0 to {self.players - 1})"
            )
        return value

    def flag(self, field: str) -> bool:
        value = self.obj.get(field, False)
        if not isinstance(value, bool):
            raise LedgerError(f"{self.name(field)}: expected true or false")
        return value

    def text(self, field: str, choices: tuple[str | None, ...]) -> str | None:
        value = self.obj.get(field)
        if value not in choices:
            shown = ", ".join("null" if choice is None else repr(choice) for choice in choices)
            raise LedgerError(f"{self.name(field)}: expected one of {shown}, not {value!r}")
        return value

    def tiles(self, field: str) -> tuple[Tile, ...]:
        value = self.obj.get(field)
        return self._parsed(field, lambda: _tiles(value))

    def tile(self, field: str) -> Tile:
        value = self.obj.get(field)
        if not isinstance(value, str):
            raise LedgerError(f'{self.name(field)}: expected one tile, e.g. "5p"')
        return self._parsed(field, lambda: parse_tile(value))

    def count(self, field: str, most: int) -> int:
        value = self.obj.get(field, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
            raise LedgerError(f"{self.name(field)}: expected a whole number from 0 to {most}")
        return value

    def _parsed(self, field: str, parse: Callable[[], Parsed]) -> Parsed:
        try:
            return parse()
        except EngineError as error:
            raise LedgerError(f"{self.name(field)}: {error}") from None


def _tiles(value: Any) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(value))
    if isinstance(value, list) and all(isinstance(tile, str) for tile in value):
        return tuple(parse_tile(tile) for tile in value)
    raise TileParseError('expected tiles in notation, e.g. "123p 55z"')


def _read_entry(reader: _Reader, variant: Variant) -> HandEntry:
    outcome = reader.text("outcome", (WIN, DRAW))
    kaki3 = variant.name == KAKI3
    reader.allow(
        "outcome",
        "winner",
        "discarder",
        "hand",
        "more_winners",
        "losers",
        "liable",
        "kongs",
        "families",
        "last_to_draw",
    )
    kongs = tuple(_read_kong(item) for item in reader.items("kongs"))
    families = tuple(_read_family(item) for item in reader.items("families"))
    if families and not kaki3:
        raise LedgerError("families: the Hong Kong table has no bonus tiles")
    if outcome == DRAW:
        for field in ("winner", "discarder", "hand", "more_winners", "losers", "liable"):
            if reader.has(field):
                raise LedgerError(f"{field}: a drawn hand has no winner, nor anything a win needs")
        last = reader.player("last_to_draw", optional=not kaki3)
        if last is not None and not kaki3:
            raise LedgerError("last_to_draw: at Hong Kong the dealer keeps the deal after a draw")
        return HandEntry(DRAW, kongs=kongs, families=families, last_to_draw=last)
    if reader.has("last_to_draw"):
        raise LedgerError("last_to_draw: only a drawn hand asks who drew last")
    discarder = reader.player("discarder", optional=True)
    winners = [_read_winner(reader.child("hand"), reader.player("winner"), discarder)]
    for item in reader.items("more_winners"):
        item.allow("winner", "hand")
        winners.append(_read_winner(item.child("hand"), item.player("winner"), discarder))
    if len(winners) > 1 and not (variant.name == HK and discarder is not None):
        raise LedgerError("more_winners: only at Hong Kong, and only on a discard, can several win")
    seen = [winner.player for winner in winners]
    if len(set(seen)) != len(seen):
        raise LedgerError("more_winners: each winner is named once")
    if discarder in seen:
        raise LedgerError("discarder: a winner cannot also be the discarder")
    losers = tuple(_read_loser(item) for item in reader.items("losers"))
    if losers and not kaki3:
        raise LedgerError("losers: Hong Kong settles nothing from the losers' tiles")
    liable = reader.player("liable", optional=True)
    if liable is not None and not kaki3:
        raise LedgerError("liable: dragon liability is a 3 Kaki rule")
    return HandEntry(WIN, tuple(winners), discarder, losers, liable, kongs, families)


def _read_winner(hand: _Reader, player: int | None, discarder: int | None) -> WinnerEntry:
    assert player is not None
    hand.allow("concealed", "melds", "bonus", "winning_tile", "win")
    if not hand.has("concealed") or not hand.has("winning_tile"):
        raise LedgerError(
            f"{hand.path}: the winning hand needs its concealed tiles and winning tile"
        )
    return WinnerEntry(
        player=player,
        concealed=hand.tiles("concealed"),
        winning_tile=hand.tile("winning_tile"),
        melds=tuple(_read_meld(item) for item in hand.items("melds")),
        bonus=hand.tiles("bonus"),
        flags=_read_flags(hand.child("win") if hand.has("win") else None, discarder is None),
    )


def _read_flags(win: _Reader | None, self_drawn: bool) -> WinFlags:
    """The win's circumstances; a self-draw is a win with no discarder."""
    if win is None:
        return WinFlags(self_drawn=self_drawn)
    win.allow(*QUESTIONS, "replacement", "self_drawn")
    # `self_drawn` may be sent as the score input has it, if it agrees with the discarder.
    if win.has("self_drawn") and win.flag("self_drawn") != self_drawn:
        said = "names no discarder: it is a self-draw" if self_drawn else "names a discarder"
        raise LedgerError(f"{win.name('self_drawn')}: the hand {said}")
    replacement = win.text("replacement", REPLACEMENTS)
    asked = {name: win.flag(name) for name in QUESTIONS}
    return WinFlags(self_drawn=self_drawn, replacement=replacement, **asked)


def _read_meld(item: _Reader) -> Meld:
    item.allow("kind", "tiles", "concealed", "fei_as")
    kind = item.text("kind", (CHOW, PONG, KONG))
    assert kind is not None
    fei_as = item.tile("fei_as") if item.has("fei_as") else None
    return Meld(kind, item.tiles("tiles"), item.flag("concealed"), fei_as)


def _read_loser(item: _Reader) -> LoserEntry:
    item.allow("player", "bonus", "sets", "fei")
    player = item.player("player")
    assert player is not None
    sets = tuple(_read_meld(meld) for meld in item.items("sets"))
    return LoserEntry(player, item.tiles("bonus"), sets, item.count("fei", 4))


def _read_kong(item: _Reader) -> KongEntry:
    item.allow("player", "kind", "from")
    player = item.player("player")
    kind = item.text("kind", KONG_KINDS)
    assert player is not None and kind is not None
    if kind != EXPOSED:
        if item.has("from"):
            raise LedgerError(
                f"{item.name('from')}: only a kong from a discard names its discarder"
            )
        return KongEntry(player, kind)
    discarder = item.player("from")
    if discarder == player:
        raise LedgerError(f"{item.name('from')}: a player cannot claim their own discard")
    return KongEntry(player, kind, discarder)


def _read_family(item: _Reader) -> FamilyEntry:
    item.allow("player", "family", "in_deal")
    player = item.player("player")
    family = item.text("family", tuple(FAMILIES))
    assert player is not None and family is not None
    return FamilyEntry(player, family, item.flag("in_deal"))
