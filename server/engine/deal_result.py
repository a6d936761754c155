"""A finished deal's result, its winners and every payment, as typed values.

The engine builds these frozen values; they become JSON only at the edge (the room's
messages, the store's columns, the replay printout) through `to_json`, whose output is the
result object of docs/engine.md ("The result") key for key and in the same order, so the
wire does not change. `from_json` reads a stored result back (the store's JSON column and
the replay review), and `from_json(x.to_json()) == x` holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.engine.melds import Meld
from server.engine.tiles import Tile


class DealOutcome(StrEnum):
    """How a deal ended. A `StrEnum`, so it is its wire string in JSON and SQL."""

    WIN = "win"
    DRAW = "draw"  # the wall ran out
    TIMEOUT = "timeout"  # the deal's time ran out


@dataclass(frozen=True, slots=True)
class Payment:
    """`payer` pays `payee` `points` for `reason` (docs/rules.md lists the reasons)."""

    payer: str
    payee: str
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"from", "to", "points", "reason"}``."""
        return {"from": self.payer, "to": self.payee, "points": self.points, "reason": self.reason}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Payment:
        """Read back what `to_json` wrote."""
        return cls(str(obj["from"]), str(obj["to"]), int(obj["points"]), str(obj["reason"]))


@dataclass(frozen=True, slots=True)
class ResultSet:
    """One concealed set of the winning reading: its kind, its tiles as held, and what a
    Fei in it stands for (None when it holds none)."""

    kind: str
    tiles: tuple[Tile, ...]
    fei_as: Tile | None

    def to_json(self) -> dict[str, Any]:
        """Shaped like a shown meld's JSON."""
        return {"kind": self.kind, "tiles": list(self.tiles), "fei_as": self.fei_as}


@dataclass(frozen=True, slots=True)
class WinnerHand:
    """The winning hand as shown at the end: concealed tiles (sorted) and their reading,
    the shown sets, the bonus tiles, the winning tile and how it came."""

    concealed: tuple[Tile, ...]
    sets: tuple[ResultSet, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    winning_tile: Tile
    self_drawn: bool
    # The seat that threw the winning tile (or added the robbed kong); None for self-draw.
    shooter: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``hand`` member of a winner."""
        return {
            "concealed": list(self.concealed),
            "sets": [reading_set.to_json() for reading_set in self.sets],
            "melds": [meld.to_json() for meld in self.melds],
            "bonus": list(self.bonus),
            "winning_tile": self.winning_tile,
            "self_drawn": self.self_drawn,
            "from": self.shooter,
        }


@dataclass(frozen=True, slots=True)
class DealWinner:
    """One winner of the result: fan, limit, points and the patterns that counted."""

    seat: str
    fan: int
    limit: bool
    points: int
    # (pattern id, fan) in the scorer's order.
    patterns: tuple[tuple[str, int], ...]
    hand: WinnerHand

    def to_json(self) -> dict[str, Any]:
        """One member of the result's ``winners``."""
        return {
            "seat": self.seat,
            "fan": self.fan,
            "limit": self.limit,
            "points": self.points,
            "patterns": [{"id": pattern_id, "fan": fan} for pattern_id, fan in self.patterns],
            "hand": self.hand.to_json(),
        }


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: the winners (none for a draw or timeout), every payment of the
    deal, each seat's net and who deals next."""

    outcome: DealOutcome
    winners: tuple[DealWinner, ...]
    payments: tuple[Payment, ...]
    scores: Mapping[str, int]
    next_dealer: str

    @property
    def winner_seats(self) -> tuple[str, ...]:
        """The winners' seats, in result order."""
        return tuple(winner.seat for winner in self.winners)

    def to_json(self) -> dict[str, Any]:
        """The result object of docs/engine.md."""
        return {
            "outcome": self.outcome,
            "winners": [winner.to_json() for winner in self.winners],
            "payments": [paid.to_json() for paid in self.payments],
            "scores": dict(self.scores),
            "next_dealer": self.next_dealer,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DealResult:
        """Read back a result `to_json` wrote (`ValueError`/`KeyError` when malformed)."""
        return cls(
            outcome=DealOutcome(obj["outcome"]),
            winners=tuple(_winner_from_json(winner) for winner in obj.get("winners") or ()),
            payments=tuple(Payment.from_json(paid) for paid in obj.get("payments") or ()),
            scores={str(seat): int(points) for seat, points in (obj.get("scores") or {}).items()},
            next_dealer=str(obj["next_dealer"]),
        )


def _winner_from_json(obj: Mapping[str, Any]) -> DealWinner:
    hand = obj["hand"]
    return DealWinner(
        seat=str(obj["seat"]),
        fan=int(obj["fan"]),
        limit=bool(obj["limit"]),
        points=int(obj["points"]),
        patterns=tuple((str(p["id"]), int(p["fan"])) for p in obj.get("patterns") or ()),
        hand=WinnerHand(
            concealed=tuple(hand["concealed"]),
            sets=tuple(
                ResultSet(s["kind"], tuple(s["tiles"]), s.get("fei_as")) for s in hand["sets"]
            ),
            melds=tuple(Meld.from_json(meld) for meld in hand["melds"]),
            bonus=tuple(hand["bonus"]),
            winning_tile=hand["winning_tile"],
            self_drawn=bool(hand["self_drawn"]),
            shooter=hand.get("from"),
        ),
    )


def net_of(seats: Sequence[str], payments: Sequence[Payment]) -> dict[str, int]:
    """Each seat's net from `payments`."""
    scores = dict.fromkeys(seats, 0)
    for paid in payments:
        scores[paid.payer] -= paid.points
        scores[paid.payee] += paid.points
    return scores
