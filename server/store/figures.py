"""The dashboard's figures, defined once: what one finished deal adds to the summaries.

`finish_deal` adds each deal as it ends (`server/store/summaries.py`), and migration 0002
adds every stored deal of an existing history (its backfill reads the rows and calls the
same functions), so the two cannot drift apart. The exact SQL of `server/dashboard/` is
the independent check: a test plays many deals and compares its answers with the
summaries'.

Plain values in, plain counts out (standard library only): the callers read the rows in
whatever schema they stand on, so an old migration keeps working when the tables change.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

# Upper bounds of the deal-duration buckets, in seconds: under a minute, 1-2, ... 4-5,
# and 5 minutes or more (the default deal limit). The charts label them from these.
DURATION_UPPER_BOUNDS = (60, 120, 180, 240, 300)

# Why a bot moved for a human seat, as the action log's `bot_reason` says it: the turn
# clock ran out, or nobody was connected. A bot's own seat (`bot_seat`) is not cover.
TIMED_OUT = "timeout"
DISCONNECTED = "disconnected"
COVER_REASONS = (TIMED_OUT, DISCONNECTED)

# A player's totals per variant, in the order of `player_totals`' counter columns.
PLAYER_COUNTERS = (
    "deals",
    "points",
    "wins",
    "self_draws",
    "dealt_in",
    "rooms",
    "fan_sum",
    "fan_count",
    "timed_out",
    "disconnected",
)
EVERY_DEAL = ""  # chart_counts' player_name for the counts over every deal


def duration_bucket(seconds: float) -> int:
    """The index of the duration bucket a deal of ``seconds`` falls in."""
    return bisect.bisect_right(DURATION_UPPER_BOUNDS, seconds)


@dataclass(frozen=True)
class SeatLine:
    """One seated player's line of a finished deal (a `deal_players` row)."""

    player_name: str
    is_bot: bool
    net_points: int
    won: bool
    self_drawn: bool
    dealt_in: bool
    timed_out: int
    disconnected: int


@dataclass(frozen=True)
class FinishedDeal:
    """What the summaries need of one finished deal. `fan` is the highest winning fan
    (None without a winner); `pattern_ids` lists every winner's patterns, repeats kept."""

    variant: str
    room_id: str
    outcome: str
    fan: int | None
    pattern_ids: tuple[str, ...]
    seconds: float
    seats: tuple[SeatLine, ...]


def player_figures(deal: FinishedDeal, seat: SeatLine, new_room: bool) -> dict[str, int]:
    """What one seat of `deal` adds to its player's totals. `new_room`: the player (by
    name and bot flag) had no earlier deal in this room, so the room counts once."""
    won_with_fan = seat.won and deal.fan is not None
    return {
        "deals": 1,
        "points": seat.net_points,
        "wins": int(seat.won),
        "self_draws": int(seat.self_drawn),
        "dealt_in": int(seat.dealt_in),
        "rooms": int(new_room),
        "fan_sum": deal.fan if won_with_fan and deal.fan is not None else 0,
        "fan_count": int(won_with_fan),
        "timed_out": seat.timed_out,
        "disconnected": seat.disconnected,
    }


def chart_figures(deal: FinishedDeal) -> dict[tuple[str, str], int]:
    """(figure, label) -> how many the deal adds: its outcome and duration bucket, and for
    a win its fan and each pattern (two of one id count two)."""
    figures: dict[tuple[str, str], int] = {
        ("outcome", deal.outcome): 1,
        ("duration", str(duration_bucket(deal.seconds))): 1,
    }
    if deal.outcome == "win":
        if deal.fan is not None:
            figures[("fan", str(deal.fan))] = 1
        for pattern in deal.pattern_ids:
            figures[("pattern", pattern)] = figures.get(("pattern", pattern), 0) + 1
    return figures


PlayerKey = tuple[str, bool, str]  # (player_name, is_bot, variant)
ChartKey = tuple[str, str, str, str]  # (variant, player_name, figure, label)


@dataclass
class Summaries:
    """Totals being added up: `players` per `PlayerKey`, `charts` per `ChartKey`.
    `seen_in_room` holds (room_id, player_name, is_bot) of every deal already added."""

    players: dict[PlayerKey, dict[str, int]]
    charts: dict[ChartKey, int]
    seen_in_room: set[tuple[str, str, bool]]

    @classmethod
    def empty(cls, seen_in_room: Iterable[tuple[str, str, bool]] = ()) -> Summaries:
        return cls({}, {}, set(seen_in_room))

    def add(self, deal: FinishedDeal) -> None:
        """Add one deal: every seat to its player's totals, and the deal's chart figures
        once over every deal and once for each name seated in it."""
        for seat in deal.seats:
            where = (deal.room_id, seat.player_name, seat.is_bot)
            added = player_figures(deal, seat, where not in self.seen_in_room)
            self.seen_in_room.add(where)  # a name seated twice in one deal: one room
            total = self.players.setdefault(
                (seat.player_name, seat.is_bot, deal.variant), dict.fromkeys(PLAYER_COUNTERS, 0)
            )
            for name, amount in added.items():
                total[name] += amount
        counted = chart_figures(deal)
        for player in {EVERY_DEAL, *(seat.player_name for seat in deal.seats)}:
            for (figure, label), count in counted.items():
                key = (deal.variant, player, figure, label)
                self.charts[key] = self.charts.get(key, 0) + count

    def player_rows(self) -> list[dict[str, object]]:
        """`player_totals` rows, in key order."""
        return [
            {"player_name": name, "is_bot": is_bot, "variant": variant, **counters}
            for (name, is_bot, variant), counters in sorted(self.players.items())
        ]

    def chart_rows(self) -> list[dict[str, object]]:
        """`chart_counts` rows, in key order."""
        return [
            {
                "variant": variant,
                "player_name": player,
                "figure": figure,
                "label": label,
                "deals": count,
            }
            for (variant, player, figure, label), count in sorted(self.charts.items())
        ]
