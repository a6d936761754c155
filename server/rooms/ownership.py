"""One owner per room when several server processes share one Postgres (docs/scaling.md).

The proxy sends all of a room's traffic to one process (it hashes the room id). That
process takes the room's lease and reopens the room from the database, as after a restart
(`RoomActor.from_record`), unless another live process holds the lease: then it asks the
owner to hand the room over and answers "try again" (HTTP 503 with `Retry-After`, a socket
closed with 1013), which the client already handles by reconnecting.

A process knows at once that an owner died: each holds a liveness lock in Postgres for its
whole life (server/store/leases.py), and a lease whose owner's lock is free is taken
without waiting for it to expire.

The manager calls four hooks: `bring_here` before it serves a room, `start` instead of
reopening every room at startup (it takes the liveness lock), `release_all` at shutdown, and `created` (which keeps a
new room unopened: its owner is whichever process the proxy routes its id to). The rest
runs in one loop on the injected clock, every third of the lease period: renew the leases
(each with the room's snapshot, for the dashboard's live view), stop the rooms another
process took, hand over the rooms another process asked for, give back the leases of
rooms that closed, and adopt orphans (rooms whose owner died and that no player came back
to through the proxy).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
from typing import TYPE_CHECKING, Any

from server.rooms.clock import Clock, TimerHandle
from server.rooms.settings import RoomSettings
from server.rooms.snapshot import PlayerSnapshot, RoomSnapshot, RoomStatus
from server.store.leases import Claim, LeaseFence, RoomLeases

if TYPE_CHECKING:
    from server.rooms.manager import RoomManager

log = logging.getLogger(__name__)

# After this many renewal rounds, look for orphaned rooms (a lease period and a bit).
ORPHAN_ROUNDS = 4
RETRY_AFTER_SECONDS = 1
ROOM_ID_LENGTH = 64  # as the rooms table keeps them


class RoomElsewhereError(RuntimeError):
    """Another process owns the room now, or it is moving: try again shortly."""

    retry_after = RETRY_AFTER_SECONDS


def new_owner_id() -> str:
    """This process's name in the leases: host, pid and a random part (a restarted
    process with the same pid is still a new owner)."""
    return f"{socket.gethostname()[:60]}-{os.getpid()}-{secrets.token_hex(4)}"


class RoomOwnership:
    """This process's leased rooms (see the module docstring)."""

    def __init__(self, leases: RoomLeases, clock: Clock, lease_seconds: float) -> None:
        self.leases = leases
        self.clock = clock
        self.renew_every = lease_seconds / 3
        self.fence = LeaseFence(leases.owner)
        self._manager: RoomManager | None = None
        self._held: set[str] = set()
        self._moving: set[str] = set()  # being handed over: refuse meanwhile
        self._arriving: dict[str, asyncio.Future[None]] = {}
        self._timer: TimerHandle | None = None
        self._round: asyncio.Task[None] | None = None
        self._rounds = 0
        self._stopped = False

    @property
    def owner(self) -> str:
        """This process's owner id."""
        return self.leases.owner

    async def start(self, manager: RoomManager) -> None:
        """Take this process's liveness lock, then begin renewing (the manager's store is
        fenced with this process's id)."""
        self._manager = manager
        manager.store.use_fence(self.fence)
        await self.leases.hold_liveness()
        self._arm()

    async def bring_here(self, room_id: str) -> None:
        """Make sure this process runs `room_id`, if it is open anywhere: take its lease and
        reopen it, or raise `RoomElsewhereError`. A room not open in the database stays
        absent (the manager then answers "no such room")."""
        manager = self._manager
        assert manager is not None, "start() first"
        if room_id in manager.rooms or len(room_id) > ROOM_ID_LENGTH:
            return  # here already, or no room id at all
        if room_id in self._moving or self._stopped:
            raise RoomElsewhereError(f"room {room_id} is moving to another server")
        arriving = self._arriving.get(room_id)
        if arriving is not None:  # another request is reopening it: wait, then look again
            await asyncio.shield(arriving)
            await self.bring_here(room_id)
            return
        arriving = asyncio.get_running_loop().create_future()
        self._arriving[room_id] = arriving
        try:
            await self._reopen_here(manager, room_id)
        finally:
            del self._arriving[room_id]
            arriving.set_result(None)

    async def _reopen_here(self, manager: RoomManager, room_id: str) -> None:
        claim = await self.leases.take(room_id)
        if claim is Claim.NO_ROOM:
            return
        if claim is Claim.ELSEWHERE:
            await self.leases.ask_for(room_id)
            raise RoomElsewhereError(f"room {room_id} is served by another server right now")
        record = await self.leases.open_room(room_id)  # read after the lease: all is there
        if record is None:  # finished or closed: nothing to run
            await self.leases.release([room_id])
            return
        self._held.add(room_id)
        manager.reopen(record)
        log.info("room %s: this server owns it now", room_id)

    async def release_all(self) -> None:
        """At shutdown, after the rooms stopped: hand every lease over at once."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
        if self._round is not None:
            await asyncio.gather(self._round, return_exceptions=True)
        try:
            await self.leases.release(self._held)
        except Exception as error:  # the database is down: the leases will expire
            log.warning("could not hand the rooms' leases over: %s", error)
        self._held.clear()
        await self.leases.drop_liveness()

    async def live_snapshots(self) -> list[RoomSnapshot]:
        """The open rooms of every process, as their owners last renewed them."""
        return [snapshot_from_json(stored) for stored in await self.leases.live_snapshots()]

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby's summaries (as `RoomManager.list_rooms` gives them) of every process's
        public open tables, read from the database."""
        summaries = []
        for room, names in await self.leases.open_tables():
            settings = RoomSettings.from_json({"variant": room.variant, **room.settings})
            summaries.append(
                {
                    "room_id": room.room_id,
                    "name": settings.name,
                    "variant": room.variant,
                    "status": room.status,
                    "seat_count": len(settings.seats),
                    "free_seats": len(settings.seats) - len(names),
                    "players": names,
                    "turn_seconds": settings.turn_seconds,
                    "deal_seconds": settings.deal_seconds,
                    "rounds": settings.rounds,
                    "rules": settings.table_rules.to_json(),
                }
            )
        return summaries

    # ------------------------------------------------------------ the renewal loop

    def _arm(self) -> None:
        if not self._stopped:
            self._timer = self.clock.call_at(self.clock.now() + self.renew_every, self._due)

    def _due(self) -> None:
        self._round = asyncio.get_running_loop().create_task(self._renewal_round())

    async def _renewal_round(self) -> None:
        manager = self._manager
        assert manager is not None
        try:
            # The liveness session lost (Postgres restarted): take the lock anew, or the
            # others would take this process's rooms as a dead one's.
            await self.leases.hold_liveness()
            for room_id in [room for room in self._held if room not in manager.rooms]:
                await self.leases.release([room_id])  # it closed: nothing left to own
                self._held.discard(room_id)
            live = {
                room_id: snapshot_json(manager.rooms[room_id].snapshot()) for room_id in self._held
            }
            renewal = await self.leases.renew(live)
            for room_id in renewal.lost:
                log.warning("room %s: another server took its lease; it stops here", room_id)
                await self._let_go(manager, room_id, hand_over=False)
            for room_id in renewal.wanted - renewal.lost:
                log.info("room %s: handed over to the server the proxy routes it to", room_id)
                await self._let_go(manager, room_id, hand_over=True)
            self._rounds += 1
            if self._rounds % ORPHAN_ROUNDS == 0:
                for room_id in await self.leases.orphans():
                    await self._adopt(room_id)
        except Exception as error:  # the database is down: the fence keeps the rooms safe
            log.warning("lease renewal failed: %s", error)
        finally:
            self._arm()

    async def _let_go(self, manager: RoomManager, room_id: str, *, hand_over: bool) -> None:
        self._moving.add(room_id)
        try:
            actor = manager.rooms.get(room_id)
            if actor is not None:
                await actor.stop()  # its links close with 1012 and come back through the proxy
                manager.forget(room_id)
            if hand_over:
                await self.leases.release([room_id])
            self._held.discard(room_id)
        finally:
            self._moving.discard(room_id)

    async def _adopt(self, room_id: str) -> None:
        with contextlib.suppress(RoomElsewhereError):  # another process adopted it first
            await self.bring_here(room_id)


def snapshot_json(snapshot: RoomSnapshot) -> dict[str, Any]:
    """A room snapshot as JSON, for its lease row."""
    stored = dataclasses.asdict(snapshot)
    stored["status"] = snapshot.status.value
    return stored


def snapshot_from_json(stored: dict[str, Any]) -> RoomSnapshot:
    """The snapshot `snapshot_json` stored."""
    players = tuple(PlayerSnapshot(**player) for player in stored.get("players", ()))
    return RoomSnapshot(**{**stored, "status": RoomStatus(stored["status"]), "players": players})
