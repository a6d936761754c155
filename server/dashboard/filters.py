"""The dashboard's filters (variant, room, player, date range), read from a query string.

Bad values are refused with a clear message (``FilterError`` becomes a 422) rather than
silently ignored, so a typo in a bookmarked URL never shows misleading figures.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields, replace
from datetime import UTC, date, datetime, timedelta
from typing import Annotated

from fastapi import Query
from sqlalchemy import ColumnElement, Table, exists, select, true

from server.engine.deal_result import DealOutcome
from server.store.schema import deal_players, rooms

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


# Each filter that picks rows by equality, and the column it compares. Every table the
# dashboard filters names these columns alike (`deals`, `deal_players`, the summaries);
# the dates compare `ended_at`. A table without the column cannot answer that filter.
EQUALITY_COLUMNS = {
    "variant": "variant",
    "room_id": "room_id",
    "outcome": "outcome",
    "player": "player_name",
}


@dataclass(frozen=True)
class DealFilters:
    """Which finished deals a dashboard view covers. ``until`` is exclusive.

    The one declaration of the dashboard's filters: `from_query` is every route's query
    parameters (`Depends(DealFilters.from_query)`), and `terms_on` turns them into WHERE
    terms for whichever table a view reads. `public_only` is no query parameter: it is
    set (`only_public`) for a viewer without the admin token, and keeps every view to
    the public tables' deals (docs/operations.md, "Access").
    """

    variant: str | None = None
    room_id: str | None = None
    player: str | None = None
    outcome: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    public_only: bool = False

    @classmethod
    def from_query(
        cls,
        variant: Annotated[str | None, Query(description="hk or kaki3")] = None,
        room: Annotated[str | None, Query(description="a room id")] = None,
        player: Annotated[str | None, Query(description="a player's name")] = None,
        outcome: Annotated[str | None, Query(description="win, draw or timeout")] = None,
        since: Annotated[str | None, Query(description="ISO date or datetime")] = None,
        until: Annotated[
            str | None, Query(description="ISO date (that whole day) or datetime")
        ] = None,
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

    def only_public(self) -> DealFilters:
        """The same filters over the public tables' deals alone."""
        return replace(self, public_only=True)

    def chosen(self) -> set[str]:
        """The names of the filters that are set."""
        return {
            name
            for name in (f.name for f in fields(self))
            if getattr(self, name) not in (None, False)
        }

    def terms_on(self, table: Table) -> list[ColumnElement[bool]]:
        """WHERE terms for `table`, whose columns are named as in `EQUALITY_COLUMNS` (and
        `ended_at` for the dates). On ``deals``, which has no player column, a player is
        one seated in the deal. A filter the table cannot answer raises ValueError."""
        terms: list[ColumnElement[bool]] = []
        for name, column in EQUALITY_COLUMNS.items():
            value = getattr(self, name)
            if value is None:
                continue
            if column in table.c:
                terms.append(table.c[column] == value)
            elif name == "player" and "deal_id" in table.c:
                terms.append(
                    exists(
                        select(deal_players.c.deal_id).where(
                            deal_players.c.deal_id == table.c.deal_id,
                            deal_players.c.player_name == value,
                        )
                    )
                )
            else:
                raise ValueError(f"{table.name} cannot be filtered by {name}")
        if self.public_only:
            if "room_id" not in table.c:
                raise ValueError(f"{table.name} cannot tell public tables from private ones")
            public = select(rooms.c.room_id).where(rooms.c.public == true())
            terms.append(table.c.room_id.in_(public))
        for moment, compare in ((self.since, operator.ge), (self.until, operator.lt)):
            if moment is None:
                continue
            if "ended_at" not in table.c:
                raise ValueError(f"{table.name} cannot be filtered by date")
            terms.append(compare(table.c.ended_at, moment))
        return terms

    def on_deals(self, deals: Table) -> list[ColumnElement[bool]]:
        """WHERE terms for the ``deals`` table (finished deals only)."""
        return [deals.c.ended_at.is_not(None), *self.terms_on(deals)]

    def on_deal_players(self) -> list[ColumnElement[bool]]:
        """WHERE terms for ``deal_players``, which repeats variant, room, outcome and end."""
        return self.terms_on(deal_players)
