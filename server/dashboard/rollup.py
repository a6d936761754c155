"""An in-memory rollup of the finished history, so standings, charts and operations answer
in milliseconds with 100,000 stored deals.

Aggregating the whole history in SQL on every request costs seconds at that size (a full
scan of ``deal_players`` and of the action log). Finished deals never change, so this
module reads them once and sums them twice over: per (variant, room, UTC day), for the
filtered views, and per variant, for the views over all time (the default page). It then
only reads the deals that finished since: deals whose id is above the highest seen, or
that were still open at the last look. That catch-up is two index lookups, so every
request sees every finished deal, with no staleness window.

Filters map onto the keys: variant, room and player exactly, dates by whole UTC days.
A request the keys cannot answer exactly (a date with a time of day, or an outcome filter)
goes to the SQL queries instead; ``can_answer`` decides. Tests check both paths agree.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from sqlalchemy import Integer, Text, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.dashboard.charts import DURATION_BUCKETS, TOP_PATTERNS, seconds_between
from server.dashboard.filters import OUTCOMES, DealFilters
from server.dashboard.tallies import (
    DealTally,
    PlayerTally,
    duration_bucket,
    iso_day,
    utc_day,
    whole_day,
)
from server.store.schema import deal_actions, deal_players, deals

# Deals read per round trip while loading, so memory stays flat on a long history.
LOAD_BATCH = 2000
# The first load shares the event loop with the live tables: it hands the loop back
# every this many rows, so no table waits on it for more than a moment.
ROWS_BETWEEN_YIELDS = 250
EVERYONE = ""  # the player key of deal tallies over every deal

PlayerDayKey = tuple[str, bool, str, str, str]  # name, is_bot, variant, room, day
DealDayKey = tuple[str, str, str]  # variant, room, day


Key = TypeVar("Key")
Tally = TypeVar("Tally")


def _tally_at(tallies: dict[Key, Tally], key: Key, make: Callable[[], Tally]) -> Tally:
    """The tally under ``key``, made when missing (not setdefault: building a tally for
    every row would cost more than the counting)."""
    found = tallies.get(key)
    if found is None:
        found = tallies[key] = make()
    return found


class HistoryRollup:
    """The rollup of one database. ``refresh()`` before reading; it is cheap once loaded."""

    def __init__(self) -> None:
        self.player_days: dict[PlayerDayKey, PlayerTally] = {}
        self.player_totals: dict[tuple[str, bool, str], PlayerTally] = {}
        # Deal tallies under EVERYONE for every deal, and under each player's name for
        # the deals they sat in (the charts' player filter).
        self.deal_days: dict[str, dict[DealDayKey, DealTally]] = {}
        self.deal_totals: dict[str, dict[str, DealTally]] = {}
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
        # Day and duration computed by the database, patterns as text decoded only for
        # wins: per-row conversions dominate a first load.
        deal_rows = {
            row.deal_id: row
            for row in await conn.execute(
                select(
                    deals.c.deal_id,
                    deals.c.variant,
                    deals.c.room_id,
                    utc_day(conn, deals.c.ended_at).label("day"),
                    seconds_between(conn, deals.c.started_at, deals.c.ended_at).label("seconds"),
                    deals.c.outcome,
                    deals.c.fan,
                    cast(deals.c.patterns, Text).label("patterns"),
                ).where(deals.c.deal_id.in_(deal_ids))
            )
        }
        if cover is None:
            cover = await self._bot_cover(conn, deal_ids)
        seated: dict[int, set[str]] = {}
        player_rows = await conn.execute(
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
        )
        for number, row in enumerate(player_rows):
            if number % ROWS_BETWEEN_YIELDS == 0:
                await asyncio.sleep(0)
            deal = deal_rows[row.deal_id]
            is_bot = bool(row.is_bot)
            # Bots are never "covered by a bot": only humans' cover is counted.
            covered = (0, 0) if is_bot else cover.get((row.deal_id, row.seat), (0, 0))
            day_key = (row.player_name, is_bot, deal.variant, deal.room_id, deal.day)
            total_key = (row.player_name, is_bot, deal.variant)
            for tally in (
                _tally_at(self.player_days, day_key, PlayerTally),
                _tally_at(self.player_totals, total_key, PlayerTally),
            ):
                tally.count_deal(
                    deal.room_id,
                    int(row.net_points),
                    bool(row.won),
                    bool(row.self_drawn),
                    bool(row.dealt_in),
                    None if deal.fan is None else int(deal.fan),
                    covered,
                )
            seated.setdefault(row.deal_id, set()).add(row.player_name)
        for number, (deal_id, deal) in enumerate(deal_rows.items()):
            if number % ROWS_BETWEEN_YIELDS == 0:
                await asyncio.sleep(0)
            won = deal.outcome == "win" and deal.patterns
            pattern_ids = [str(p.get("id")) for p in json.loads(deal.patterns)] if won else []
            bucket = duration_bucket(float(deal.seconds))
            fan = None if deal.fan is None else int(deal.fan)
            for player in (EVERYONE, *seated.get(deal_id, ())):
                by_day = self.deal_days.setdefault(player, {})
                by_variant = self.deal_totals.setdefault(player, {})
                deal_key: DealDayKey = (deal.variant, deal.room_id, deal.day)
                for counts in (
                    _tally_at(by_day, deal_key, DealTally),
                    _tally_at(by_variant, deal.variant, DealTally),
                ):
                    counts.count_deal(str(deal.outcome), fan, pattern_ids, bucket)

    async def _bot_cover(
        self, conn: AsyncConnection, deal_ids: list[int] | None
    ) -> dict[tuple[int, str], tuple[int, int]]:
        """(turns timed out, turns while away) per (deal, seat), from the action log, for
        these deals or (None) for every deal."""
        chosen = [] if deal_ids is None else [deal_actions.c.deal_id.in_(deal_ids)]
        reason = deal_actions.c.bot_reason
        counted = await conn.execute(
            select(
                deal_actions.c.deal_id,
                deal_actions.c.seat,
                func.sum(cast(case((reason == "timeout", 1), else_=0), Integer)),
                func.sum(cast(case((reason == "disconnected", 1), else_=0), Integer)),
            )
            .where(
                *chosen,
                deal_actions.c.by_bot.is_(True),
                reason.in_(("timeout", "disconnected")),
            )
            .group_by(deal_actions.c.deal_id, deal_actions.c.seat)
        )
        found: dict[tuple[int, str], tuple[int, int]] = {}
        for number, (deal_id, seat, timed_out, away) in enumerate(counted):
            if number % ROWS_BETWEEN_YIELDS == 0:
                await asyncio.sleep(0)
            found[(deal_id, seat)] = (int(timed_out or 0), int(away or 0))
        return found

    # ------------------------------------------------------------------ choosing tallies

    @staticmethod
    def can_answer(filters: DealFilters) -> bool:
        """Whether the keys answer these filters exactly: dates on whole UTC days, and no
        outcome filter (the tallies mix outcomes)."""
        return filters.outcome is None and whole_day(filters.since) and whole_day(filters.until)

    @staticmethod
    def _all_time(filters: DealFilters) -> bool:
        """Whether the per-variant totals answer (no room and no dates)."""
        return filters.room_id is None and filters.since is None and filters.until is None

    @staticmethod
    def _day_matches(filters: DealFilters, day: str) -> bool:
        if filters.since is not None and day < iso_day(filters.since):
            return False
        return filters.until is None or day < iso_day(filters.until)

    def _player_tallies(self, filters: DealFilters) -> Iterable[tuple[str, bool, PlayerTally]]:
        """(name, is_bot, tally) of every tally the filters select."""
        if self._all_time(filters):
            for (name, is_bot, variant), tally in self.player_totals.items():
                if filters.player is not None and name != filters.player:
                    continue
                if filters.variant is None or variant == filters.variant:
                    yield name, is_bot, tally
            return
        for (name, is_bot, variant, room_id, day), tally in self.player_days.items():
            if filters.player is not None and name != filters.player:
                continue
            if filters.variant is not None and variant != filters.variant:
                continue
            if filters.room_id is not None and room_id != filters.room_id:
                continue
            if self._day_matches(filters, day):
                yield name, is_bot, tally

    def _deal_tallies(self, filters: DealFilters) -> Iterable[DealTally]:
        """Every deal tally the filters select."""
        player = filters.player or EVERYONE
        if self._all_time(filters):
            for variant, tally in self.deal_totals.get(player, {}).items():
                if filters.variant is None or variant == filters.variant:
                    yield tally
            return
        for (variant, room_id, day), tally in self.deal_days.get(player, {}).items():
            if filters.variant is not None and variant != filters.variant:
                continue
            if filters.room_id is not None and room_id != filters.room_id:
                continue
            if self._day_matches(filters, day):
                yield tally

    def _remembered(self, question: tuple[Any, ...], work: Callable[[], Any]) -> Any:
        """The answer to ``question``, computed by ``work()`` once per state of the history."""
        if question not in self._answers:
            if len(self._answers) > 256:  # many distinct filters: start over, stay small
                self._answers.clear()
            self._answers[question] = work()
        return self._answers[question]

    # ------------------------------------------------------------------ answering

    def standings(self, filters: DealFilters, include_bots: bool, limit: int) -> dict[str, Any]:
        """The same answer as ``standings.standings``."""
        question = ("standings", filters, include_bots, limit)
        return dict(
            self._remembered(question, lambda: self._standings(filters, include_bots, limit))
        )

    def _standings(self, filters: DealFilters, include_bots: bool, limit: int) -> dict[str, Any]:
        totals: dict[tuple[str, bool], PlayerTally] = {}
        for name, is_bot, tally in self._player_tallies(filters):
            if is_bot and not include_bots:
                continue
            total = totals.get((name, is_bot))
            if total is None:
                total = totals[(name, is_bot)] = PlayerTally()
            total.add(tally)
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
                    "rooms": len(total.rooms),
                    "average_winning_fan": (
                        round(total.fan_sum / total.fan_count, 2) if total.fan_count else None
                    ),
                }
                for (name, is_bot), total in ranked
            ]
        }

    def charts(self, filters: DealFilters) -> dict[str, Any]:
        """The same answer as ``charts.charts``."""
        return dict(self._remembered(("charts", filters), lambda: self._charts(filters)))

    def _charts(self, filters: DealFilters) -> dict[str, Any]:
        tally = DealTally()
        for part in self._deal_tallies(filters):
            tally.add(part)
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
        for name, is_bot, tally in self._player_tallies(filters):
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
                lambda: sum(t.outcomes.get("timeout", 0) for t in self._deal_tallies(filters)),
            )
        )


def rollup_of(app_state: Any) -> HistoryRollup:
    """The app's rollup, made on first use (one per app, so tests stay independent)."""
    rollup = getattr(app_state, "dashboard_rollup", None)
    if rollup is None:
        rollup = HistoryRollup()
        app_state.dashboard_rollup = rollup
    return rollup
