"""The host's controls of a table: hand the role on, remove a player (a bot takes the
seat and the token dies), offer a bot's seat to a friend, pause and resume (a pause any
seated player may ask for, granted by the host or a majority), end the game early,
choose each bot seat's level, and turn spectators off or on.

A part of the room's core (server/rooms/room.py). They arrive as `cmd.HostCommand` from a
seated player's socket. Each one done is saved as one host event row, appended once
(docs/persistence.md, "The table log"), before anyone is told, shown on the table in
`room.host_events` (the last ones), and written to the server's log with the room's id.
Nothing ever drops an event from the record; what is limited is the requests: a player
who is not the host has one pause (or resume) request pending at a time, and asks again
only after a cool-down on the room's clock.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from server.bots import LEVELS
from server.rooms import commands as cmd
from server.rooms.access import Pause
from server.rooms.effects import (
    AppendHostEvent,
    Close,
    HandSeatToBot,
    Reply,
    SeatHuman,
    SetHost,
    SetRoomStatus,
    SetSpectatorsAllowed,
    StoreWrite,
)
from server.rooms.messages import epoch_ms
from server.rooms.players import RoomFullError
from server.rooms.room_seats import CLOSE_NO_SPECTATORS, refuse_look_alike
from server.rooms.snapshot import RoomStatus
from server.store import hash_token
from server.store.host_events import RECENT_HOST_EVENTS

if TYPE_CHECKING:
    from server.rooms.room import Room

log = logging.getLogger(__name__)

Flow = Generator[StoreWrite, Any, None]

# A removed player's socket closes with this code; their token is then unknown (4401).
CLOSE_REMOVED = 4411
# The most host events shown on the table's panel (the store keeps them all, and a
# reopened room reads back as many).
HOST_EVENTS_KEPT = RECENT_HOST_EVENTS


class HostCommandRefused(Exception):
    """A host command that cannot be done now; the message says why, the table is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class HostControls:
    """The host's commands, the pause, and the record of what the host did."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.pause: Pause | None = None  # while paused, every clock stands still
        self.pause_votes: set[int] = set()
        self.resume_votes: set[int] = set()
        # Bot level per player index, for bot seats whose level the host chose.
        self.bot_levels: dict[int, str] = {}
        # Bot seats the host opened to a friend: the next join (between deals) takes one.
        self.offered_seats: set[int] = set()
        self.events: list[dict[str, Any]] = []  # the last ones, shown on the table
        self.event_count = 0  # every event of the room: the next one's number
        # When each player last asked for a pause or to play on: (kind, index) -> moment.
        self._asked: dict[tuple[str, int], float] = {}
        self.version = 0  # grows with each host event, so the room object is rebuilt

    # ----------------------------------------------------------------- the record

    def reopen(self, recent_events: list[dict[str, Any]], event_count: int) -> None:
        """Take back the last host events of a reopened room, and how many it has."""
        self.events = list(recent_events)[-HOST_EVENTS_KEPT:]
        self.event_count = max(event_count, len(recent_events))

    def _record(self, by: int, kind: str, text: str, **details: Any) -> Flow:
        """Append a host event to the store (one row, once), keep it for the table's
        panel and the server log; then tell everyone."""
        room = self.room
        event = {"at": epoch_ms(room.now), "by": by, "kind": kind, "text": text, **details}
        yield AppendHostEvent(room.room_id, self.event_count, event)
        self.event_count += 1
        self.events = [*self.events, event][-HOST_EVENTS_KEPT:]
        self.version += 1
        log.info("room %s: host event %s: %s", room.room_id, kind, text)
        room.view.broadcast()

    # ----------------------------------------------------------------- dispatch

    def command(self, command: cmd.HostCommand) -> Flow:
        """A seated player's host control; a refusal goes back to that link as an `error`."""
        room = self.room
        connection = command.connection
        index = connection.player_index
        try:
            if index is None or not room.seats.holds_seat(connection):
                raise HostCommandRefused("not_seated", "only a seated player may do this")
            if command.kind == "pause":
                yield from self._vote_pause(index)
                return
            if command.kind == "resume" and room.access.host_index != index:
                yield from self._vote_resume(index)
                return
            if room.access.host_index != index:
                raise HostCommandRefused("not_host", "only the table's host may do this")
            if room.status not in ("waiting", "playing"):
                raise HostCommandRefused("room_closed", "the game is over")
            yield from self._host_does(index, command.kind, command.fields)
        except HostCommandRefused as refusal:
            room.refuse(command, refusal.code, str(refusal))

    def _host_does(self, host: int, kind: str, fields: dict[str, Any]) -> Flow:
        if kind == "resume":
            yield from self._resume(host)
        elif kind == "end_game":
            yield from self._end_game(host)
        elif kind == "make_host":
            yield from self._make_host(host, self._other_human(fields, host))
        elif kind == "remove_player":
            yield from self._remove(host, self._other_human(fields, host))
        elif kind == "offer_seat":
            yield from self._offer_seat(host, self._bot_seat(fields))
        elif kind == "bot_level":
            yield from self._set_bot_level(host, self._bot_seat(fields), fields.get("level"))
        elif kind == "spectators":
            yield from self._allow_spectators(host, fields.get("allowed"))
        else:
            raise HostCommandRefused("unknown_type", f"unknown host command {kind[:40]!r}")

    def _player_field(self, fields: dict[str, Any]) -> int:
        index = fields.get("player_index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise HostCommandRefused("bad_message", "'player_index' must be a whole number")
        if not 0 <= index < len(self.room.players):
            raise HostCommandRefused("bad_message", f"no player {index} at this table")
        return index

    def _other_human(self, fields: dict[str, Any], host: int) -> int:
        index = self._player_field(fields)
        players = self.room.players
        if index == host:
            raise HostCommandRefused("bad_message", "choose another player than yourself")
        if players[index].is_bot:
            raise HostCommandRefused("bad_message", f"{players[index].name} is a bot")
        return index

    def _bot_seat(self, fields: dict[str, Any]) -> int:
        index = self._player_field(fields)
        players = self.room.players
        if not players[index].is_bot:
            raise HostCommandRefused("bad_message", f"{players[index].name} is not a bot")
        return index

    def _name(self, index: int) -> str:
        return self.room.players[index].name

    # ----------------------------------------------------------------- the host role

    def _make_host(self, host: int, successor: int) -> Flow:
        room = self.room
        yield SetHost(room.room_id, successor)
        room.access.host_index = successor
        yield from self._record(
            host,
            "make_host",
            f"{self._name(host)} made {self._name(successor)} host",
            player_index=successor,
        )

    def _remove(self, host: int, index: int) -> Flow:
        room = self.room
        player = room.players[index]
        name = player.name
        yield HandSeatToBot(room.room_id, index)
        player.is_bot = True
        player.token_hash = None
        self.pause_votes.discard(index)
        connection = room.player_connections.pop(index, None)
        if connection is not None:
            room.emit(Close(connection, CLOSE_REMOVED, "removed by the host"))
        yield from self._record(
            host,
            "remove_player",
            f"{self._name(host)} removed {name}; a bot plays on",
            player_index=index,
        )
        room.clocks.hand_covered_turns_to_bots()

    def _offer_seat(self, host: int, index: int) -> Flow:
        self.offered_seats.add(index)
        yield from self._record(
            host,
            "offer_seat",
            f"{self._name(host)} offered {self._name(index)}'s seat to a friend",
            player_index=index,
        )

    def seat_friend(self, command: cmd.Join) -> Flow:
        """A friend arriving at a playing table takes a seat the host offered, between deals."""
        room = self.room
        if room.deal is not None and not room.deal.ended:
            raise RoomFullError("a seat is offered to you: join again when this deal ends")
        refuse_look_alike(command.name, room.players)
        index = min(self.offered_seats)
        token = room.chance.player_token()
        player = room.players[index]
        yield SeatHuman(room.room_id, index, command.name, hash_token(token))
        bot = player.name
        player.name, player.is_bot, player.token_hash = command.name, False, hash_token(token)
        player.joined_at, player.has_connected = room.now, False
        self.offered_seats.discard(index)
        self.bot_levels.pop(index, None)
        host = room.access.host_index if room.access.host_index is not None else index
        yield from self._record(
            host, "seat_friend", f"{command.name} takes {bot}'s seat", player_index=index
        )
        room.emit(
            Reply(
                command.reply,
                {"seat": self._seat_now(index), "token": token, "player_index": index},
            )
        )

    def _seat_now(self, index: int) -> str:
        deal = self.room.deal
        seat = deal.seat_of(index) if deal is not None else None
        return seat if seat is not None else self.room.settings.seats[index]

    def _set_bot_level(self, host: int, index: int, level: Any) -> Flow:
        if level not in LEVELS:
            raise HostCommandRefused("bad_message", f"'level' must be one of {', '.join(LEVELS)}")
        self.bot_levels[index] = level
        yield from self._record(
            host,
            "bot_level",
            f"{self._name(host)} set {self._name(index)} to {level}",
            player_index=index,
            level=level,
        )

    def bot_level_of(self, index: int) -> str:
        """The level a bot plays `index`'s seat at: the host's choice, else the server's."""
        return self.bot_levels.get(index, self.room.table_settings.bot_level)

    def _allow_spectators(self, host: int, allowed: Any) -> Flow:
        if not isinstance(allowed, bool):
            raise HostCommandRefused("bad_message", "'allowed' must be true or false")
        room = self.room
        # Stored first: a restarted server keeps the host's choice (rooms.settings).
        yield SetSpectatorsAllowed(room.room_id, allowed)
        room.access.spectators_allowed = allowed
        if not allowed:
            for connection in list(room.spectators):
                room.emit(Close(connection, CLOSE_NO_SPECTATORS, "the host turned spectators off"))
            room.spectators.clear()
        words = "let spectators watch" if allowed else "turned spectators off"
        yield from self._record(host, "spectators", f"{self._name(host)} {words}", allowed=allowed)

    def _end_game(self, host: int) -> Flow:
        room = self.room
        self.pause = None
        room.clocks.cancel_all()
        room.status = RoomStatus.FINISHED
        yield SetRoomStatus(room.room_id, RoomStatus.FINISHED.value)
        room.play.next_deal_at = None
        yield from self._record(
            host, "end_game", f"{self._name(host)} ended the game; scores stand"
        )

    # ----------------------------------------------------------------- pause

    def _humans(self) -> set[int]:
        return {player.player_index for player in self.room.players if not player.is_bot}

    def _majority(self, votes: set[int]) -> bool:
        return len(votes & self._humans()) * 2 > len(self._humans())

    def _check_request(self, kind: str, index: int, votes: set[int]) -> None:
        """A request (not the host's own say): one pending per player, and at most one
        per cool-down, so no player can fill the record (or the store) with them."""
        room = self.room
        cooldown = room.table_settings.pause_request_cooldown_seconds
        last = self._asked.get((kind, index))
        if last is None or room.now >= last + cooldown:
            return
        wait = max(1, math.ceil(last + cooldown - room.now))
        if index in votes:
            raise HostCommandRefused(
                "already_asked",
                f"you have asked already: the host or a majority decides (ask again in {wait} s)",
            )
        raise HostCommandRefused("too_soon", f"you asked a moment ago: ask again in {wait} s")

    def _vote_pause(self, index: int) -> Flow:
        room = self.room
        if room.status != "playing":
            raise HostCommandRefused("no_deal", "the game is not being played")
        if self.pause is not None:
            raise HostCommandRefused("paused", "the table is already paused")
        if index == room.access.host_index:
            yield from self._pause(index)
            return
        self._check_request("pause", index, self.pause_votes)
        self.pause_votes.add(index)
        if self._majority(self.pause_votes):
            yield from self._pause(index)
        else:
            yield from self._record(index, "pause_asked", f"{self._name(index)} asks for a pause")
        self._asked[("pause", index)] = room.now

    def _vote_resume(self, index: int) -> Flow:
        if self.pause is None:
            raise HostCommandRefused("not_paused", "the table is not paused")
        self._check_request("resume", index, self.resume_votes)
        # Without the host, the players who want to go on resume by a majority.
        self.resume_votes.add(index)
        if self._majority(self.resume_votes):
            yield from self._resume(index)
        else:
            yield from self._record(index, "resume_asked", f"{self._name(index)} asks to play on")
        self._asked[("resume", index)] = self.room.now

    def _pause(self, by: int) -> Flow:
        self.pause = Pause(since=self.room.now, by=by)
        self.pause_votes.clear()
        self.room.clocks.stop_turn_timers()
        yield from self._record(by, "pause", f"{self._name(by)} paused the table")

    def _resume(self, by: int) -> Flow:
        """Start the clocks again with the time they had left when the table paused."""
        room = self.room
        if self.pause is None:
            raise HostCommandRefused("not_paused", "the table is not paused")
        paused = room.now - self.pause.since
        self.pause = None
        self.pause_votes.clear()
        self.resume_votes.clear()
        deal = room.deal
        play = room.play
        if deal is not None and not deal.ended:
            room.clocks.shift(paused)
        elif deal is not None and play.next_deal_at is not None:
            play.next_deal_at += paused
            room.clocks.schedule(play.next_deal_at, cmd.NextDealDue(deal.deal_no))
        yield from self._record(by, "resume", f"{self._name(by)} resumed the table")
        room.clocks.hand_covered_turns_to_bots()
