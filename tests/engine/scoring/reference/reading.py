"""The hand read from its JSON input, and every reading of it as four sets and an eye.

Part of the reference scorer (see `scorer.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from server.engine.tiles import FEI, parse_tile, parse_tiles
from tests.engine.scoring.reference.splits import (
    CONCEALED_KONG,
    HAND,
    SHOWN,
    Group,
    concealed_splits,
    order,
)

TILE_KINDS = {
    "hk": tuple(f"{r}{s}" for s in "mps" for r in range(1, 10))
    + tuple(f"{r}z" for r in range(1, 8)),
    "kaki3": tuple(f"{r}p" for r in range(1, 10)) + tuple(f"{r}z" for r in range(1, 8)),
}


def _tiles(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    return [parse_tile(tile) for tile in value]


def shown_group(meld: dict[str, Any]) -> Group:
    """A shown set or concealed kong as a group, its Fei standing for `fei_as`."""
    held = tuple(_tiles(meld["tiles"]))
    kind = meld["kind"]
    origin = CONCEALED_KONG if meld.get("concealed") else SHOWN
    reals = [tile for tile in held if tile != FEI]
    if FEI not in held:
        return Group(kind, held, held, origin)
    if kind == "pong":
        stand_in = reals[0]
    elif meld.get("fei_as") is not None:
        stand_in = parse_tile(meld["fei_as"])
    else:
        # A chow's Fei may go unnamed when it fills the gap between its two real tiles.
        low, high = sorted(reals, key=order)
        stand_in = f"{int(low[0]) + 1}{low[-1]}"
    stands = tuple(stand_in if tile == FEI else tile for tile in held)
    return Group(kind, held, stands, origin)


@dataclass(frozen=True)
class Hand:
    """The facts of the input that do not depend on the reading."""

    variant: str
    seat: str
    round_wind: str
    concealed: tuple[str, ...]
    winning_tile: str
    melds: tuple[Group, ...]
    bonus: tuple[str, ...]
    self_drawn: bool
    replacement: str | None
    robbing_kong: bool
    last_tile: bool
    last_discard: bool
    heavenly: bool
    earthly: bool
    kong_upon_kong: bool

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Hand:
        """Read a `mahjong-hall score` input object."""
        win = obj.get("win") or {}
        return cls(
            variant=obj["variant"],
            seat=obj["seat"],
            round_wind=obj.get("round") or "E",
            concealed=tuple(_tiles(obj["concealed"])),
            winning_tile=parse_tile(obj["winning_tile"]),
            melds=tuple(shown_group(meld) for meld in obj.get("melds") or []),
            bonus=tuple(_tiles(obj.get("bonus"))),
            self_drawn=bool(win.get("self_drawn")),
            replacement=win.get("replacement"),
            robbing_kong=bool(win.get("robbing_kong")),
            last_tile=bool(win.get("last_tile")),
            last_discard=bool(win.get("last_discard")),
            heavenly=bool(win.get("heavenly")),
            earthly=bool(win.get("earthly")),
            kong_upon_kong=bool(win.get("kong_upon_kong")),
        )

    @property
    def fei_held(self) -> int:
        """Fei in the hand, in shown sets and sunk."""
        shown = sum(group.held.count(FEI) for group in self.melds)
        return self.concealed.count(FEI) + self.bonus.count(FEI) + shown


class Reading(NamedTuple):
    """Four sets and an eye, with the group the winning tile completed."""

    sets: tuple[Group, ...]
    eye: Group
    winning_group: Group


class Tally(NamedTuple):
    patterns: tuple[tuple[str, int], ...]
    limits: tuple[str, ...]


def readings(hand: Hand) -> Iterator[Reading]:
    """Every reading of the standard shape: each split, each two-Fei eye tile, each group
    the winning tile can sit in."""
    kinds = TILE_KINDS[hand.variant]
    for split in concealed_splits(hand.concealed):
        (eye,) = [group for group in split if group.kind == "eye"]
        hand_sets = [group for group in split if group.kind != "eye"]
        eye_choices = [eye]
        if eye.stands == (FEI, FEI):
            eye_choices = [Group("eye", eye.held, (kind, kind), HAND) for kind in kinds]
        for chosen_eye in eye_choices:
            groups = [*hand_sets, chosen_eye]
            for group in groups:
                if hand.winning_tile in group.held:
                    yield Reading(tuple(hand_sets) + hand.melds, chosen_eye, group)
