"""The `Store`: every write the rooms make, and the reads that rebuild them after a restart.

One `Store` per process, shared by every room. It is safe to call from many tasks at once:
- SQLite allows one writer, so writes queue on an asyncio lock (plus WAL and a busy
  timeout for any other process touching the file); reads run alongside.
- Postgres takes writes from a connection pool; each call is its own transaction.

`append_action` is the hot path (the server persists every action before broadcasting it):
no reads, and concurrent appends share one INSERT and one commit (`action_log`).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.store import host_events, reading, settling, table_log, write_checks
from server.store.action_log import ActionLogWriter
from server.store.database import create_engine_for, resolve_database_url
from server.store.errors import (
    DuplicateRecordError,
    UnknownRoomError,
)
from server.store.finishing import record_finished_deal
from server.store.leases import LeaseFence
from server.store.outages import outages_unavailable, reaching_database
from server.store.records import RoomAccessRecord, RoomRecord
from server.store.schema import (
    deals,
    room_players,
    rooms,
    store_heartbeat,
)
from server.store.sqlite_log import SqliteBatchInsert, sqlite_file

# The statements every deal runs, built once: building one per deal costs CPU, and a
# comparison's bound parameter is a small reference cycle for the collector to find.
_ROOM_EXISTS = select(rooms.c.room_id).where(rooms.c.room_id == bindparam("room_id"))
_INSERT_DEAL = deals.insert()
_ROOM_SETTINGS = select(rooms.c.settings).where(rooms.c.room_id == bindparam("room_id"))
_BEAT = (
    store_heartbeat.update()
    .where(store_heartbeat.c.beat_id == 1)
    .values(beat_at=bindparam("beat_at"), beats=store_heartbeat.c.beats + 1)
)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a player's token: the only form in which tokens are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def open_store(database_url: str | None = None, sqlite_synchronous: str = "NORMAL") -> Store:
    """Connect to the database (see `resolve_database_url`). Migrations are not applied here.

    `sqlite_synchronous` is SQLite's durability level (`Settings.sqlite_synchronous`)."""
    engine = create_engine_for(resolve_database_url(database_url), sqlite_synchronous)
    return Store(engine, sqlite_synchronous)


class Store:
    """Persistence for rooms, deals, action logs and scores. See the module docstring."""

    def __init__(self, engine: AsyncEngine, sqlite_synchronous: str = "NORMAL") -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        path = sqlite_file(engine)
        self._sqlite_log = (
            SqliteBatchInsert(engine, path, sqlite_synchronous) if path is not None else None
        )
        self._action_log = ActionLogWriter(
            self._writing, self._insert_actions if self._sqlite_log is not None else None
        )
        self.fence: LeaseFence | None = None

    def use_fence(self, fence: LeaseFence) -> None:
        """Let only the owner of a room's lease write to it (Postgres; docs/scaling.md)."""
        self.fence = self._action_log.fence = fence

    async def _insert_actions(self, rows: list[dict[str, Any]]) -> None:
        assert self._sqlite_log is not None and self._write_lock is not None
        async with self._write_lock:  # still the only writer of this process
            await self._sqlite_log.insert(rows)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction; on SQLite, the only one running in this process."""
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    def writing(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A write transaction for tables beside the rooms' (the ledgers'): on SQLite it
        takes its turn with every other write of this process."""
        return self._writing()

    @asynccontextmanager
    async def _room_writing(self, room_id: str) -> AsyncIterator[AsyncConnection]:
        """A write transaction on one room: with a fence, only while this process owns it."""
        async with self._writing() as conn:
            if self.fence is not None:
                await self.fence.hold_room(conn, room_id)
            yield conn

    async def close(self) -> None:
        """Close every pooled connection."""
        if self._sqlite_log is not None:
            await self._sqlite_log.close()
        await self.engine.dispose()

    async def ping(self) -> bool:
        """Whether the database reads and writes now (for `/readyz`): a query, then a real
        committed write of the heartbeat row, so a full disk fails it as well as a lost
        connection. False on any failure; never raises."""
        try:
            await self.beat()
        except Exception:
            return False
        return True

    async def beat(self) -> None:
        """Rewrite the heartbeat row (insert it the first time); raises `StoreUnavailable`."""
        async with reaching_database(), self._writing() as conn:
            await conn.execute(text("SELECT 1"))
            now = datetime.now(UTC)
            updated = await conn.execute(_BEAT, {"beat_at": now})
            if updated.rowcount == 0:
                await conn.execute(store_heartbeat.insert().values(beat_id=1, beat_at=now, beats=1))

    # -- rooms and players -------------------------------------------------------------

    @outages_unavailable
    async def create_room(
        self,
        room_id: str,
        variant: str,
        settings: dict[str, Any],
        created_at: datetime,
        *,
        public: bool = True,
        invite_hash: str | None = None,
    ) -> None:
        """Store a new room, status "waiting". Raises `DuplicateRecordError` for a reused id.

        `invite_hash` is `hash_token` of the invite secret; the secret is never stored.
        """
        try:
            async with self._writing() as conn:
                await conn.execute(
                    rooms.insert().values(
                        room_id=room_id,
                        variant=variant,
                        status="waiting",
                        settings=settings,
                        created_at=created_at,
                        public=public,
                        invite_hash=invite_hash,
                    )
                )
        except IntegrityError as error:
            raise DuplicateRecordError(f"room {room_id!r} already exists") from error

    @outages_unavailable
    async def add_player(
        self,
        room_id: str,
        player_index: int,
        name: str,
        token_hash: str | None,
        is_bot: bool,
        joined_at: datetime,
    ) -> None:
        """Seat a player (or bot) at `player_index` with a running score of 0."""
        try:
            async with self._room_writing(room_id) as conn:
                await _require_room(conn, room_id)
                await conn.execute(
                    room_players.insert().values(
                        room_id=room_id,
                        player_index=player_index,
                        name=name,
                        token_hash=token_hash,
                        is_bot=is_bot,
                        joined_at=joined_at,
                    )
                )
        except IntegrityError as error:
            raise DuplicateRecordError(
                f"room {room_id!r} already has player {player_index}"
            ) from error

    @outages_unavailable
    async def set_host(self, room_id: str, host_index: int | None) -> None:
        """Make `host_index` the room's host (None: nobody is)."""
        await self._update_room(room_id, host_index=host_index)

    async def _update_room(self, room_id: str, **values: Any) -> None:
        async with self._room_writing(room_id) as conn:
            updated = await conn.execute(
                rooms.update().where(rooms.c.room_id == room_id).values(**values)
            )
            if updated.rowcount == 0:
                raise UnknownRoomError(f"no room {room_id!r}")

    @outages_unavailable
    async def set_spectators_allowed(self, room_id: str, allowed: bool) -> None:
        """The host's spectators switch, kept in the room's settings (`spectators_allowed`)."""
        async with self._writing() as conn:
            found = (await conn.execute(_ROOM_SETTINGS, {"room_id": room_id})).one_or_none()
            if found is None:
                raise UnknownRoomError(f"no room {room_id!r}")
            settings = {**found.settings, "spectators_allowed": allowed}
            where = rooms.c.room_id == room_id
            await conn.execute(rooms.update().where(where).values(settings=settings))

    @outages_unavailable
    async def hand_seat_to_bot(self, room_id: str, player_index: int) -> None:
        """A removed player's seat goes to a bot: their token hash is dropped for good."""
        await self._set_seat(room_id, player_index, is_bot=True, token_hash=None)

    @outages_unavailable
    async def seat_human(self, room_id: str, player_index: int, name: str, token_hash: str) -> None:
        """A friend takes a bot's seat (its running score goes with the seat)."""
        await self._set_seat(room_id, player_index, is_bot=False, token_hash=token_hash, name=name)

    async def _set_seat(self, room_id: str, player_index: int, **values: Any) -> None:
        async with self._room_writing(room_id) as conn:
            updated = await conn.execute(
                room_players.update()
                .where(room_players.c.room_id == room_id)
                .where(room_players.c.player_index == player_index)
                .values(**values)
            )
            if updated.rowcount == 0:
                raise UnknownRoomError(f"room {room_id!r} has no player {player_index}")

    @outages_unavailable
    async def save_table_log(self, room_id: str, log: dict[str, Any]) -> None:
        """Replace the room's table log: its time banks (`table_log.py`)."""
        async with self._writing() as conn:
            await table_log.save_table_log(conn, room_id, log)

    @outages_unavailable
    async def append_host_event(self, room_id: str, seq: int, event: dict[str, Any]) -> None:
        """Append the room's host event `seq` (`host_events.py`); `DuplicateRecordError` if
        it has one already: an event is written once, never replaced."""
        async with self._room_writing(room_id) as conn:
            await host_events.append_host_event(conn, room_id, seq, event)

    @outages_unavailable
    async def host_event_logged(self, room_id: str, seq: int) -> dict[str, Any] | None:
        """The room's stored host event `seq`, or None (a retried append looks for its own)."""
        async with self.engine.connect() as conn:
            return await host_events.logged_host_event(conn, room_id, seq)

    @outages_unavailable
    async def night_points(
        self, token_hashes: list[str], since: datetime, until: datetime
    ) -> tuple[list[str], dict[str, int]]:
        """Points by player over the rooms these token hashes sit in (`settling.py`)."""
        async with self.engine.connect() as conn:
            return await settling.night_points(conn, token_hashes, since, until)

    @outages_unavailable
    async def room_access(self, room_id: str) -> RoomAccessRecord | None:
        """Who may see the room: its public flag, invite hash and seated humans' token hashes."""
        async with self.engine.connect() as conn:
            return await reading.room_access(conn, room_id)

    @outages_unavailable
    async def set_room_status(self, room_id: str, status: str) -> None:
        """Set the room's status: one of "waiting", "playing", "finished", "closed"."""
        write_checks.check_status(status)
        await self._update_room(room_id, status=status)

    # -- deals and their logs ----------------------------------------------------------

    @outages_unavailable
    async def start_deal(
        self,
        room_id: str,
        game_no: int,
        deal_no: int,
        variant: str,
        settings: dict[str, Any],
        seed: int,
        seat_players: dict[str, int],
        started_at: datetime,
        deal_seconds_left: float | None,
    ) -> int:
        """Store a new deal (all that replaying it needs) and return its `deal_id`."""
        write_checks.check_seed(seed)
        try:
            async with self._room_writing(room_id) as conn:
                await _require_room(conn, room_id)
                inserted = await conn.execute(
                    _INSERT_DEAL,
                    {
                        "room_id": room_id,
                        "game_no": game_no,
                        "deal_no": deal_no,
                        "variant": variant,
                        "settings": settings,
                        "seed": seed,
                        "seat_players": seat_players,
                        "started_at": started_at,
                        "start_seconds_left": deal_seconds_left,
                    },
                )
        except IntegrityError as error:
            raise DuplicateRecordError(
                f"room {room_id!r} already has game {game_no} deal {deal_no}"
            ) from error
        primary_key = inserted.inserted_primary_key
        assert primary_key is not None  # a single-row INSERT always reports its key
        return int(primary_key[0])

    @outages_unavailable
    async def append_action(
        self,
        deal_id: int,
        seq: int,
        seat: str | None,
        action: dict[str, Any],
        at: datetime,
        by_bot: bool,
        bot_reason: str | None,
        deal_seconds_left: float | None,
    ) -> None:
        """Append one action to a deal's log; committed when this returns.

        Concurrent appends from many tables are committed together (see `action_log`).

        Raises `DuplicateRecordError` if `seq` is already logged for the deal (the log is
        append-only: nothing is ever overwritten), `UnknownDealError` for an unknown deal.
        """
        # Checked here, before the row joins a batch shared with other tables.
        write_checks.check_action(action, at)
        await self._action_log.append(
            {
                "deal_id": deal_id,
                "seq": seq,
                "seat": seat,
                "action": action,
                "at": at,
                "by_bot": by_bot,
                "bot_reason": bot_reason,
                "deal_seconds_left": deal_seconds_left,
            }
        )

    @outages_unavailable
    async def finish_deal(
        self,
        deal_id: int,
        result: dict[str, Any],
        ended_at: datetime,
        player_scores: dict[int, int],
    ) -> None:
        """Record a deal's result, in one transaction with its consequences.

        `result` is the engine's result object (docs/engine.md). `player_scores` maps each
        player index to their net points for this deal, which are added to the room's
        running scores. Writes the outcome columns, one `deal_players` row per seated
        player (with the turns a bot covered for them), the dashboard's summaries
        (`summaries.py`) and the new running scores; or nothing at all if any part fails.
        """
        write_checks.check_result(result, ended_at)
        if self._sqlite_log is not None:
            # One hop to the log's thread for the whole transaction: through aiosqlite each
            # statement was a hop of its own, and the write lock, which every table's
            # action log waits for, stayed held for 50-150 ms at a thousand tables.
            assert self._write_lock is not None
            async with self._write_lock:
                await self._sqlite_log.run_transaction(
                    record_finished_deal, deal_id, result, ended_at, player_scores
                )
            return
        async with self._writing() as conn:
            if self.fence is not None:
                await self.fence.hold_deal(conn, deal_id)
            await conn.run_sync(record_finished_deal, deal_id, result, ended_at, player_scores)

    # -- reads -------------------------------------------------------------------------

    @outages_unavailable
    async def load_open_rooms(self) -> list[RoomRecord]:
        """Every room neither "finished" nor "closed", with its unfinished deal and log."""
        async with self.engine.connect() as conn:
            return await reading.open_rooms(conn)

    @outages_unavailable
    async def room_results(self, room_id: str) -> dict[str, Any] | None:
        """The results object of a room (docs/protocol.md, "HTTP"), or None for an unknown room."""
        async with self.engine.connect() as conn:
            return await reading.room_results(conn, room_id)

    @outages_unavailable
    async def list_rooms(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Rooms newest first, optionally of one status, for the lobby."""
        if status is not None:
            write_checks.check_status(status)
        if not 1 <= limit <= 1000:
            raise ValueError(f"limit must be between 1 and 1000, not {limit}")
        async with self.engine.connect() as conn:
            return await reading.room_list(conn, status, limit)

    @outages_unavailable
    async def action_logged(self, deal_id: int, seq: int) -> tuple[str | None, Any] | None:
        """`(seat, action)` of the deal's logged action `seq`, or None: after a failed
        append whose commit may have landed, tells a retry its row is already there."""
        async with self.engine.connect() as conn:
            return await reading.logged_action(conn, deal_id, seq)

    @outages_unavailable
    async def find_deal(self, room_id: str, game_no: int, deal_no: int) -> tuple[int, int] | None:
        """`(deal_id, seed)` of the room's deal `(game_no, deal_no)`, or None (the same use
        as `action_logged`, for `start_deal`)."""
        async with self.engine.connect() as conn:
            return await reading.deal_and_seed(conn, room_id, game_no, deal_no)

    async def count_actions(self, deal_id: int) -> int:
        """How many actions the deal's log holds (tests and benchmarks check completeness)."""
        async with self.engine.connect() as conn:
            return await reading.action_count(conn, deal_id)


async def _require_room(conn: AsyncConnection, room_id: str) -> None:
    """Raise `UnknownRoomError` unless the room exists."""
    found = await conn.scalar(_ROOM_EXISTS, {"room_id": room_id})
    if found is None:
        raise UnknownRoomError(f"no room {room_id!r}")
