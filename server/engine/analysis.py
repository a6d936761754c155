"""What one seat's own hand is worth, worked out from that seat's view alone.

`analyse(view)` takes the JSON of `view(state, seat)` (docs/engine.md) and nothing else, so
it cannot use what the seat may not see: another hand, the wall, a claim option. It
answers the questions players argue about: how many tiles from ready, which tiles complete
the hand and how many of each are still unseen by this seat, what each win would score on
a discard and on a self-draw, and whether it reaches the table's minimum. See
docs/learning.md for the JSON and the decisions taken.

The costly part (waits and their scores) depends only on the seat's own tiles, shown sets,
bonus tiles and winds, so it is memoised on exactly those; unseen counts are recounted on
every call (a few dozen additions).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from server.engine.hand import shanten, waits
from server.engine.melds import PONG, Meld
from server.engine.rules import TableRules
from server.engine.scoring import score_hand
from server.engine.scoring.types import ScoreResult, WinFlags, WinningHand
from server.engine.tiles import FEI, Tile, sort_key
from server.engine.variants import KAKI3, get_variant

_DISCARD_WIN = WinFlags()
_SELF_DRAW = WinFlags(self_drawn=True)
# The replacement a sunk Fei brings is drawn from the back: a bonus replacement.
_SINK_REPLACEMENT = WinFlags(self_drawn=True, replacement="bonus")

SAME_TURN_THROW_BAN = "same_turn_throw_ban"
FEI_NOT_IN_KONG = "fei_not_in_kong"


@dataclass(frozen=True)
class WinValue:
    """What one way of winning would score."""

    fan: int
    points: int
    limit: bool
    reaches_min: bool
    patterns: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON of one win's value."""
        return {
            "fan": self.fan,
            "points": self.points,
            "limit": self.limit,
            "reaches_min": self.reaches_min,
            "patterns": [{"id": pattern_id, "fan": fan} for pattern_id, fan in self.patterns],
        }


@dataclass(frozen=True)
class Wait:
    """A tile that completes the shape, with its value both ways (None: cannot be won so)."""

    tile: Tile
    on_discard: WinValue | None
    on_self_draw: WinValue | None


@dataclass(frozen=True)
class OwnTiles:
    """The memo key: everything about the seat's own hand that its value depends on."""

    variant: str
    seat: str
    round_wind: str
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    # The table's house rules: its minimum, cap and points decide what a wait is worth.
    rules: TableRules


def win_value(result: ScoreResult, minimum: int) -> WinValue:
    """A scorer's answer as a `WinValue`."""
    return WinValue(
        fan=result.fan,
        points=result.points,
        limit=result.limit,
        reaches_min=result.valid and (result.limit or result.fan >= minimum),
        patterns=tuple((pattern.id, pattern.fan) for pattern in result.patterns),
    )


def score_with(own: OwnTiles, tile: Tile, flags: WinFlags) -> WinValue:
    """The value of `own` completed by `tile`, won as `flags` say."""
    hand = WinningHand(
        variant=own.variant,
        seat_wind=own.seat,
        concealed=(*own.concealed, tile),
        winning_tile=tile,
        melds=own.melds,
        bonus=own.bonus,
        round_wind=own.round_wind,
        flags=flags,
    )
    return win_value(score_hand(hand, own.rules), own.rules.min_fan)


@lru_cache(maxsize=20_000)
def hand_waits(
    own: OwnTiles, self_draw: WinFlags = _SELF_DRAW, on_discard: bool = True
) -> tuple[Wait, ...]:
    """Every wait of a 3n + 1 hand, scored on a self-draw and (`on_discard`) on a discard.

    A Fei can only be drawn, never claimed, so it has no discard value.
    """
    found = []
    for tile in wait_tiles(own):
        discard_value = score_with(own, tile, _DISCARD_WIN) if on_discard and tile != FEI else None
        found.append(Wait(tile, discard_value, score_with(own, tile, self_draw)))
    return tuple(found)


# Reused within a turn: a throw `ready_discards` tried is the hand `hand_waits` then reads.
@lru_cache(maxsize=4096)
def wait_tiles(own: OwnTiles) -> tuple[Tile, ...]:
    """The tiles that complete a 3n + 1 hand's shape, fifth copies left out (the shape
    check alone: no scoring, so cheap enough for every throw of a turn)."""
    held = Counter(own.concealed)
    for meld in own.melds:
        held.update(meld.tiles)
    held[FEI] += own.bonus.count(FEI)
    # A fifth copy (or Fei) does not exist; `waits` sees the hand alone.
    return tuple(tile for tile in waits(own.concealed, own.variant) if held[tile] < 4)


@lru_cache(maxsize=20_000)
def hand_steps(concealed: tuple[Tile, ...], variant: str) -> int:
    """Tiles from ready (0 ready, -1 complete); memoised like the waits (a seat's hand is
    analysed again each time the table changes, and reading it into counts is the cost)."""
    return shanten(concealed, variant)


# Its reuse is close in time (the same turn seen again), so a few thousand hands will do.
@lru_cache(maxsize=4096)
def ready_discards(
    own: OwnTiles, banned: tuple[Tile, ...]
) -> tuple[tuple[Tile, tuple[Tile, ...]], ...]:
    """For a 3n + 2 hand: each throw (not banned, not a Fei) that leaves the hand ready,
    with its waits. Not scored: a turn may offer a dozen such throws, and the hand's
    value is worked out once the seat has thrown and waits."""
    if hand_steps(own.concealed, own.variant) > 0:
        return ()
    options = []
    for tile in sorted(set(own.concealed) - {FEI} - set(banned), key=sort_key):
        rest = list(own.concealed)
        rest.remove(tile)
        kept = _with_concealed(own, tuple(rest))
        found = wait_tiles(kept)
        if found:
            options.append((tile, found))
    return tuple(options)


def analyse(seat_view: Mapping[str, Any], rules: TableRules | None = None) -> dict[str, Any] | None:
    """The analysis of the viewing seat's hand (docs/learning.md) under the table's house
    `rules` (None: the seed's); None for a spectator or a deal that is over."""
    seat = seat_view.get("me")
    if seat is None or seat_view.get("phase") == "ended" or "hand" not in seat_view:
        return None
    variant = str(seat_view["variant"])
    table_rules = rules if rules is not None else TableRules.default(variant)
    minimum = table_rules.min_fan
    mine = seat_view["players"][seat]
    concealed = list(seat_view["hand"])
    drawn = seat_view.get("drawn_tile")
    if drawn is not None:
        concealed.append(drawn)
    own = OwnTiles(
        variant=variant,
        seat=seat,
        round_wind=str(seat_view["round_wind"]),
        concealed=tuple(sorted(concealed, key=sort_key)),
        melds=tuple(Meld.from_json(meld) for meld in mine["melds"]),
        bonus=tuple(mine["bonus"]),
        rules=table_rules,
    )
    unseen = UnseenCounts(seat_view, variant)
    analysis: dict[str, Any] = {
        "steps": hand_steps(own.concealed, variant),
        "min_fan": minimum,
        "waits": [],
        "win_now": None,
        "discards": [],
        "sink": None,
        "short": None,
        "rules": refused_by_rule(seat_view, own),
    }
    if len(own.concealed) % 3 == 1:
        found = hand_waits(own)
        analysis["waits"] = [wait_json(wait, unseen) for wait in found]
        analysis["short"] = short_on_discard(seat_view, own, found, minimum)
        return analysis
    banned = tuple(seat_view.get("forbidden") or ())
    if analysis["steps"] == -1:
        complete = own.concealed[:-1] if drawn is None else tuple(_without(own.concealed, drawn))
        winning = own.concealed[-1] if drawn is None else drawn
        value = score_with(_with_concealed(own, complete), winning, self_draw_flags(seat_view))
        analysis["win_now"] = {"tile": winning, **value.to_json()}
        if not value.reaches_min:
            analysis["short"] = _short_json(winning, "self_draw", value, minimum)
    analysis["discards"] = [
        {"tile": tile, "waits": [{"tile": wait, "unseen": unseen.get(wait, 0)} for wait in found]}
        for tile, found in ready_discards(own, banned)
    ]
    if variant == KAKI3 and FEI in own.concealed and FEI not in banned:
        win_now = analysis["win_now"]
        can_win = win_now is not None and win_now["reaches_min"]
        analysis["sink"] = sink_analysis(own, unseen, can_win, minimum)
    return analysis


def sink_analysis(
    own: OwnTiles, unseen: UnseenCounts, can_win: bool, minimum: int
) -> dict[str, Any]:
    """What sinking a Fei now would do: the hand loses the Fei, gains a "Fei set aside"
    bonus tile, and draws a replacement from the back (a bonus-replacement self-draw).
    The waits are the tiles that replacement could win on, scored as that self-draw.

    `lifts` is true when a replacement win after sinking reaches the minimum while the
    hand as held now offers no win that reaches it.
    """
    rest = _with_concealed(own, tuple(_without(own.concealed, FEI)))
    sunk = replace(rest, bonus=(*rest.bonus, FEI))
    found = hand_waits(sunk, _SINK_REPLACEMENT, on_discard=False)
    lifted = any(wait.on_self_draw is not None and wait.on_self_draw.reaches_min for wait in found)
    return {
        "steps": hand_steps(sunk.concealed, sunk.variant),
        "waits": [wait_json(wait, unseen) for wait in found],
        "lifts": lifted and not can_win,
        "min_fan": minimum,
    }


def short_on_discard(
    seat_view: Mapping[str, Any], own: OwnTiles, found: Sequence[Wait], minimum: int
) -> dict[str, Any] | None:
    """The last discard (another seat's) completes the shape but scores below the minimum."""
    last = seat_view.get("last_discard")
    # The engine opens no claim window for a win that falls short, so the discard is
    # judged while it is the last one, whatever the phase.
    if last is None or last["seat"] == seat_view["me"]:
        return None
    for wait in found:
        value = wait.on_discard
        if wait.tile == last["tile"] and value is not None and not value.reaches_min:
            flags = discard_flags(seat_view)
            if flags != _DISCARD_WIN:
                value = score_with(own, wait.tile, flags)
            return None if value.reaches_min else _short_json(wait.tile, "discard", value, minimum)
    return None


def discard_flags(seat_view: Mapping[str, Any]) -> WinFlags:
    """The ways of winning on the discard on offer that the table shows: the last discard
    of the wall, and the dealer's first discard (an earthly hand)."""
    thrown = sum(
        len(player["discards"]) + sum(1 for meld in player["melds"] if meld.get("from"))
        for player in seat_view["players"].values()
    )
    return WinFlags(
        last_discard=seat_view["wall_remaining"] <= 0,
        earthly=seat_view["last_discard"]["seat"] == "E" and thrown == 1,
    )


def self_draw_flags(seat_view: Mapping[str, Any]) -> WinFlags:
    """A self-draw as the table shows it: the last tile of the wall, or the dealer's hand
    before any throw (heavenly). Whether the tile came from the back is not in the view."""
    players = seat_view["players"].values()
    untouched = all(not player["discards"] and not player["melds"] for player in players)
    return WinFlags(
        self_drawn=True,
        last_tile=seat_view["wall_remaining"] <= 0,
        heavenly=seat_view["me"] == "E" and untouched,
    )


def refused_by_rule(seat_view: Mapping[str, Any], own: OwnTiles) -> list[dict[str, Any]]:
    """Moves the seat might expect that a rule refuses now, for the prompt to word."""
    rules: list[dict[str, Any]] = []
    banned = list(seat_view.get("forbidden") or ())
    if banned:
        rules.append({"id": SAME_TURN_THROW_BAN, "tiles": banned})
    if own.variant != KAKI3:
        return rules
    held = Counter(own.concealed)
    my_turn = seat_view.get("turn") == own.seat and seat_view.get("phase") == "discard"
    fei_kongs: set[Tile] = set()
    if my_turn:
        for meld in own.melds:
            # A pong leaning on a Fei cannot grow into a kong until the Fei is swapped out.
            if meld.kind == PONG and meld.fei_count and meld.fei_as in held:
                fei_kongs.add(str(meld.fei_as))
        if held[FEI]:
            fei_kongs.update(t for t, n in held.items() if t != FEI and n == 3)
    last = seat_view.get("last_discard") or {"seat": own.seat, "tile": FEI}
    offered = seat_view.get("phase") == "claim" and last["seat"] != own.seat
    # A kong claimed on a discard takes three real tiles from the hand, never a Fei.
    if offered and held[FEI] and held[last["tile"]] == 2:
        fei_kongs.add(last["tile"])
    for tile in sorted(fei_kongs, key=sort_key):
        rules.append({"id": FEI_NOT_IN_KONG, "tile": tile})
    return rules


class UnseenCounts:
    """`unseen_counts`, counted the first time a wait asks (most hands are not ready, and
    counting the table is most of what an analysis without waits would cost)."""

    def __init__(self, seat_view: Mapping[str, Any], variant: str) -> None:
        self._view = seat_view
        self._variant = variant
        self._counts: dict[Tile, int] | None = None

    def get(self, tile: Tile, default: int = 0) -> int:
        """Unseen copies of `tile`."""
        if self._counts is None:
            self._counts = unseen_counts(self._view, self._variant)
        return self._counts.get(tile, default)


def unseen_counts(seat_view: Mapping[str, Any], variant: str) -> dict[Tile, int]:
    """How many copies of each tile this seat has not seen: the tile set less its own
    concealed tiles and everything on the table (shown sets, discards, bonus tiles)."""
    seen = Counter(seat_view["hand"])
    if seat_view.get("drawn_tile") is not None:
        seen[seat_view["drawn_tile"]] += 1
    for player in seat_view["players"].values():
        seen.update(player["discards"])
        seen.update(player["bonus"])
        for meld in player["melds"]:
            seen.update(meld["tiles"])
    total = _tile_set_counts(variant)
    return {tile: max(count - seen[tile], 0) for tile, count in total.items()}


@lru_cache(maxsize=4)
def _tile_set_counts(variant: str) -> dict[Tile, int]:
    return dict(Counter(get_variant(variant).tile_set))


def wait_json(wait: Wait, unseen: UnseenCounts | Mapping[Tile, int]) -> dict[str, Any]:
    """One wait as the `analysis` JSON lists it."""
    return {
        "tile": wait.tile,
        "unseen": unseen.get(wait.tile, 0),
        "discard": None if wait.on_discard is None else wait.on_discard.to_json(),
        "self_draw": None if wait.on_self_draw is None else wait.on_self_draw.to_json(),
    }


def _short_json(tile: Tile, way: str, value: WinValue, minimum: int) -> dict[str, Any]:
    return {
        "tile": tile,
        "on": way,
        "min_fan": minimum,
        "shortfall": minimum - value.fan,
        **value.to_json(),
    }


def _with_concealed(own: OwnTiles, concealed: tuple[Tile, ...]) -> OwnTiles:
    return replace(own, concealed=concealed)


def _without(tiles: Iterable[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


__all__ = ["FEI_NOT_IN_KONG", "SAME_TURN_THROW_BAN", "analyse", "hand_waits", "unseen_counts"]
