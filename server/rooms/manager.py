"""The room manager: creates rooms, finds them by id or token, and reopens them after a restart."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from server.engine import view
from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms.access import TableAccess, new_invite
from server.rooms.clock import Clock
from server.rooms.deal_in_play import utc
from server.rooms.ownership import RoomOwnership
from server.rooms.players import RoomClosedError
from server.rooms.reopening import game_after
from server.rooms.room import Room
from server.rooms.settings import RoomSettings, TableSettings
from server.rooms.snapshot import RoomSnapshot, RoomStatus
from server.rooms.table import RoomActor
from server.store import Store, hash_token

log = logging.getLogger(__name__)


class RoomNotFoundError(LookupError):
    """No open room has this id."""


class TooManyRoomsError(RuntimeError):
    """The server holds as many open rooms as its cap allows."""


class RoomManager:
    """All open rooms of this server process, each run by its own `RoomActor`."""

    # Caps against abuse (server/api/limits.py); None: no cap, as in-process tests run.
    max_open_rooms: int | None = None
    spectators_per_room: int | None = None

    def __init__(
        self,
        store: Store,
        clock: Clock,
        table_settings: TableSettings,
        registry: HallMetrics | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.table_settings = table_settings
        # The metrics the rooms count into; a private registry unless the app passes its own.
        self.registry = registry if registry is not None else HallMetrics()
        self.rooms: dict[str, RoomActor] = {}
        # token hash -> room id, to tell a foreign token (4403) from an unknown one (4401).
        self._token_rooms: dict[str, str] = {}
        self._watchers: set[asyncio.Task[None]] = set()
        # Several processes on one Postgres (docs/scaling.md): None when this one is alone.
        self.ownership: RoomOwnership | None = None

    def _open(self, actor: RoomActor) -> RoomActor:
        self.rooms[actor.room_id] = actor
        actor.start()
        watcher = asyncio.get_running_loop().create_task(self._forget_when_closed(actor))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        return actor

    async def _forget_when_closed(self, actor: RoomActor) -> None:
        await actor.closed.wait()
        self.forget(actor.room_id)

    def forget(self, room_id: str) -> None:
        """Drop a room that closed (or moved to another process) from this one's memory."""
        self.rooms.pop(room_id, None)
        for token_hash in [h for h, room in self._token_rooms.items() if room == room_id]:
            del self._token_rooms[token_hash]

    def set_caps(self, open_rooms: int | None, spectators_per_room: int | None) -> None:
        """Cap the open rooms of the server and the spectators of each room."""
        self.max_open_rooms = open_rooms
        self.spectators_per_room = spectators_per_room

    def open_room_count(self) -> int:
        """Rooms not closed yet (finished games count until they close: they hold memory)."""
        return sum(1 for actor in self.rooms.values() if actor.status is not RoomStatus.CLOSED)

    def _check_room_cap(self) -> None:
        if self.max_open_rooms is not None and self.open_room_count() >= self.max_open_rooms:
            raise TooManyRoomsError(
                f"this server has {self.max_open_rooms} open tables, as many as it takes;"
                " try again when one has closed"
            )

    async def create_room(self, settings: RoomSettings) -> str:
        """Create and open a public room with no invite; returns its id (TooManyRoomsError
        at the cap). The HTTP API opens tables with `open_table`."""
        return await self._create(settings, TableAccess(public=True, invite_hash=None))

    async def open_table(
        self, settings: RoomSettings, *, public: bool, spectators_allowed: bool = True
    ) -> tuple[str, str]:
        """Create and open a table with a fresh invite secret; returns (room id, invite)."""
        invite = new_invite()
        access = TableAccess(
            public=public, invite_hash=hash_token(invite), spectators_allowed=spectators_allowed
        )
        return await self._create(settings, access), invite

    async def _create(self, settings: RoomSettings, access: TableAccess) -> str:
        self._check_room_cap()
        room_id = secrets.token_urlsafe(9)
        now = self.clock.now()
        await self.store.create_room(
            room_id,
            settings.variant,
            {**settings.to_json(), "spectators_allowed": access.spectators_allowed},
            utc(now),
            public=access.public,
            invite_hash=access.invite_hash,
        )
        if self.ownership is not None:
            return room_id  # its owner is the process the proxy routes its id to
        room = Room(
            room_id=room_id,
            settings=settings,
            table_settings=self.table_settings,
            created_at=now,
            registry=self.registry,
            spectator_cap=self.spectators_per_room,
            access=access,
        )
        self._open(
            RoomActor(room, store=self.store, clock=self.clock, table_settings=self.table_settings)
        )
        return room_id

    async def bring_here(self, room_id: str) -> None:
        """With leases, reopen an open room here if no other process owns it (raises
        `RoomElsewhereError` if one does); alone, every open room is here already."""
        if self.ownership is not None:
            await self.ownership.bring_here(room_id)

    async def all_snapshots(self) -> list[RoomSnapshot]:
        """The open rooms of every process (the dashboard's live view)."""
        if self.ownership is not None:
            return await self.ownership.live_snapshots()
        return self.snapshots()

    def get(self, room_id: str) -> RoomActor:
        """The open room `room_id`, or RoomNotFoundError."""
        actor = self.rooms.get(room_id)
        if actor is None or actor.status is RoomStatus.CLOSED:
            raise RoomNotFoundError(room_id)
        return actor

    async def join(self, room_id: str, name: str) -> dict[str, Any]:
        """Seat a human; returns `{"seat", "token", "player_index"}`."""
        actor = self.get(room_id)
        seated = await actor.ask(lambda reply: cmd.Join(name=name, reply=reply))
        self._token_rooms[hash_token(seated["token"])] = room_id
        return dict(seated)

    async def add_bots(self, room_id: str) -> list[int]:
        """Fill the room's empty seats with bots; returns their player indexes."""
        actor = self.get(room_id)
        return list(await actor.ask(lambda reply: cmd.AddBots(reply=reply)))

    def token_room(self, token: str) -> str | None:
        """The id of the open room a token belongs to, if any (a removed player's: none)."""
        token_hash = hash_token(token)
        room_id = self._token_rooms.get(token_hash)
        actor = self.rooms.get(room_id) if room_id is not None else None
        if actor is None or all(p.token_hash != token_hash for p in actor.players):
            return None
        return room_id

    def snapshots(self) -> list[RoomSnapshot]:
        """Every open room as outsiders may read it, newest first."""
        rooms = sorted(self.rooms.values(), key=lambda actor: actor.created_at, reverse=True)
        return [
            snapshot
            for snapshot in (actor.snapshot() for actor in rooms)
            if snapshot.status is not RoomStatus.CLOSED
        ]

    def list_rooms(self, status: str | None = None) -> list[dict[str, Any]]:
        """Summaries of the open public rooms, newest first; `status="waiting"` keeps those
        with free seats. Unlisted tables are never listed: their link is their only way in."""
        return [
            {
                "room_id": room.room_id,
                "name": room.name,
                "variant": room.variant,
                "status": room.status.value,
                "seat_count": room.seat_count,
                "free_seats": room.free_seats,
                "players": [player.name for player in room.players],
                "turn_seconds": room.turn_seconds,
                "deal_seconds": room.deal_seconds,
                "rounds": room.rounds,
                "rules": room.rules,
            }
            for room in self.snapshots()
            if room.public and (status is None or room.status == status)
        ]

    async def lobby(self) -> list[dict[str, Any]]:
        """`list_rooms()` of every process: from the database when processes share it."""
        if self.ownership is not None:
            return await self.ownership.lobby()
        return self.list_rooms()

    def public_state(self, room_id: str) -> dict[str, Any]:
        """`GET /api/rooms/{id}`: the room object plus the spectator's view of the table."""
        actor = self.get(room_id)
        room = actor.public_room()
        room["table"] = view(actor.deal.state, None) if actor.deal else None
        return room

    async def shutdown(self) -> None:
        """Stop every actor; rooms stay open in the store for the next start."""
        await asyncio.gather(
            *(actor.stop() for actor in list(self.rooms.values())), return_exceptions=True
        )
        for watcher in list(self._watchers):
            watcher.cancel()
        if self.ownership is not None:
            await self.ownership.release_all()

    async def recover(self) -> int:
        """Reopen every room the store still has open, replaying unfinished deals. Returns the count."""
        if self.ownership is not None:
            await self.ownership.start(self)  # each room reopens where the proxy sends it
            return 0
        reopened = 0
        for record in await self.store.load_open_rooms():
            if (
                self.table_settings.hold_deals_without_humans
                and record.players
                and all(stored.is_bot for stored in record.players)
            ):
                # Nobody could ever come back to it: close it rather than play for nobody.
                await self.store.set_room_status(record.room_id, "closed")
                log.info("room %s has no human seated: closed at reopening", record.room_id)
                continue
            try:
                self.reopen(record)
                reopened += 1
            except Exception:
                log.exception("could not reopen room %s", record.room_id)
        return reopened

    def reopen(self, record: Any) -> None:
        """Open a stored room here, as it was (its deal replayed from the log)."""
        host = record.host_index
        if host is None:
            # A room from before hosts existed: its first seated human hosts it.
            host = next((p.player_index for p in record.players if not p.is_bot), None)
        access = TableAccess(
            public=record.public,
            invite_hash=record.invite_hash,
            host_index=host,
            spectators_allowed=bool(record.settings.get("spectators_allowed", True)),
        )
        self._open(
            RoomActor.from_record(
                record,
                store=self.store,
                clock=self.clock,
                table_settings=self.table_settings,
                registry=self.registry,
                spectator_cap=self.spectators_per_room,
                access=access,
            )
        )
        for stored in record.players:
            if stored.token_hash is not None:
                self._token_rooms[stored.token_hash] = record.room_id


__all__ = [
    "RoomClosedError",
    "RoomManager",
    "RoomNotFoundError",
    "TooManyRoomsError",
    "game_after",
]
