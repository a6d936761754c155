"""An in-memory rollup of the finished history, so standings, charts and operations answer
in milliseconds with 100,000 stored deals.

Aggregating the whole history in SQL on every request costs seconds at that size (a full
scan of ``deal_players`` and of the action log). Finished deals never change, so this
module reads them once, sums them per (player, variant, room, day) and per (variant, room,
day), and afterwards only reads the deals that finished since: deals whose id is above the
highest seen, or that were still open at the last look. That catch-up is two index
lookups, so every request sees every finished deal, with no staleness window.

Filters map onto the keys: variant, room and player exactly, dates by whole UTC days.
A request the keys cannot answer exactly (a date with a time of day, or an outcome filter)
goes to the SQL queries instead; ``can_answer`` decides. Tests check both paths agree.
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any

from sqlalchemy import Integer, Text, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.dashboard.charts import DURATION_BUCKETS, TOP_PATTERNS, seconds_between
from server.dashboard.filters import OUTCOMES, DealFilters
from server.store.schema import deal_actions, deal_players, deals

_BUCKET_UPPER_BOUNDS = tuple(upper for _, _, upper in DURATION_BUCKETS if upper is not None)

# Deals read per round trip while loading, so memory stays flat on a long history.
LOAD_BATCH = 5000


@dataclass
class PlayerTally:
    """One player's figures over one (variant, room, day)."""

    deals: int = 0
    points: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    fan_sum: int = 0
    fan_count: int = 0
    timed_out: int = 0
    disconnected: int = 0


@dataclass
class DealTally:
    """Deal-level figures (for the charts) over one (variant, room, day)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    fans: Counter[int] = field(default_factory=Counter)
    patterns: Counter[str] = field(default_factory=Counter)
    durations: list[int] = field(default_factory=lambda: [0] * len(DURATION_BUCKETS))


def duration_bucket(seconds: float) -> int:
    """The index of the duration bucket ``seconds`` falls in (as charts.py counts them)."""
    return bisect.bisect_right(_BUCKET_UPPER_BOUNDS, seconds)


def _day(moment: datetime) -> str:
    """The UTC day of a moment as ISO text, the form ``_utc_day`` reads from the database."""
    return moment.astimezone(UTC).date().isoformat()


def _utc_day(conn: AsyncConnection, moment: Any) -> Any:
    """SQL for the UTC day of a timestamp column as ``YYYY-MM-DD`` text, per dialect."""
    if conn.dialect.name == "postgresql":
        return func.to_char(func.timezone("UTC", moment), "YYYY-MM-DD")
    return func.strftime("%Y-%m-%d", moment)  # SQLite keeps the UTC time as text


def _whole_day(moment: datetime | None) -> bool:
    return moment is None or moment.astimezone(UTC).time() == time(0, 0)


class HistoryRollup:
    """The rollup of one database. ``refresh()`` before reading; it is cheap once loaded."""

    def __init__(self) -> None:
        self.players: dict[tuple[str, bool, str, str, str], PlayerTally] = {}
        # Deal tallies by (variant, room, day): under "" for every deal, and under each
        # player's name for the deals they sat in (the charts' player filter).
        self.deals: dict[str, dict[tuple[str, str, str], DealTally]] = {}
        # Answers already given since the last new deal: the same filters are asked again
        # and again (every page load), and nothing changes until a deal finishes.
        self._answers: dict[tuple[Any, ...], Any] = {}
        self.max_deal_id = 0
        self.open_deal_ids: set[int] = set()
        self.loaded = False
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ reading in

    async def refresh(self, engine: AsyncEngine) -> None:
        """Bring the rollup up to date with the database (a full load the first time)."""
        async with self._lock, engine.connect() as conn:
            new_ids = await self._finished_since(conn)
            # Many deals at once (the first load): one pass over the whole action log beats
            # reading each deal's log through the primary key.
            cover = await self._bot_cover(conn, None) if len(new_ids) > LOAD_BATCH else None
            for start in range(0, len(new_ids), LOAD_BATCH):
                await self._add_deals(conn, new_ids[start : start + LOAD_BATCH], cover)
            if new_ids:
                self._answers.clear()
            self.loaded = True

    def _remembered(self, question: tuple[Any, ...], work: Any) -> Any:
        """The answer to ``question``, computed by ``work()`` once per state of the history."""
        if question not in self._answers:
            if len(self._answers) > 256:  # many distinct filters: start over, stay small
                self._answers.clear()
            self._answers[question] = work()
        return self._answers[question]

    async def _finished_since(self, conn: AsyncConnection) -> list[int]:
        """Ids of deals finished since the last look; remembers the ones still open."""
        # A flag, not the timestamp: no per-row datetime conversion on a long history.
        is_finished = deals.c.ended_at.is_not(None)
        rows = list(
            await conn.execute(
                select(deals.c.deal_id, is_finished).where(deals.c.deal_id > self.max_deal_id)
            )
        )
        if self.open_deal_ids:
            rows += list(
                await conn.execute(
                    select(deals.c.deal_id, is_finished).where(
                        deals.c.deal_id.in_(sorted(self.open_deal_ids))
                    )
                )
            )
        finished = []
        for deal_id, ended in rows:
            self.max_deal_id = max(self.max_deal_id, deal_id)
            if not ended:
                self.open_deal_ids.add(deal_id)
            else:
                self.open_deal_ids.discard(deal_id)
                finished.append(deal_id)
        return sorted(finished)

    async def _add_deals(
        self,
        conn: AsyncConnection,
        deal_ids: list[int],
        cover: dict[tuple[int, str], tuple[int, int]] | None = None,
    ) -> None:
        """Count these finished deals into the tallies (``cover``: bot cover read already)."""
        deal_rows = {
            row.deal_id: row
            for row in await conn.execute(
                select(
                    deals.c.deal_id,
                    deals.c.variant,
                    deals.c.room_id,
                    # Day and duration computed by the database, patterns as text decoded
                    # only for wins: per-row conversions dominate a first load.
                    _utc_day(conn, deals.c.ended_at).label("day"),
                    seconds_between(conn, deals.c.started_at, deals.c.ended_at).label("seconds"),
                    deals.c.outcome,
                    deals.c.fan,
                    cast(deals.c.patterns, Text).label("patterns"),
                ).where(deals.c.deal_id.in_(deal_ids))
            )
        }
        if cover is None:
            cover = await self._bot_cover(conn, deal_ids)
        seated: dict[int, list[str]] = {}
        for row in await conn.execute(
            select(
                deal_players.c.deal_id,
                deal_players.c.player_name,
                deal_players.c.seat,
                deal_players.c.is_bot,
                deal_players.c.net_points,
                deal_players.c.won,
                deal_players.c.self_drawn,
                deal_players.c.dealt_in,
            ).where(deal_players.c.deal_id.in_(deal_ids))
        ):
            deal = deal_rows[row.deal_id]
            key = (
                row.player_name,
                bool(row.is_bot),
                deal.variant,
                deal.room_id,
                deal.day,
            )
            tally = self.players.get(key)
            if tally is None:  # not setdefault: building a tally for every row is costly
                tally = self.players[key] = PlayerTally()
            tally.deals += 1
            tally.points += int(row.net_points)
            tally.wins += int(bool(row.won))
            tally.self_draws += int(bool(row.self_drawn))
            tally.dealt_in += int(bool(row.dealt_in))
            if row.won and deal.fan is not None:
                tally.fan_sum += int(deal.fan)
                tally.fan_count += 1
            timed_out, away = cover.get((row.deal_id, row.seat), (0, 0))
            if not row.is_bot:
                tally.timed_out += timed_out
                tally.disconnected += away
            seated.setdefault(row.deal_id, []).append(row.player_name)
        for deal_id, deal in deal_rows.items():
            day = deal.day
            seconds = float(deal.seconds)
            patterns = json.loads(deal.patterns) if deal.outcome == "win" and deal.patterns else []
            for player in ["", *sorted(set(seated.get(deal_id, [])))]:
                by_day = self.deals.get(player)
                if by_day is None:
                    by_day = self.deals[player] = {}
                deal_key = (deal.variant, deal.room_id, day)
                counts = by_day.get(deal_key)
                if counts is None:
                    counts = by_day[deal_key] = DealTally()
                counts.outcomes[str(deal.outcome)] += 1
                counts.durations[duration_bucket(seconds)] += 1
                if deal.outcome == "win":
                    if deal.fan is not None:
                        counts.fans[int(deal.fan)] += 1
                    for pattern in patterns:
                        counts.patterns[str(pattern.get("id"))] += 1

    async def _bot_cover(
        self, conn: AsyncConnection, deal_ids: list[int] | None
    ) -> dict[tuple[int, str], tuple[int, int]]:
        """(turns timed out, turns while away) per (deal, seat), from the action log, for
        these deals or (None) for every deal."""
        chosen = [] if deal_ids is None else [deal_actions.c.deal_id.in_(deal_ids)]
        counted = await conn.execute(
            select(
                deal_actions.c.deal_id,
                deal_actions.c.seat,
                func.sum(cast(case((deal_actions.c.bot_reason == "timeout", 1), else_=0), Integer)),
                func.sum(
                    cast(case((deal_actions.c.bot_reason == "disconnected", 1), else_=0), Integer)
                ),
            )
            .where(
                *chosen,
                deal_actions.c.by_bot.is_(True),
                deal_actions.c.bot_reason.in_(("timeout", "disconnected")),
            )
            .group_by(deal_actions.c.deal_id, deal_actions.c.seat)
        )
        return {(deal_id, seat): (int(a or 0), int(b or 0)) for deal_id, seat, a, b in counted}

    # ------------------------------------------------------------------ answering

    @staticmethod
    def can_answer(filters: DealFilters) -> bool:
        """Whether the keys answer these filters exactly: dates on whole UTC days, and no
        outcome filter (the tallies mix outcomes)."""
        return filters.outcome is None and _whole_day(filters.since) and _whole_day(filters.until)

    @staticmethod
    def _day_matches(filters: DealFilters, day: str) -> bool:
        if filters.since is not None and day < _day(filters.since):
            return False
        return filters.until is None or day < _day(filters.until)

    def _player_tallies(
        self, filters: DealFilters
    ) -> Iterable[tuple[tuple[str, bool, str, str, str], PlayerTally]]:
        for key, tally in self.players.items():
            name, _is_bot, variant, room_id, day = key
            if filters.player is not None and name != filters.player:
                continue
            if filters.variant is not None and variant != filters.variant:
                continue
            if filters.room_id is not None and room_id != filters.room_id:
                continue
            if self._day_matches(filters, day):
                yield key, tally

    def standings(self, filters: DealFilters, include_bots: bool, limit: int) -> dict[str, Any]:
        """The same answer as ``standings.standings``."""
        return dict(
            self._remembered(
                ("standings", filters, include_bots, limit),
                lambda: self._standings(filters, include_bots, limit),
            )
        )

    def _standings(self, filters: DealFilters, include_bots: bool, limit: int) -> dict[str, Any]:
        totals: dict[tuple[str, bool], PlayerTally] = {}
        rooms: dict[tuple[str, bool], set[str]] = {}
        for (name, is_bot, _variant, room_id, _day), tally in self._player_tallies(filters):
            if is_bot and not include_bots:
                continue
            total = totals.get((name, is_bot))
            if total is None:
                total = totals[(name, is_bot)] = PlayerTally()
                rooms[(name, is_bot)] = set()
            total.deals += tally.deals
            total.points += tally.points
            total.wins += tally.wins
            total.self_draws += tally.self_draws
            total.dealt_in += tally.dealt_in
            total.fan_sum += tally.fan_sum
            total.fan_count += tally.fan_count
            rooms[(name, is_bot)].add(room_id)
        ranked = sorted(totals.items(), key=lambda item: (-item[1].points, item[0][0]))[:limit]
        return {
            "players": [
                {
                    "name": name,
                    "is_bot": is_bot,
                    "deals": total.deals,
                    "points": total.points,
                    "wins": total.wins,
                    "self_draws": total.self_draws,
                    "dealt_in": total.dealt_in,
                    "rooms": len(rooms[(name, is_bot)]),
                    "average_winning_fan": (
                        round(total.fan_sum / total.fan_count, 2) if total.fan_count else None
                    ),
                }
                for (name, is_bot), total in ranked
            ]
        }

    def _deal_tally(self, filters: DealFilters) -> DealTally:
        """The deal tallies the filters select, summed (player "" means every deal)."""
        summed = DealTally()
        durations = summed.durations
        for (variant, room_id, day), tally in self.deals.get(filters.player or "", {}).items():
            if filters.variant is not None and variant != filters.variant:
                continue
            if filters.room_id is not None and room_id != filters.room_id:
                continue
            if not self._day_matches(filters, day):
                continue
            summed.outcomes.update(tally.outcomes)
            summed.fans.update(tally.fans)
            summed.patterns.update(tally.patterns)
            for index, count in enumerate(tally.durations):
                durations[index] += count
        return summed

    def charts(self, filters: DealFilters) -> dict[str, Any]:
        """The same answer as ``charts.charts``."""
        return dict(self._remembered(("charts", filters), lambda: self._charts(filters)))

    def _charts(self, filters: DealFilters) -> dict[str, Any]:
        tally = self._deal_tally(filters)
        patterns = sorted(tally.patterns.items(), key=lambda item: (-item[1], item[0]))
        return {
            "outcomes": {outcome: tally.outcomes.get(outcome, 0) for outcome in OUTCOMES},
            "winning_fan": [
                {"fan": fan, "count": count} for fan, count in sorted(tally.fans.items())
            ],
            "patterns": [
                {"id": pattern, "count": count} for pattern, count in patterns[:TOP_PATTERNS]
            ],
            "durations": [
                {"label": label, "from": lower, "to": upper, "count": tally.durations[index]}
                for index, (label, lower, upper) in enumerate(DURATION_BUCKETS)
            ],
        }

    def bot_cover(self, filters: DealFilters) -> list[dict[str, Any]]:
        """The same answer as ``operations.bot_cover``."""
        return list(self._remembered(("bot_cover", filters), lambda: self._bot_cover_of(filters)))

    def _bot_cover_of(self, filters: DealFilters) -> list[dict[str, Any]]:
        per_player: dict[str, list[int]] = {}
        for (name, is_bot, _variant, _room, _day), tally in self._player_tallies(filters):
            if is_bot or not (tally.timed_out or tally.disconnected):
                continue
            figures = per_player.setdefault(name, [0, 0])
            figures[0] += tally.timed_out
            figures[1] += tally.disconnected
        ranked = sorted(per_player.items(), key=lambda item: (-item[1][0], item[0]))[:100]
        return [{"name": name, "timed_out": a, "disconnected": b} for name, (a, b) in ranked]

    def timeout_count(self, filters: DealFilters) -> int:
        """How many selected deals ended by the deal time limit."""
        return int(
            self._remembered(
                ("timeouts", filters),
                lambda: self._deal_tally(filters).outcomes.get("timeout", 0),
            )
        )


def rollup_of(app_state: Any) -> HistoryRollup:
    """The app's rollup, made on first use (one per app, so tests stay independent)."""
    rollup = getattr(app_state, "dashboard_rollup", None)
    if rollup is None:
        rollup = HistoryRollup()
        app_state.dashboard_rollup = rollup
    return rollup
