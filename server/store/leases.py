"""Room leases: which server process owns each open room, on a Postgres shared by several.

One row per leased room in `room_leases`: the owner's id and an expiry on the database's
own clock (`now()`), so the processes' clocks never have to agree. The owner renews its
leases; another process takes a lease only once it has expired or been handed over
(deleted by its owner). docs/scaling.md tells the whole design.

The fence: every write a room makes (`LeaseFence`, called by the store inside the write's
own transaction) first locks the room's lease row `FOR SHARE` and checks that the row still
names this process. A process taking the lease over must update that row, so it waits for
any such write to commit, and reads the room after it: a stale owner (a process that was
frozen, cut off, or came back) can never write after its successor read. The row, not the
clock, decides: a lease that expired stays its owner's until another process takes it, so
a renewal that came late (a busy database) never stops a table for nothing.

Liveness: each process holds, for its whole life, a session-level advisory lock keyed by
its owner id, on a connection of its own (`hold_liveness`). Postgres ends that session,
and so frees the lock, when the process dies, however it dies. A process asked for a room
whose owner's lock is free takes the lease at once, without waiting for it to expire. A
frozen or cut-off owner may still hold its session: for it the lease and the fence stay
as they are.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any

from sqlalchemy import and_, delete, event, func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.store import reading
from server.store.errors import DuplicateRecordError, StoreError
from server.store.outages import outages_unavailable
from server.store.records import RoomRecord
from server.store.schema import deal_actions, deals, room_leases, room_players, rooms

OPEN_STATUSES = ("waiting", "playing")
# Postgres's "lock not available": a lease row locked by a write still in progress.
LOCK_NOT_AVAILABLE = "55P03"
# The lobby lists at most this many tables (the newest).
LOBBY_LIMIT = 1000
# The liveness locks' first key ("MJLV"); the second is hashtext(owner id). The migration
# lock (server/store/server_lock.py) is a one-key lock, so the two never meet.
LIVENESS_KEY = 0x4D4A4C56
# Whether the owner named by a lease row has no liveness lock (is dead), in the statement's
# own database. A hash collision can only make a dead owner look alive: then its lease is
# waited out, as before liveness.
OWNER_GONE = text(
    "NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    f" AND classid = {LIVENESS_KEY} AND objsubid = 2"
    " AND objid = CAST(hashtext(room_leases.owner) AS oid))"
)


class LeaseLostError(StoreError):
    """This process no longer owns the room (its lease expired and another process took
    it, or it was handed over): nothing was written, and the room must stop here."""


class SequenceGapError(StoreError, ValueError):
    """An action's seq is not the next one of its deal's log (nothing was written)."""


class Claim(Enum):
    """What `RoomLeases.take` found."""

    TAKEN = "taken"  # this process owns the room now
    ELSEWHERE = "elsewhere"  # another process holds a live lease
    NO_ROOM = "no_room"  # no such room in the database


@dataclass(frozen=True)
class Renewal:
    """The answer of one renewal round."""

    kept: frozenset[str]  # still ours, for another lease period
    lost: frozenset[str]  # another process took them: stop them without writing
    wanted: frozenset[str]  # ours, but another process asks for them: hand them over


class RoomLeases:
    """This process's side of the leases, on the store's engine (Postgres only)."""

    def __init__(self, engine: AsyncEngine, owner: str, seconds: float) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("room leases need Postgres: a SQLite file serves one process")
        self.engine = engine
        self.owner = owner
        self.period = timedelta(seconds=seconds)
        # A process frozen (or cut off) inside a transaction would hold its lease rows'
        # locks, and so block every takeover, for as long as it stays away: Postgres ends
        # such a transaction after a lease period (none of ours idles for a fraction of it).
        idle_ms = max(1000, int(seconds * 1000))
        event.listen(engine.sync_engine, "connect", _idle_limit(idle_ms))
        self._liveness: AsyncConnection | None = None

    async def hold_liveness(self) -> None:
        """Hold this process's liveness lock (module docstring) on a connection of its own,
        until `drop_liveness` or the process's end. Called again, it checks the connection
        and takes the lock anew if the session was lost (Postgres restarted meanwhile)."""
        if self._liveness is not None:
            try:
                await self._liveness.execute(text("SELECT 1"))
                return
            except Exception:  # the session is gone, and its lock with it
                await self.drop_liveness()
        connection = await self.engine.connect()
        try:
            # Autocommit: a session lock outlives transactions, and an idle transaction
            # would be ended by the idle limit above.
            connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            await connection.execute(
                text("SELECT pg_advisory_lock(:key, hashtext(:owner))"),
                {"key": LIVENESS_KEY, "owner": self.owner},
            )
        except BaseException:
            await connection.close()
            raise
        self._liveness = connection

    async def drop_liveness(self) -> None:
        """Give the liveness lock back (at shutdown, after the leases were handed over)."""
        connection, self._liveness = self._liveness, None
        if connection is not None:
            # Invalidated, not returned to the pool: its session ends, and the lock with
            # it (a lost session holds none).
            with contextlib.suppress(Exception):
                await connection.invalidate()
            with contextlib.suppress(Exception):
                await connection.close()

    @outages_unavailable
    async def take(self, room_id: str) -> Claim:
        """Own `room_id` for a lease period, if nobody else holds a live lease on it: a
        lease is taken once it expired, or at once if its owner's liveness lock is free."""
        expires = func.now() + self.period
        statement = (
            insert(room_leases)
            .values(room_id=room_id, owner=self.owner, expires_at=expires, wanted_by=None)
            .on_conflict_do_update(
                index_elements=[room_leases.c.room_id],
                set_={"owner": self.owner, "expires_at": expires, "wanted_by": None},
                where=or_(
                    room_leases.c.owner == self.owner,
                    room_leases.c.expires_at <= func.now(),
                    OWNER_GONE,
                ),
            )
            .returning(room_leases.c.owner)
        )
        try:
            async with self.engine.begin() as conn:
                # The owner may be writing (its row is locked): "elsewhere", not a wait.
                await conn.execute(text("SET LOCAL lock_timeout = '1s'"))
                taken = (await conn.execute(statement)).one_or_none()
        except IntegrityError:  # the foreign key: no such room
            return Claim.NO_ROOM
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise
            return Claim.ELSEWHERE
        return Claim.TAKEN if taken is not None else Claim.ELSEWHERE

    @outages_unavailable
    async def ask_for(self, room_id: str) -> None:
        """Ask the room's owner to hand it over to this process (the proxy routes it here)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(room_leases)
                .where(room_leases.c.room_id == room_id, room_leases.c.owner != self.owner)
                .values(wanted_by=self.owner)
            )

    @outages_unavailable
    async def renew(self, live: dict[str, dict[str, Any]]) -> Renewal:
        """Extend the leases of the rooms in `live` (room id -> its snapshot as JSON, kept
        for the dashboard's live view of every process)."""
        if not live:
            return Renewal(frozenset(), frozenset(), frozenset())
        expires = func.now() + self.period
        kept: set[str] = set()
        wanted: set[str] = set()
        async with self.engine.begin() as conn:
            for room_id, snapshot in live.items():
                row = (
                    await conn.execute(
                        update(room_leases)
                        .where(room_leases.c.room_id == room_id)
                        .where(room_leases.c.owner == self.owner)
                        .values(expires_at=expires, live=snapshot)
                        .returning(room_leases.c.wanted_by)
                    )
                ).one_or_none()
                if row is not None:
                    kept.add(room_id)
                    if row.wanted_by is not None:
                        wanted.add(room_id)
        return Renewal(frozenset(kept), frozenset(set(live) - kept), frozenset(wanted))

    @outages_unavailable
    async def release(self, room_ids: Iterable[str]) -> None:
        """Hand these rooms over: whoever asks next takes them at once."""
        ids = list(room_ids)
        if not ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(room_leases).where(
                    room_leases.c.room_id.in_(ids), room_leases.c.owner == self.owner
                )
            )

    @outages_unavailable
    async def open_room(self, room_id: str) -> RoomRecord | None:
        """The room as the store has it, if it is still open (read after taking its lease)."""
        async with self.engine.connect() as conn:
            found = await reading.open_rooms(conn, room_id)
        return found[0] if found else None

    @outages_unavailable
    async def orphans(self, limit: int = 20) -> list[str]:
        """Open rooms nobody owns and nobody asked for: a playing room without a lease (the
        whole hall restarted), or one whose lease expired a whole period ago (its owner
        died and no player came back through the proxy). Some process must play them on."""
        stale = func.now() - self.period
        query = (
            select(rooms.c.room_id)
            .select_from(rooms.outerjoin(room_leases, room_leases.c.room_id == rooms.c.room_id))
            .where(rooms.c.status.in_(OPEN_STATUSES))
            .where(
                or_(
                    and_(room_leases.c.room_id.is_(None), rooms.c.status == "playing"),
                    room_leases.c.expires_at < stale,
                )
            )
            .order_by(rooms.c.created_at)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [row.room_id for row in await conn.execute(query)]

    @outages_unavailable
    async def live_snapshots(self) -> list[dict[str, Any]]:
        """Every live lease's last snapshot: the open rooms of every process."""
        query = select(room_leases.c.live).where(
            room_leases.c.expires_at > func.now(), room_leases.c.live.is_not(None)
        )
        async with self.engine.connect() as conn:
            return [dict(row.live) for row in await conn.execute(query)]

    @outages_unavailable
    async def open_tables(self) -> list[tuple[Any, list[str]]]:
        """The lobby of every process: public waiting and playing rooms, newest first, each
        with its seated names in player order (from the tables, not from any one memory)."""
        async with self.engine.connect() as conn:
            found = list(
                await conn.execute(
                    select(rooms)
                    .where(rooms.c.status.in_(OPEN_STATUSES), rooms.c.public.is_(True))
                    .order_by(rooms.c.created_at.desc(), rooms.c.room_id)
                    .limit(LOBBY_LIMIT)
                )
            )
            names: dict[str, list[str]] = {room.room_id: [] for room in found}
            if found:
                for row in await conn.execute(
                    select(room_players.c.room_id, room_players.c.name)
                    .where(room_players.c.room_id.in_(list(names)))
                    .order_by(room_players.c.room_id, room_players.c.player_index)
                ):
                    names[row.room_id].append(row.name)
        return [(room, names[room.room_id]) for room in found]


def _idle_limit(milliseconds: int) -> Any:
    """A pool `connect` listener: end this session's transactions left idle that long."""

    def limit(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"SET idle_in_transaction_session_timeout = {int(milliseconds)}")
        cursor.close()

    return limit


class LeaseFence:
    """The check every write of a room makes inside its own transaction (module docstring)."""

    def __init__(self, owner: str) -> None:
        self.owner = owner

    async def hold_room(self, conn: AsyncConnection, room_id: str) -> None:
        """Lock the room's lease row for this transaction, or raise `LeaseLostError`."""
        held = await conn.scalar(
            select(room_leases.c.room_id)
            .where(room_leases.c.room_id == room_id)
            .where(room_leases.c.owner == self.owner)
            .with_for_update(read=True)
        )
        if held is None:
            raise LeaseLostError(f"this process no longer owns room {room_id!r}")

    async def hold_deal(self, conn: AsyncConnection, deal_id: int) -> None:
        """`hold_room` for the room of deal `deal_id`."""
        room_id = await conn.scalar(select(deals.c.room_id).where(deals.c.deal_id == deal_id))
        if room_id is not None:  # an unknown deal: the write itself says so
            await self.hold_room(conn, room_id)

    async def refusals(
        self, conn: AsyncConnection, rows: Sequence[dict[str, Any]]
    ) -> dict[int, StoreError]:
        """For a batch of action rows (by index): those that must not be written, because
        their room is not ours or their seq is not the next of their deal's log. Locks the
        lease rows of the others for this transaction."""
        deal_ids = sorted({int(row["deal_id"]) for row in rows})
        held = set(
            await conn.scalars(
                select(deals.c.deal_id)
                .join(room_leases, room_leases.c.room_id == deals.c.room_id)
                .where(deals.c.deal_id.in_(deal_ids))
                .where(room_leases.c.owner == self.owner)
                .with_for_update(read=True, of=room_leases)
            )
        )
        last = {
            int(row.deal_id): int(row.last)
            for row in await conn.execute(
                select(deal_actions.c.deal_id, func.max(deal_actions.c.seq).label("last"))
                .where(deal_actions.c.deal_id.in_(deal_ids))
                .group_by(deal_actions.c.deal_id)
            )
        }
        refused: dict[int, StoreError] = {}
        for index, row in enumerate(rows):
            deal_id, seq = int(row["deal_id"]), int(row["seq"])
            expected = last.get(deal_id, 0) + 1
            if deal_id not in held:
                refused[index] = LeaseLostError(
                    f"this process no longer owns the room of deal {deal_id}"
                )
            elif seq < expected:
                refused[index] = DuplicateRecordError(f"deal {deal_id} already has seq {seq}")
            elif seq > expected:
                refused[index] = SequenceGapError(
                    f"deal {deal_id}: seq {seq} is not the next one ({expected})"
                )
            else:
                last[deal_id] = seq
        return refused
