"""Reaching a ledger: its id, its invite secret, its host's secret, and reading it.

Like a private table (docs/protocol.md, "Private tables"), a ledger is reached only with
its invite: the secret rides in the fragment of its link, and the server keeps only its
SHA-256, compared in constant time. The host (who opened it) also holds a secret of their
own, needed to let the night's figures join the dashboard's standings.
"""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from server.api.errors import ApiError
from server.api.room_access import presented_token
from server.engine.settle_up import PointValue
from server.ledger import HandEntry, LedgerError, LedgerSetup, Night, reckon_night
from server.ledger.views import night_view
from server.store import hash_token
from server.store.ledgers import LedgerRecord, LedgerStore

# Ledger ids are `secrets.token_urlsafe(9)`, like room ids.
LEDGER_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
INVITE_REQUIRED = "this ledger is private: open it with its invite link"
HOST_ONLY = "only the host who opened this ledger may do that"


def new_ledger_id() -> str:
    """A fresh, unguessable ledger id."""
    return secrets.token_urlsafe(9)


def new_secret() -> str:
    """A fresh secret (an invite or the host's): 192 bits, URL-safe."""
    return secrets.token_urlsafe(24)


def secret_matches(given: str | None, stored_hash: str) -> bool:
    """Whether `given` is the secret whose hash is stored (in constant time)."""
    if not given:
        return False
    return hmac.compare_digest(hash_token(given), stored_hash)


def ledger_store(connection: HTTPConnection) -> LedgerStore:
    """The ledgers' store on the app's store."""
    return LedgerStore(connection.app.state.store)


@dataclass(frozen=True)
class OpenLedger:
    """A ledger as read for one request: the record and its setup."""

    record: LedgerRecord
    setup: LedgerSetup

    @property
    def entries(self) -> list[HandEntry]:
        """The stored hands, read again for the table."""
        return [self.setup.read_entry(hand.entry) for hand in self.record.hands]

    @property
    def point_value(self) -> PointValue:
        """What a point is worth at the settle-up."""
        return PointValue.from_json(self.record.ledger.point_value)


async def open_ledger(connection: HTTPConnection, ledger_id: str, invite: str | None) -> OpenLedger:
    """The ledger, if it exists (404) and `invite` is its secret (403)."""
    record = (
        await ledger_store(connection).read(ledger_id) if LEDGER_ID.fullmatch(ledger_id) else None
    )
    if record is None:
        raise ApiError(404, "ledger_not_found", f"no ledger {ledger_id[:64]!r}")
    if not secret_matches(invite, record.ledger.invite_hash):
        raise ApiError(403, "invite_required", INVITE_REQUIRED)
    ledger = record.ledger
    setup = LedgerSetup.checked(ledger.variant, ledger.players, ledger.rules, ledger.round_wind)
    return OpenLedger(record, setup)


def require_host(connection: HTTPConnection, opened: OpenLedger) -> None:
    """Refuse (403) unless the request carries the host's secret as its bearer token."""
    if not secret_matches(presented_token(connection), opened.record.ledger.host_hash):
        raise ApiError(403, "host_only", HOST_ONLY)


def stored_night(opened: OpenLedger) -> tuple[Night, dict[str, Any] | None]:
    """The night of the stored hands, and what stops it short, if anything.

    Every stored hand was reckoned when it was written; should one no longer be (a later
    version of the engine scores differently), the night stops before it and says so,
    rather than the whole ledger becoming unreadable.
    """
    entries = opened.entries
    try:
        return reckon_night(opened.setup, entries), None
    except LedgerError as error:
        stop = (error.hand_no or 1) - 1
        short = {"hand_no": stop + 1, "message": str(error)}
        return reckon_night(opened.setup, entries[:stop]), short


def ledger_json(opened: OpenLedger) -> dict[str, Any]:
    """The whole ledger as `GET /api/ledgers/{id}` answers it."""
    record = opened.record
    ledger = record.ledger
    night, short = stored_night(opened)
    view = {
        "ledger_id": ledger.ledger_id,
        "name": ledger.name,
        "revision": record.revision,
        "created_at": int(ledger.created_at.timestamp() * 1000),
        "updated_at": int(record.updated_at.timestamp() * 1000),
        "point_value": ledger.point_value,
        "in_standings": ledger.in_standings,
        **night_view(night),
    }
    for reckoned, stored in zip(view["hands"], record.hands, strict=False):
        reckoned["entered_at"] = int(stored.entered_at.timestamp() * 1000)
        reckoned["entered_by"] = stored.entered_by
    if short is not None:
        view["stopped"] = short
    return view


async def ledger_view(
    connection: HTTPConnection,
    ledger_id: str,
    invite: str | None,
    unless_revision: int | None = None,
) -> dict[str, Any] | None:
    """The ledger's JSON (404, 403 as `open_ledger`); None when it is still at
    `unless_revision` (one small query instead of reading it all)."""
    if unless_revision is not None:
        now = await ledger_store(connection).revision(ledger_id)
        if now == unless_revision:
            return None
    return ledger_json(await open_ledger(connection, ledger_id, invite))
