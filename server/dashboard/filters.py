"""The dashboard's filters (variant, room, player, date range), read from a query string.

Bad values are refused with a clear message (``FilterError`` becomes a 422) rather than
silently ignored, so a typo in a bookmarked URL never shows misleading figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import ColumnElement, Table, exists, select

from server.engine.deal_result import DealOutcome
from server.store.schema import deal_players

VARIANTS = ("hk", "kaki3")
OUTCOMES = tuple(outcome.value for outcome in DealOutcome)
MAX_NAME_LENGTH = 100


class FilterError(ValueError):
    """A query parameter the dashboard cannot use; the message names it."""


def parse_moment(text: str, field: str, *, end_of_day: bool) -> datetime:
    """An ISO date or datetime as aware UTC; a bare ``until`` date covers that whole day."""
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            start = datetime(day.year, day.month, day.day, tzinfo=UTC)
            if not end_of_day:
                return start
            # Until the calendar's last day is until the end of time: there is no next day.
            return start + timedelta(days=1) if day < date.max else datetime.max.replace(tzinfo=UTC)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:  # a time zone that moves the moment past the calendar's ends
        raise FilterError(
            f"{field}: {text[:40]!r} is outside the dates this server keeps"
        ) from None
    except ValueError as error:
        raise FilterError(
            f"{field}: {text[:40]!r} is not an ISO date (YYYY-MM-DD) or datetime"
        ) from error


@dataclass(frozen=True)
class DealFilters:
    """Which finished deals a dashboard view covers. ``until`` is exclusive."""

    variant: str | None = None
    room_id: str | None = None
    player: str | None = None
    outcome: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    @classmethod
    def from_query(
        cls,
        variant: str | None = None,
        room: str | None = None,
        player: str | None = None,
        outcome: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> DealFilters:
        """Validate raw query values; empty strings mean "no filter"."""
        variant, room, player = variant or None, (room or "").strip() or None, player or None
        outcome = outcome or None
        if variant is not None and variant not in VARIANTS:
            raise FilterError(f"variant: {variant!r} is not one of {', '.join(VARIANTS)}")
        if outcome is not None and outcome not in OUTCOMES:
            raise FilterError(f"outcome: {outcome!r} is not one of {', '.join(OUTCOMES)}")
        for field, value in (("room", room), ("player", player)):
            if value is not None and len(value) > MAX_NAME_LENGTH:
                raise FilterError(f"{field}: longer than {MAX_NAME_LENGTH} characters")
            # No stored name has a control character, and Postgres refuses a NUL outright.
            if value is not None and not value.isprintable():
                raise FilterError(f"{field}: must be printable text")
        start = parse_moment(since, "since", end_of_day=False) if since else None
        end = parse_moment(until, "until", end_of_day=True) if until else None
        if start is not None and end is not None and start >= end:
            raise FilterError("since must be before until")
        return cls(variant, room, player, outcome, start, end)

    def on_deals(self, deals: Table) -> list[ColumnElement[bool]]:
        """WHERE terms for the ``deals`` table (finished deals only)."""
        terms: list[ColumnElement[bool]] = [deals.c.ended_at.is_not(None)]
        if self.variant:
            terms.append(deals.c.variant == self.variant)
        if self.room_id:
            terms.append(deals.c.room_id == self.room_id)
        if self.outcome:
            terms.append(deals.c.outcome == self.outcome)
        if self.since:
            terms.append(deals.c.ended_at >= self.since)
        if self.until:
            terms.append(deals.c.ended_at < self.until)
        if self.player:
            terms.append(
                exists(
                    select(deal_players.c.deal_id).where(
                        deal_players.c.deal_id == deals.c.deal_id,
                        deal_players.c.player_name == self.player,
                    )
                )
            )
        return terms

    def on_deal_players(self) -> list[ColumnElement[bool]]:
        """WHERE terms for ``deal_players``, which repeats variant, room, outcome and end."""
        table = deal_players
        terms: list[ColumnElement[bool]] = []
        if self.variant:
            terms.append(table.c.variant == self.variant)
        if self.room_id:
            terms.append(table.c.room_id == self.room_id)
        if self.outcome:
            terms.append(table.c.outcome == self.outcome)
        if self.since:
            terms.append(table.c.ended_at >= self.since)
        if self.until:
            terms.append(table.c.ended_at < self.until)
        if self.player:
            terms.append(table.c.player_name == self.player)
        return terms
