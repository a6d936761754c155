"""Storing ledgers (docs/ledger.md): a night's setup, its hands, its history, its figures.

`LedgerStore` writes through the store's own transactions (on SQLite, in turn with the
rooms' writes). Every change of a ledger is one transaction that moves its `revision` on
from the one the caller read: the hands are written whole, the figures with them, and the
change is added to the history. A caller that read an older revision gets
`LedgerChangedError` and nothing is written, so two phones entering hands at once never
lose one (the API reads again and retries; docs/protocol.md, "Ledgers").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.errors import DuplicateRecordError, StoreError
from server.store.ledger_schema import ledger_changes, ledger_figures, ledger_hands, ledgers
from server.store.outages import outages_unavailable
from server.store.store import Store
from server.store.write_checks import check_moment


class UnknownLedgerError(StoreError, LookupError):
    """The id names no stored ledger."""


class LedgerChangedError(StoreError):
    """The ledger moved on since the caller read it; nothing was written."""


@dataclass(frozen=True)
class NewLedger:
    """A ledger as it is opened (the secrets only as their hashes)."""

    ledger_id: str
    variant: str
    name: str
    players: tuple[str, ...]
    rules: dict[str, Any] | None
    round_wind: str
    point_value: dict[str, Any]
    invite_hash: str
    host_hash: str
    in_standings: bool
    created_at: datetime


@dataclass(frozen=True)
class StoredHand:
    """A hand as entered (`HandEntry.to_json`), when and by whom."""

    entry: dict[str, Any]
    entered_at: datetime
    entered_by: str | None


@dataclass(frozen=True)
class LedgerRecord:
    """A stored ledger and its hands in order."""

    ledger: NewLedger
    revision: int
    updated_at: datetime
    hands: tuple[StoredHand, ...]


@dataclass(frozen=True)
class LedgerChange:
    """One change of the history: what was done, to which hand, by whom and when."""

    action: str
    at: datetime
    by: str | None
    hand_no: int | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None

    def to_json(self, change_no: int) -> dict[str, Any]:
        """The history entry of docs/protocol.md, "Ledgers"."""
        return {
            "change_no": change_no,
            "action": self.action,
            "at": int(self.at.timestamp() * 1000),
            "by": self.by,
            "hand_no": self.hand_no,
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class HandFigure:
    """What one hand came to for one player, for the dashboard's standings."""

    hand_no: int
    player_index: int
    player_name: str
    outcome: str
    ended_at: datetime
    net_points: int
    won: bool
    self_drawn: bool
    dealt_in: bool
    fan: int | None


class LedgerStore:
    """The ledgers' reads and writes on one `Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @outages_unavailable
    async def create(self, ledger: NewLedger, change: LedgerChange) -> None:
        """Store a new ledger (revision 0) and the change that opened it."""
        check_moment(ledger.created_at)
        try:
            async with self.store.writing() as conn:
                await conn.execute(
                    ledgers.insert().values(
                        **{name: getattr(ledger, name) for name in _LEDGER_FIELDS},
                        players=list(ledger.players),
                        revision=0,
                        updated_at=ledger.created_at,
                    )
                )
                await _add_change(conn, ledger.ledger_id, change)
        except IntegrityError as error:
            raise DuplicateRecordError(f"ledger {ledger.ledger_id!r} already exists") from error

    @outages_unavailable
    async def read(self, ledger_id: str) -> LedgerRecord | None:
        """The ledger and its hands, or None for an unknown id."""
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(select(ledgers).where(ledgers.c.ledger_id == ledger_id))
            ).one_or_none()
            if row is None:
                return None
            hands = await conn.execute(
                select(ledger_hands.c.entry, ledger_hands.c.entered_at, ledger_hands.c.entered_by)
                .where(ledger_hands.c.ledger_id == ledger_id)
                .order_by(ledger_hands.c.hand_no)
            )
            stored = tuple(StoredHand(dict(h.entry), h.entered_at, h.entered_by) for h in hands)
        ledger = NewLedger(
            **{name: getattr(row, name) for name in _LEDGER_FIELDS},
            players=tuple(row.players),
        )
        return LedgerRecord(ledger, int(row.revision), row.updated_at, stored)

    @outages_unavailable
    async def revision(self, ledger_id: str) -> int | None:
        """The ledger's revision now (None: no such ledger), for the live updates."""
        async with self.store.engine.connect() as conn:
            found = await conn.scalar(
                select(ledgers.c.revision).where(ledgers.c.ledger_id == ledger_id)
            )
        return None if found is None else int(found)

    @outages_unavailable
    async def replace_hands(
        self,
        ledger_id: str,
        seen_revision: int,
        hands: Sequence[StoredHand],
        figures: Sequence[HandFigure],
        change: LedgerChange,
    ) -> int:
        """Write the ledger's hands and figures whole, with `change`; the new revision.

        `LedgerChangedError` when the ledger is no longer at `seen_revision`.
        """
        check_moment(change.at)
        async with self.store.writing() as conn:
            revision = await _move_on(conn, ledger_id, seen_revision, change.at)
            where = ledger_hands.c.ledger_id == ledger_id
            await conn.execute(ledger_hands.delete().where(where))
            if hands:
                await conn.execute(
                    ledger_hands.insert(),
                    [
                        {
                            "ledger_id": ledger_id,
                            "hand_no": number,
                            "entry": hand.entry,
                            "entered_at": hand.entered_at,
                            "entered_by": hand.entered_by,
                        }
                        for number, hand in enumerate(hands, 1)
                    ],
                )
            await conn.execute(
                ledger_figures.delete().where(ledger_figures.c.ledger_id == ledger_id)
            )
            if figures:
                variant = await conn.scalar(
                    select(ledgers.c.variant).where(ledgers.c.ledger_id == ledger_id)
                )
                await conn.execute(
                    ledger_figures.insert(),
                    [
                        {"ledger_id": ledger_id, "variant": variant, **asdict(figure)}
                        for figure in figures
                    ],
                )
            await _add_change(conn, ledger_id, change)
        return revision

    @outages_unavailable
    async def set_in_standings(
        self, ledger_id: str, seen_revision: int, in_standings: bool, change: LedgerChange
    ) -> int:
        """Let the ledger's figures join the dashboard's standings, or keep them apart."""
        check_moment(change.at)
        async with self.store.writing() as conn:
            revision = await _move_on(conn, ledger_id, seen_revision, change.at)
            await conn.execute(
                ledgers.update()
                .where(ledgers.c.ledger_id == ledger_id)
                .values(in_standings=in_standings)
            )
            await _add_change(conn, ledger_id, change)
        return revision

    @outages_unavailable
    async def history(self, ledger_id: str) -> list[dict[str, Any]]:
        """Every change of the ledger, oldest first, as docs/protocol.md shows them."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(ledger_changes)
                .where(ledger_changes.c.ledger_id == ledger_id)
                .order_by(ledger_changes.c.change_no)
            )
            return [
                LedgerChange(
                    row.action, row.at, row.by, row.hand_no, row.before, row.after
                ).to_json(int(row.change_no))
                for row in rows
            ]


_LEDGER_FIELDS = (
    "ledger_id",
    "variant",
    "name",
    "rules",
    "round_wind",
    "point_value",
    "invite_hash",
    "host_hash",
    "in_standings",
    "created_at",
)


async def _move_on(conn: AsyncConnection, ledger_id: str, seen: int, at: datetime) -> int:
    """Move the ledger from revision `seen` to the next, or refuse: it moved, or is unknown."""
    moved = await conn.execute(
        ledgers.update()
        .where(ledgers.c.ledger_id == ledger_id, ledgers.c.revision == seen)
        .values(revision=seen + 1, updated_at=at)
    )
    if moved.rowcount == 1:
        return seen + 1
    now = await conn.scalar(select(ledgers.c.revision).where(ledgers.c.ledger_id == ledger_id))
    if now is None:
        raise UnknownLedgerError(f"no ledger {ledger_id!r}")
    raise LedgerChangedError(f"ledger {ledger_id!r} is at revision {now}, not {seen}")


async def _add_change(conn: AsyncConnection, ledger_id: str, change: LedgerChange) -> None:
    last = await conn.scalar(
        select(func.max(ledger_changes.c.change_no)).where(ledger_changes.c.ledger_id == ledger_id)
    )
    await conn.execute(
        ledger_changes.insert().values(
            ledger_id=ledger_id,
            change_no=int(last or 0) + 1,
            at=change.at,
            by=change.by,
            action=change.action,
            hand_no=change.hand_no,
            before=change.before,
            after=change.after,
        )
    )
