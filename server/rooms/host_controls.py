"""The host's controls of a table: hand the role on, remove a player (a bot takes the
seat and the token dies), offer a bot's seat to a friend, pause and resume (a pause any
seated player may ask for, granted by the host or a majority), end the game early,
choose each bot seat's level, and turn spectators off or on.

They arrive as `cmd.HostCommand` from a seated player's socket and run inside the actor
like every other command. Each one done is kept in `host_events` (shown on the table in
`room.host_events`) and written to the server's log with the room's id.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from server.bots import LEVELS
from server.rooms import commands as cmd
from server.rooms.access import Pause
from server.rooms.messages import epoch_ms, error_message
from server.rooms.players import NameTakenError, RoomFullError
from server.rooms.room_seats import RoomSeats
from server.rooms.snapshot import RoomStatus
from server.store import hash_token

log = logging.getLogger(__name__)

# A removed player's socket closes with this code; their token is then unknown (4401).
CLOSE_REMOVED = 4411
# The host turned spectators off: a spectator's socket closes (and a new one is refused).
CLOSE_NO_SPECTATORS = 4431
# The most host events kept for the table's panel (the server log keeps every one).
HOST_EVENTS_KEPT = 50


class HostCommandRefused(Exception):
    """A host command that cannot be done now; the message says why, the table is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class HostControls(RoomSeats):
    """The host's command handlers of a room actor."""

    def __init__(self, **arguments: Any) -> None:
        super().__init__(**arguments)
        self.pause_votes: set[int] = set()
        self.resume_votes: set[int] = set()
        # Bot level per player index, for bot seats whose level the host chose.
        self.bot_levels: dict[int, str] = {}
        # Bot seats the host opened to a friend: the next join (between deals) takes one.
        self.offered_seats: set[int] = set()

    # ----------------------------------------------------------------- dispatch

    async def _on_host_command(self, command: cmd.HostCommand) -> None:
        connection = command.connection
        index = connection.player_index
        try:
            if index is None or self.player_connections.get(index) is not connection:
                raise HostCommandRefused("not_seated", "only a seated player may do this")
            if command.kind == "pause":
                await self._vote_pause(index)
                return
            if command.kind == "resume" and self.access.host_index != index:
                await self._vote_resume(index)
                return
            if self.access.host_index != index:
                raise HostCommandRefused("not_host", "only the table's host may do this")
            if self.status not in ("waiting", "playing"):
                raise HostCommandRefused("room_closed", "the game is over")
            await self._host_does(index, command.kind, command.fields)
        except HostCommandRefused as refusal:
            connection.push(error_message(refusal.code, str(refusal), command.message_id))

    async def _host_does(self, host: int, kind: str, fields: dict[str, Any]) -> None:
        if kind == "resume":
            self._resume(host)
        elif kind == "end_game":
            await self._end_game(host)
        elif kind == "make_host":
            await self._make_host(host, self._other_human(fields, host))
        elif kind == "remove_player":
            await self._remove(host, self._other_human(fields, host))
        elif kind == "offer_seat":
            self._offer_seat(host, self._bot_seat(fields))
        elif kind == "bot_level":
            self._set_bot_level(host, self._bot_seat(fields), fields.get("level"))
        elif kind == "spectators":
            await self._allow_spectators(host, fields.get("allowed"))
        else:
            raise HostCommandRefused("unknown_type", f"unknown host command {kind[:40]!r}")

    def _player_field(self, fields: dict[str, Any]) -> int:
        index = fields.get("player_index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise HostCommandRefused("bad_message", "'player_index' must be a whole number")
        if not 0 <= index < len(self.players):
            raise HostCommandRefused("bad_message", f"no player {index} at this table")
        return index

    def _other_human(self, fields: dict[str, Any], host: int) -> int:
        index = self._player_field(fields)
        if index == host:
            raise HostCommandRefused("bad_message", "choose another player than yourself")
        if self.players[index].is_bot:
            raise HostCommandRefused("bad_message", f"{self.players[index].name} is a bot")
        return index

    def _bot_seat(self, fields: dict[str, Any]) -> int:
        index = self._player_field(fields)
        if not self.players[index].is_bot:
            raise HostCommandRefused("bad_message", f"{self.players[index].name} is not a bot")
        return index

    def _record(self, by: int, kind: str, text: str, **details: Any) -> None:
        """Keep a host event for the table's panel and the server log; then tell everyone."""
        event = {"at": epoch_ms(self.clock.now()), "by": by, "kind": kind, "text": text, **details}
        self.host_events = [*self.host_events, event][-HOST_EVENTS_KEPT:]
        self.host_version += 1
        log.info("room %s: host event %s: %s", self.room_id, kind, text)
        self.seq += 1
        self._broadcast(bumped=True)

    def _name(self, index: int) -> str:
        return self.players[index].name

    # ----------------------------------------------------------------- the host role

    async def _make_host(self, host: int, successor: int) -> None:
        await self.store.set_host(self.room_id, successor)
        self.access.host_index = successor
        self._record(
            host,
            "make_host",
            f"{self._name(host)} made {self._name(successor)} host",
            player_index=successor,
        )

    async def _remove(self, host: int, index: int) -> None:
        player = self.players[index]
        name = player.name
        await self.store.hand_seat_to_bot(self.room_id, index)
        player.is_bot = True
        player.token_hash = None
        self.pause_votes.discard(index)
        connection = self.player_connections.pop(index, None)
        if connection is not None:
            connection.close(CLOSE_REMOVED, "removed by the host")
        self._record(
            host,
            "remove_player",
            f"{self._name(host)} removed {name}; a bot plays on",
            player_index=index,
        )
        self._hand_covered_turns_to_bots()

    def _offer_seat(self, host: int, index: int) -> None:
        self.offered_seats.add(index)
        self._record(
            host,
            "offer_seat",
            f"{self._name(host)} offered {self._name(index)}'s seat to a friend",
            player_index=index,
        )

    async def _on_join(self, command: cmd.Join) -> None:
        if self.status != "playing" or not self.offered_seats:
            await super()._on_join(command)
            return
        # A friend arriving at a playing table takes a seat the host offered, between deals.
        if self.deal is not None and not self.deal.ended:
            raise RoomFullError("a seat is offered to you: join again when this deal ends")
        if any(player.name.casefold() == command.name.casefold() for player in self.players):
            raise NameTakenError(f"the name {command.name!r} is already seated here")
        index = min(self.offered_seats)
        token = secrets.token_urlsafe(24)
        player = self.players[index]
        await self.store.seat_human(self.room_id, index, command.name, hash_token(token))
        bot = player.name
        player.name, player.is_bot, player.token_hash = command.name, False, hash_token(token)
        player.joined_at, player.has_connected = self.clock.now(), False
        self.offered_seats.discard(index)
        self.bot_levels.pop(index, None)
        host = self.access.host_index if self.access.host_index is not None else index
        self._record(host, "seat_friend", f"{command.name} takes {bot}'s seat", player_index=index)
        command.reply.set_result(
            {"seat": self._seat_now(index), "token": token, "player_index": index}
        )

    def _seat_now(self, index: int) -> str:
        deal = self.deal
        seat = deal.seat_of(index) if deal is not None else None
        return seat if seat is not None else self.settings.seats[index]

    def _set_bot_level(self, host: int, index: int, level: Any) -> None:
        if level not in LEVELS:
            raise HostCommandRefused("bad_message", f"'level' must be one of {', '.join(LEVELS)}")
        self.bot_levels[index] = level
        self._record(
            host,
            "bot_level",
            f"{self._name(host)} set {self._name(index)} to {level}",
            player_index=index,
            level=level,
        )

    def bot_level_of(self, index: int) -> str:
        """The level a bot plays `index`'s seat at: the host's choice, else the server's."""
        return self.bot_levels.get(index, self.table_settings.bot_level)

    async def _allow_spectators(self, host: int, allowed: Any) -> None:
        if not isinstance(allowed, bool):
            raise HostCommandRefused("bad_message", "'allowed' must be true or false")
        # Stored first: a restarted server keeps the host's choice (rooms.settings).
        await self.store.set_spectators_allowed(self.room_id, allowed)
        self.access.spectators_allowed = allowed
        if not allowed:
            for connection in list(self.spectators):
                connection.close(CLOSE_NO_SPECTATORS, "the host turned spectators off")
            self.spectators.clear()
        words = "let spectators watch" if allowed else "turned spectators off"
        self._record(host, "spectators", f"{self._name(host)} {words}", allowed=allowed)

    def _on_connect(self, connection: cmd.Connection) -> None:
        # The socket checked the switch before its connect queued; the host may have
        # turned spectators off in between.
        if connection.player_index is None and not self.access.spectators_allowed:
            connection.close(CLOSE_NO_SPECTATORS, "spectators are turned off")
            return
        super()._on_connect(connection)

    async def _end_game(self, host: int) -> None:
        if self.pause is not None:
            self.pause = None
        self._cancel_timers()
        self.status = RoomStatus.FINISHED
        await self._store_status(RoomStatus.FINISHED, self.clock.now())
        self.next_deal_at = None
        self._record(host, "end_game", f"{self._name(host)} ended the game; scores stand")

    # ----------------------------------------------------------------- pause

    def _humans(self) -> set[int]:
        return {player.player_index for player in self.players if not player.is_bot}

    def _majority(self, votes: set[int]) -> bool:
        return len(votes & self._humans()) * 2 > len(self._humans())

    async def _vote_pause(self, index: int) -> None:
        if self.status != "playing":
            raise HostCommandRefused("no_deal", "the game is not being played")
        if self.pause is not None:
            raise HostCommandRefused("paused", "the table is already paused")
        self.pause_votes.add(index)
        if index == self.access.host_index or self._majority(self.pause_votes):
            self._pause(index)
        else:
            self._record(index, "pause_asked", f"{self._name(index)} asks for a pause")

    async def _vote_resume(self, index: int) -> None:
        if self.pause is None:
            raise HostCommandRefused("not_paused", "the table is not paused")
        # Without the host, the players who want to go on resume by a majority.
        self.resume_votes.add(index)
        if self._majority(self.resume_votes):
            self._resume(index)
        else:
            self._record(index, "resume_asked", f"{self._name(index)} asks to play on")

    def _pause(self, by: int) -> None:
        self.pause = Pause(since=self.clock.now(), by=by)
        self.pause_votes.clear()
        for cancel in self._turn_timers.values():
            cancel()
        self._turn_timers.clear()
        self._record(by, "pause", f"{self._name(by)} paused the table")

    def _resume(self, by: int) -> None:
        """Start the clocks again with the time they had left when the table paused."""
        if self.pause is None:
            raise HostCommandRefused("not_paused", "the table is not paused")
        paused = self.clock.now() - self.pause.since
        self.pause = None
        self.pause_votes.clear()
        self.resume_votes.clear()
        deal = self.deal
        if deal is not None and not deal.ended:
            self._shift_clocks(paused)
        elif deal is not None and self.next_deal_at is not None:
            self.next_deal_at += paused
            self._schedule(self.next_deal_at, cmd.NextDealDue(deal.deal_no))
        self._record(by, "resume", f"{self._name(by)} resumed the table")
        self._hand_covered_turns_to_bots()
