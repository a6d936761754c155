"""A hand-written settlement: every payment of a played deal, worked out from its record.

The record is what a watcher of the whole deal could write down: the tiles each seat held
once the deal was dealt (bonus tiles laid out), every event in order, and the phase and
wall count before each action. Nothing here calls the engine's settlement or scoring;
the winner's fan comes from the reference scorer, scored on the winning hand with the win
flags read from the record. The rules are those of docs/rules.md:

- kongs at once: exposed from the discarder 2, added 1 from each other, concealed 2 from
  each other (both tables);
- 3 Kaki families at once: 4 from each other if complete once the deal's bonus tiles were
  replaced, 2 if completed later;
- the win: the value by the fan schedule; Hong Kong: the shooter pays it, a self-draw each
  other player; 3 Kaki: the shooter pays it and the other loser half (rounded up), a
  self-draw both the value, a robbed kong pays as a discard by the adder; dragon
  liability makes the thrower pay both shares (its own as "win", the other's as
  "liability");
- 3 Kaki after a win: extra Fei, then the losers square up (scoring bonus tiles, a sunk Fei
  among them, complete families, honour set fan on the table, twice the Fei).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine.tiles import parse_tiles
from tests.engine.scoring.reference.scorer import POINTS, ReferenceResult, reference_score

SEATS = {"hk": ("E", "S", "W", "N"), "kaki3": ("E", "S", "W")}
DRAGONS = ("5z", "6z", "7z")
SEAT_WIND = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3}
FAMILIES = "fnac"


@dataclass
class Step:
    """One action of the deal, with what could be seen just before it, and its events."""

    action: dict[str, Any]
    phase: str
    wall_remaining: int
    events: list[dict[str, Any]]


@dataclass
class DealRecord:
    """A played deal as a watcher writes it down."""

    variant: str
    dealt_bonus: dict[str, list[str]]
    steps: list[Step] = field(default_factory=list)
    # The final seats: hand (concealed), melds (JSON), bonus, as the deal ended.
    final: dict[str, dict[str, Any]] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def events(self) -> list[dict[str, Any]]:
        return [event for step in self.steps for event in step.events]


Totals = dict[tuple[str, str], int]  # (reason, seat) -> net points


def _pay(totals: Totals, reason: str, payer: str, payee: str, points: int) -> None:
    if points:
        totals[(reason, payer)] -= points
        totals[(reason, payee)] += points


def totals_of(payments: Sequence[dict[str, Any]]) -> Totals:
    """Net points per (reason, seat) of a list of payment records."""
    totals: Totals = defaultdict(int)
    for paid in payments:
        _pay(totals, paid["reason"], paid["from"], paid["to"], paid["points"])
    return {key: value for key, value in totals.items() if value}


def _shown_tile(meld: dict[str, Any]) -> str:
    """The tile a pong or kong stands for (a Fei counts as its `fei_as`)."""
    real = [tile for tile in _meld_tiles(meld) if tile != "j"]
    return real[0] if real else meld["fei_as"]


def _meld_tiles(meld: dict[str, Any]) -> list[str]:
    tiles = meld["tiles"]
    return parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)


def _kongs_and_families(record: DealRecord, totals: Totals) -> None:
    seats = SEATS[record.variant]
    bonus = {seat: list(tiles) for seat, tiles in record.dealt_bonus.items()}
    for seat, tiles in bonus.items():
        for family in FAMILIES:
            if sum(1 for tile in tiles if tile[-1] == family) == 4:
                for other in seats:
                    if other != seat:
                        _pay(totals, "family", other, seat, 4)
    for event in record.events:
        seat = event.get("seat")
        if event["type"] == "claim" and event["meld"]["kind"] == "kong":
            _pay(totals, "kong", event["from"], seat, 2)
        elif event["type"] == "kong":
            points = 1 if event["kind"] == "added" else 2
            for other in seats:
                if other != seat:
                    _pay(totals, "kong", other, seat, points)
        elif event["type"] == "bonus":
            tile = event["tile"]
            bonus[seat].append(tile)
            family = tile[-1]
            if family in FAMILIES and sum(1 for t in bonus[seat] if t[-1] == family) == 4:
                for other in seats:
                    if other != seat:
                        _pay(totals, "family", other, seat, 2)


def _liable_thrower(record: DealRecord, winner: str, shooter: str | None) -> str | None:
    """Who threw `winner` the third dragon while it showed the other two, and either won
    on it or claimed it (and won later in the deal)."""
    shown: dict[str, list[str]] = defaultdict(list)
    liable: str | None = None
    last_dragon_throw: tuple[str, str] | None = None  # (thrower, dragon) open to a claim
    for step in record.steps:
        for event in step.events:
            kind, seat = event["type"], event.get("seat")
            if kind == "discard":
                others = [d for d in DRAGONS if d != event["tile"]]
                if event["tile"] in DRAGONS and all(d in shown[winner] for d in others):
                    last_dragon_throw = (seat, event["tile"])
                else:
                    last_dragon_throw = None
            elif kind == "claim":
                meld = event["meld"]
                if seat == winner and last_dragon_throw and meld["kind"] != "chow":
                    liable = last_dragon_throw[0]
                if meld["kind"] != "chow":
                    shown[seat].append(_shown_tile(meld))
                last_dragon_throw = None
            elif kind == "kong" and event["kind"] == "concealed":
                shown[seat].append(_shown_tile(event["meld"]))
            elif (
                kind == "win"
                and seat == winner
                and shooter is not None
                and step.phase == "claim"
                and last_dragon_throw
            ):
                return last_dragon_throw[0]
    return liable


def win_flags(record: DealRecord, winner: dict[str, Any]) -> dict[str, Any]:
    """How the hand was won, read from the record as docs/rules.md defines each flag."""
    seat = winner["seat"]
    index = next(
        i
        for i, step in enumerate(record.steps)
        if any(e["type"] == "win" and e["seat"] == seat for e in step.events)
    )
    step = record.steps[index]
    earlier = [event for s in record.steps[:index] for event in s.events]
    discards = [event for event in earlier if event["type"] == "discard"]
    if step.phase == "rob":
        return {"robbing_kong": True}
    if winner["hand"]["from"] is not None:
        return {
            "last_discard": step.wall_remaining <= 0,
            "earthly": len(discards) == 1 and discards[0]["seat"] == "E",
        }
    replacement, kongs = _replacement_chain(earlier, seat)
    return {
        "self_drawn": True,
        "replacement": replacement,
        "last_tile": step.wall_remaining == 0,
        "heavenly": seat == "E" and not discards and replacement is None,
        "kong_upon_kong": replacement == "kong" and kongs >= 2,
    }


def _replacement_chain(events: list[dict[str, Any]], seat: str) -> tuple[str | None, int]:
    """Where the winner's last tile came from: None (the front, no bonus tile on the way),
    "kong" (a kong started the chain of back draws) or "bonus" (a bonus tile or a sunk Fei
    did), and how many kongs that chain held."""
    own = [e for e in events if e.get("seat") == seat or e["type"] in ("discard", "claim")]
    root: str | None = None
    kongs = 0
    for event in reversed(own):
        kind = event["type"]
        if kind == "kong":
            kongs += 1
            root = "kong"
        elif kind == "claim" and event["seat"] == seat and event["meld"]["kind"] == "kong":
            kongs += 1
            root = "kong"
            break
        elif kind == "sink":
            root = "bonus" if root is None else root
            # A sink starts a new chain: kongs before it are not this chain's.
            if root == "bonus":
                break
        elif kind == "bonus" and event["tile"] != "j":
            root = root or "bonus"
        elif kind in ("discard", "claim") or (
            kind == "draw" and event["visible_to"] == seat and event["source"] == "front"
        ):
            break
    return root, kongs


def reference_hand(record: DealRecord, winner: dict[str, Any]) -> dict[str, Any]:
    """The winner's hand as a `mahjong-hall score` input, flags read from the record."""
    hand = winner["hand"]
    return {
        "variant": record.variant,
        "seat": winner["seat"],
        "concealed": hand["concealed"],
        "winning_tile": hand["winning_tile"],
        "melds": hand["melds"],
        "bonus": hand["bonus"],
        "win": win_flags(record, winner),
    }


def _fei_held(seat_tiles: dict[str, Any]) -> int:
    shown = sum(_meld_tiles(meld).count("j") for meld in seat_tiles["melds"])
    return list(seat_tiles["hand"]).count("j") + list(seat_tiles["bonus"]).count("j") + shown


def _square_up_count(seat: str, seat_tiles: dict[str, Any]) -> int:
    bonus = set(seat_tiles["bonus"])
    own = SEAT_NUMBER[seat]
    scoring = {f"{own}f", f"{own}n", "4f", "4n"}
    count = sum(1 for tile in bonus if tile[-1] in "ac" or tile in scoring)
    count += list(seat_tiles["bonus"]).count("j")  # a sunk Fei is a scoring bonus tile
    count += sum(1 for f in FAMILIES if all(f"{n}{f}" in bonus for n in range(1, 5)))
    for meld in seat_tiles["melds"]:
        if meld["kind"] == "chow":
            continue
        tile = _shown_tile(meld)
        count += tile in DRAGONS
        count += tile == "1z"
        count += tile == SEAT_WIND[seat]
        count += tile == "4z"
    return count + 2 * _fei_held(seat_tiles)


@dataclass
class WinCheck:
    """The reference's score of one winner, beside what the deal recorded."""

    seat: str
    hand: dict[str, Any]
    reference: ReferenceResult


def settle(record: DealRecord) -> tuple[Totals, list[WinCheck]]:
    """The deal's payments worked out by hand, as net points per (reason, seat)."""
    variant = record.variant
    seats = SEATS[variant]
    totals: Totals = defaultdict(int)
    _kongs_and_families(record, totals)
    checks = []
    for winner in record.result["winners"]:
        seat, shooter = winner["seat"], winner["hand"]["from"]
        hand = reference_hand(record, winner)
        reference = reference_score(hand)
        checks.append(WinCheck(seat, hand, reference))
        value = POINTS[variant][reference.fan] if reference.valid else 0
        losers = [other for other in seats if other != seat]
        if variant == "hk":
            for loser in [shooter] if shooter else losers:
                _pay(totals, "win", loser, seat, value)
            continue
        shares = {
            loser: value if shooter in (None, loser) else (value + 1) // 2 for loser in losers
        }
        liable = _liable_thrower(record, seat, shooter)
        for loser in losers:
            if liable is None:
                _pay(totals, "win", loser, seat, shares[loser])
            elif loser == liable:
                _pay(totals, "win", liable, seat, shares[loser])
            else:
                _pay(totals, "liability", liable, seat, shares[loser])
        fei = {other: _fei_held(record.final[other]) for other in seats}
        for loser in losers:
            _pay(totals, "extra_fei", loser, seat, max(0, fei[seat] - fei[loser]))
        first, second = losers
        difference = _square_up_count(first, record.final[first]) - _square_up_count(
            second, record.final[second]
        )
        if difference > 0:
            _pay(totals, "square_up", second, first, difference)
        else:
            _pay(totals, "square_up", first, second, -difference)
    return {key: value for key, value in totals.items() if value}, checks


def seat_totals(totals: Totals) -> dict[str, int]:
    """Net points per seat over every reason (seats that come out even left out)."""
    net: Counter[str] = Counter()
    for (_, seat), points in totals.items():
        net[seat] += points
    return {seat: points for seat, points in net.items() if points}
