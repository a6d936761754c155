"""Changing a ledger's hands: add, insert, edit, delete; each recomputes the whole night.

A change is worked out on the hands as read, then the whole night is reckoned again
(`reckon_night`): a hand that is not a win, or that does not fit the table, or a later
hand that no longer can be once the seats move, refuses the change (422) and nothing is
written. Otherwise the hands are written whole, with the figures the dashboard reads and
the change in the history, on the revision read (`LedgerStore.replace_hands`). When
another phone changed the ledger in between, the change is worked out again on the new
hands; a caller that said which `revision` it saw gets 409 instead, since the hand it
meant may have moved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from starlette.requests import HTTPConnection

from server.api.errors import ApiError
from server.api.ledger_access import OpenLedger, ledger_store, open_ledger
from server.api.ledger_live import ledger_watch
from server.ledger import HandEntry, LedgerError, Night, NotAWinError, reckon_night
from server.ledger.views import not_a_win_view
from server.store.ledgers import HandFigure, LedgerChange, LedgerChangedError, StoredHand

# Attempts at a change while other phones keep changing the same ledger.
CHANGE_ATTEMPTS = 5


@dataclass(frozen=True)
class HandsChange:
    """The hands after a change, what the history records of it, and the hand it is about."""

    hands: list[StoredHand]
    change: LedgerChange
    hand_no: int | None


class HandRefused(Exception):
    """A 422 with the details of why (`install` in `server.api.ledgers` answers it)."""

    def __init__(self, code: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def refusal(error: LedgerError, opened: OpenLedger) -> HandRefused:
    """The 422 for an entry that cannot be a hand, or a hand that is not a win."""
    if isinstance(error, NotAWinError):
        return HandRefused("not_a_win", str(error), not_a_win_view(opened.setup, error))
    return HandRefused("bad_hand", str(error), {"hand_no": error.hand_no})


def reckon(opened: OpenLedger, entries: Sequence[HandEntry]) -> Night:
    """The night with these hands, or the 422 of its first hand that cannot be."""
    try:
        return reckon_night(opened.setup, entries)
    except LedgerError as error:
        raise refusal(error, opened) from None


def hand_figures(night: Night, hands: Sequence[StoredHand]) -> list[HandFigure]:
    """What each hand came to per player, as the dashboard's standings count it."""
    figures = []
    for reckoned, stored in zip(night.hands, hands, strict=True):
        entry = reckoned.entry
        fans = {win.player: win.score.fan for win in reckoned.reckoning.winners}
        for player, name in enumerate(night.setup.players):
            figures.append(
                HandFigure(
                    hand_no=reckoned.hand_no,
                    player_index=player,
                    player_name=name,
                    outcome=entry.outcome,
                    ended_at=stored.entered_at,
                    net_points=reckoned.net[player],
                    won=player in fans,
                    self_drawn=player in fans and entry.self_drawn,
                    dealt_in=bool(fans) and entry.discarder == player,
                    fan=fans.get(player),
                )
            )
    return figures


async def change_hands(
    connection: HTTPConnection,
    ledger_id: str,
    invite: str | None,
    seen_revision: int | None,
    make: Callable[[OpenLedger, datetime], HandsChange],
) -> tuple[OpenLedger, Night, int, HandsChange]:
    """Work out a change with `make`, check the night, write it; (ledger, night, revision,
    change) as written."""
    for _attempt in range(CHANGE_ATTEMPTS):
        opened = await open_ledger(connection, ledger_id, invite)
        revision = opened.record.revision
        if seen_revision is not None and seen_revision != revision:
            raise _moved_on(revision)
        try:
            changed = make(opened, datetime.now(UTC))
            entries = [opened.setup.read_entry(hand.entry) for hand in changed.hands]
        except LedgerError as error:
            raise refusal(error, opened) from None
        night = reckon(opened, entries)
        try:
            written = await ledger_store(connection).replace_hands(
                ledger_id,
                revision,
                changed.hands,
                hand_figures(night, changed.hands),
                changed.change,
            )
        except LedgerChangedError:
            if seen_revision is not None:
                raise _moved_on(None) from None
            continue
        ledger_watch(connection).changed(ledger_id)
        return opened, night, written, changed
    raise ApiError(409, "ledger_busy", "the ledger kept changing under this change; try again")


def _moved_on(now: int | None) -> ApiError:
    where = f" (now at revision {now})" if now is not None else ""
    return ApiError(
        409,
        "ledger_changed",
        f"the ledger changed since it was read{where}: look at it again before changing a hand",
    )


def hand_index(opened: OpenLedger, hand_no: int) -> int:
    """The list index of hand `hand_no` (counted from 1), or 404."""
    if not 1 <= hand_no <= len(opened.record.hands):
        raise ApiError(404, "hand_not_found", f"the ledger has no hand {hand_no}")
    return hand_no - 1


def canonical(opened: OpenLedger, hand: dict[str, Any]) -> dict[str, Any]:
    """The hand as stored: read for the table, then written back in canonical form."""
    return opened.setup.read_entry(hand).to_json()
