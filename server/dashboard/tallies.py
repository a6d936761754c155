"""The sums the dashboard's rollup keeps: per player, and per group of deals.

Plain counters with ``count_...`` (one more deal) and ``add`` (merge another tally), kept
apart from the rollup's bookkeeping so each stays small.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any, TypeVar

from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncConnection

from server.dashboard.charts import DURATION_BUCKETS

_BUCKET_UPPER_BOUNDS = tuple(upper for _, _, upper in DURATION_BUCKETS if upper is not None)


def duration_bucket(seconds: float) -> int:
    """The index of the duration bucket ``seconds`` falls in (as charts.py counts them)."""
    return bisect.bisect_right(_BUCKET_UPPER_BOUNDS, seconds)


def iso_day(moment: datetime) -> str:
    """The UTC day of a moment as ISO text, the form ``utc_day`` reads from the database."""
    return moment.astimezone(UTC).date().isoformat()


def utc_day(conn: AsyncConnection, moment: Any) -> Any:
    """SQL for the UTC day of a timestamp column as ``YYYY-MM-DD`` text, per dialect."""
    if conn.dialect.name == "postgresql":
        return func.to_char(func.timezone("UTC", moment), "YYYY-MM-DD")
    return func.strftime("%Y-%m-%d", moment)  # SQLite keeps the UTC time as text


def whole_day(moment: datetime | None) -> bool:
    """Whether a filter bound falls on a UTC midnight (or is absent)."""
    return moment is None or moment.astimezone(UTC).time() == time(0, 0)


@dataclass(slots=True)
class PlayerTally:
    """A player's figures over some deals; ``rooms`` they were played in."""

    deals: int = 0
    points: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    fan_sum: int = 0
    fan_count: int = 0
    timed_out: int = 0
    disconnected: int = 0
    rooms: set[str] = field(default_factory=set)

    def count_deal(
        self,
        room_id: str,
        net_points: int,
        won: bool,
        self_drawn: bool,
        dealt_in: bool,
        fan: int | None,
        cover: tuple[int, int],
    ) -> None:
        """One more deal of this player: their row of ``deal_players`` and their bot cover."""
        self.deals += 1
        self.points += net_points
        self.wins += won
        self.self_draws += self_drawn
        self.dealt_in += dealt_in
        if won and fan is not None:
            self.fan_sum += fan
            self.fan_count += 1
        self.timed_out += cover[0]
        self.disconnected += cover[1]
        self.rooms.add(room_id)

    def add(self, other: PlayerTally) -> None:
        """Merge another tally of the same player into this one."""
        self.deals += other.deals
        self.points += other.points
        self.wins += other.wins
        self.self_draws += other.self_draws
        self.dealt_in += other.dealt_in
        self.fan_sum += other.fan_sum
        self.fan_count += other.fan_count
        self.timed_out += other.timed_out
        self.disconnected += other.disconnected
        self.rooms |= other.rooms


Key = TypeVar("Key")


def _merge(mine: dict[Key, int], theirs: dict[Key, int]) -> None:
    for key, count in theirs.items():
        mine[key] = mine.get(key, 0) + count


@dataclass(slots=True)
class DealTally:
    """Deal-level figures for the charts: outcomes, winning fan, patterns, durations."""

    outcomes: dict[str, int] = field(default_factory=dict)
    fans: dict[int, int] = field(default_factory=dict)
    patterns: dict[str, int] = field(default_factory=dict)
    durations: list[int] = field(default_factory=lambda: [0] * len(DURATION_BUCKETS))

    def count_deal(
        self, outcome: str, fan: int | None, pattern_ids: list[str], bucket: int
    ) -> None:
        """One more finished deal."""
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        self.durations[bucket] += 1
        if outcome == "win":
            if fan is not None:
                self.fans[fan] = self.fans.get(fan, 0) + 1
            for pattern in pattern_ids:
                self.patterns[pattern] = self.patterns.get(pattern, 0) + 1

    def add(self, other: DealTally) -> None:
        """Merge another group of deals into this one."""
        _merge(self.outcomes, other.outcomes)
        _merge(self.fans, other.fans)
        _merge(self.patterns, other.patterns)
        for index, count in enumerate(other.durations):
            self.durations[index] += count
