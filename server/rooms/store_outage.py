"""A table that outlives a database outage: the core's side (the actor retries the write).

Every write a table cannot go on without (an action, a deal starting or ending, the
room's status, the table log) is a retried write (server/rooms/effects.py). When the
store fails it, the actor tells the core `StoreFailed`: the core keeps the change that
waits for the write (the action is decided but not yet on the table), pauses its clocks
from the moment it decided, and tells everyone with a `notice`. Meanwhile links come and
go, actions and joins are refused with a clear error (they could not be saved), and
timer commands wait. When the write succeeds the actor tells it `StoreRestored`: the
clocks resume with the time that was left, the waiting timer commands are delivered
again, and the change goes on from the very write that failed, so nothing is lost and
nothing is applied twice.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from server.rooms import commands as cmd
from server.rooms.effects import Refuse
from server.rooms.messages import notice_message
from server.store import StoreUnavailable

if TYPE_CHECKING:
    from server.rooms.room import Room

log = logging.getLogger(__name__)

STORE_DOWN_TEXT = "Reconnecting to the database... the table is paused, nothing is lost."
STORE_BACK_TEXT = "The database is back; play goes on."
NOT_SAVED_TEXT = (
    "could not be saved: the table is waiting for its database; try again when it is back"
)

# Commands that only wake the room at a moment: kept during an outage and handled after
# it (a superseded one is then recognised and ignored as usual).
_TIMER_COMMANDS = (
    cmd.TurnTimeout,
    cmd.BotTurn,
    cmd.DealTimeout,
    cmd.NextDealDue,
    cmd.IdleCheck,
    cmd.Resume,
)


class StoreOutage:
    """Whether the store is down for this table, since when, and what waits for it."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.down_since: float | None = None
        self._deferred: list[cmd.Command] = []

    def failed(self, since: float, reason: str) -> None:
        """The waiting write failed: pause the table (at the first failure of an outage)."""
        room = self.room
        if self.down_since is not None:
            log.info("room %s: the store is still unavailable (%s)", room.room_id, reason)
            return
        log.warning(
            "room %s: the store is unavailable, the table pauses until it is back: %s",
            room.room_id,
            reason,
        )
        self.down_since = since
        room.clocks.stop_turn_timers()
        room.view.broadcast()  # no deadlines and no legal actions while paused
        room.send_all(notice_message("store_unavailable", STORE_DOWN_TEXT))

    def restored(self) -> None:
        """Start the clocks again with the time they had left when the table paused."""
        room = self.room
        assert self.down_since is not None
        paused = room.now - self.down_since
        self.down_since = None
        log.warning("room %s: the store is back after %.1f s", room.room_id, paused)
        room.clocks.shift(paused)
        room.send_all(notice_message("store_restored", STORE_BACK_TEXT))
        for command in self._deferred:
            room.clocks.schedule(room.now, command)  # delivered again, after this change
        self._deferred.clear()

    def while_down(self, command: cmd.Command) -> None:
        """A command that arrived while the table waits for its store."""
        room = self.room
        if isinstance(command, cmd.Connect):
            if room.seats.connect(command):
                room.emit_to(
                    command.connection, notice_message("store_unavailable", STORE_DOWN_TEXT)
                )
        elif isinstance(command, cmd.Disconnect):
            room.seats.disconnect(command.connection)
        elif isinstance(
            command, (cmd.PlayerAction, cmd.NextDealReady, cmd.HintRequest, cmd.HostCommand)
        ):
            room.refuse(command, "store_unavailable", NOT_SAVED_TEXT)
        elif isinstance(command, (cmd.Join, cmd.AddBots)):
            room.emit(Refuse(command.reply, StoreUnavailable(NOT_SAVED_TEXT)))
        elif isinstance(command, _TIMER_COMMANDS):
            self._deferred.append(command)
