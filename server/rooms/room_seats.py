"""A room's seats and live connections: joining, bots filling seats, connecting,
reconnecting (a newer link replaces the older), leaving, and closing an idle room.

A part of the room's core (server/rooms/room.py): synchronous, its store writes yielded
to the core's flow runner, its sends and closes emitted as effects.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from server.rooms import commands as cmd
from server.rooms.deal_in_play import utc
from server.rooms.effects import AddPlayer, Close, Reply, SetHost, SetRoomStatus, StoreWrite
from server.rooms.names import look_alike
from server.rooms.players import (
    NameTakenError,
    Player,
    RoomClosedError,
    RoomFullError,
    bot_name,
)
from server.rooms.snapshot import RoomStatus
from server.store import hash_token

if TYPE_CHECKING:
    from server.rooms.room import Room

log = logging.getLogger(__name__)

# A player's `Connect` whose token is not the seat's token now (the host removed them
# after the socket checked it): the same code the socket gives an unknown token.
CLOSE_UNKNOWN_TOKEN = 4401
CLOSE_REPLACED = 4409
CLOSE_ROOM_CLOSED = 4410
CLOSE_SPECTATORS_FULL = 4430
# The host turned spectators off: a spectator's socket closes (and a new one is refused).
CLOSE_NO_SPECTATORS = 4431
# A server shutdown (SIGTERM): "service restart", so clients know to reconnect shortly.
CLOSE_SERVICE_RESTART = 1012


def refuse_look_alike(name: str, players: list[Player]) -> None:
    """Raise `NameTakenError` if `name` reads as the name of someone at the table (a bot's
    included): the same name in another case, or a look-alike (server/rooms/names.py)."""
    taken = look_alike(name, [player.name for player in players])
    if taken is None:
        return
    if taken == name:
        raise NameTakenError(f"the name {name!r} is already seated here")
    raise NameTakenError(f"the name {name!r} reads as {taken!r}, already seated here")


class RoomSeats:
    """The seat and connection commands of a room."""

    def __init__(self, room: Room) -> None:
        self.room = room

    # ----------------------------------------------------------------- seats

    def join(self, command: cmd.Join) -> Generator[StoreWrite, Any, None]:
        """Seat a human; answers `{"seat", "token", "player_index"}`."""
        room = self.room
        if room.status is RoomStatus.PLAYING and room.host.offered_seats:
            yield from room.host.seat_friend(command)
            return
        if room.status.is_over:
            raise RoomClosedError("the room has closed")
        if len(room.players) >= len(room.settings.seats) or room.status is not RoomStatus.WAITING:
            raise RoomFullError("every seat is taken")
        refuse_look_alike(command.name, room.players)
        token = room.chance.player_token()
        player = Player(
            len(room.players), command.name, hash_token(token), is_bot=False, joined_at=room.now
        )
        yield AddPlayer(
            room.room_id,
            player.player_index,
            player.name,
            player.token_hash,
            False,
            utc(room.now),
        )
        room.players.append(player)
        room.running_scores[player.player_index] = 0
        if room.access.host_index is None:
            # The table's first human is its host (the creator, who joins first).
            yield SetHost(room.room_id, player.player_index)
            room.access.host_index = player.player_index
        # Answer once the seat change (and a deal it starts) is done, so the caller sees it.
        yield from self._seats_changed()
        room.emit(
            Reply(
                command.reply,
                {
                    "seat": room.settings.seats[player.player_index],
                    "token": token,
                    "player_index": player.player_index,
                },
            )
        )

    def add_bots(self, command: cmd.AddBots) -> Generator[StoreWrite, Any, None]:
        """Fill every empty seat with a bot; answers their player indexes."""
        room = self.room
        if room.status.is_over:
            raise RoomClosedError("the room has closed")
        if len(room.players) >= len(room.settings.seats) or room.status is not RoomStatus.WAITING:
            raise RoomFullError("every seat is taken")
        added = []
        while len(room.players) < len(room.settings.seats):
            index = len(room.players)
            player = Player(index, bot_name(room.players, index), None, is_bot=True)
            yield AddPlayer(room.room_id, index, player.name, None, True, utc(room.now))
            room.players.append(player)
            room.running_scores[index] = 0
            added.append(index)
        yield from self._seats_changed()
        room.emit(Reply(command.reply, added))

    def _seats_changed(self) -> Generator[StoreWrite, Any, None]:
        room = self.room
        if len(room.players) == len(room.settings.seats):
            yield from room.play.start_next_deal()
        else:
            room.view.broadcast()

    # ----------------------------------------------------------------- connections

    def holds_token(self, player_index: int, token: str | None) -> bool:
        """Whether `token` is the token of the human who holds `player_index` now."""
        players = self.room.players
        if token is None or not 0 <= player_index < len(players):
            return False
        player = players[player_index]
        if player.is_bot or player.token_hash is None:
            return False
        return hmac.compare_digest(player.token_hash, hash_token(token))

    def holds_seat(self, connection: cmd.Connection) -> bool:
        """Whether `connection` is the live link of a human's seat: only such a link is
        sent the seat's hand and may act or ask for anything. A link is attached only by
        a `Connect` whose token the seat holds, and detached when the seat changes hands,
        so a removed or replaced player's link never holds it."""
        index = connection.player_index
        room = self.room
        return (
            index is not None
            and room.player_connections.get(index) is connection
            and not room.players[index].is_bot
        )

    def connect(self, command: cmd.Connect) -> bool:
        """A player's or spectator's link arrived; a newer link of a player replaces the older.
        Whether the link was taken (else it is closed)."""
        room = self.room
        connection = command.connection
        if room.status is RoomStatus.CLOSED:
            room.emit(Close(connection, CLOSE_ROOM_CLOSED, "room closed"))
            return False
        index = connection.player_index
        if index is not None and not self.holds_token(index, command.token):
            # The token was good at the handshake; the seat changed hands since.
            room.emit(Close(connection, CLOSE_UNKNOWN_TOKEN, "unknown token"))
            return False
        if index is None:
            # The socket checked the switch before its connect queued; the host may have
            # turned spectators off in between.
            if not room.access.spectators_allowed:
                room.emit(Close(connection, CLOSE_NO_SPECTATORS, "spectators are turned off"))
                return False
            if room.spectator_cap is not None and len(room.spectators) >= room.spectator_cap:
                room.emit(
                    Close(
                        connection,
                        CLOSE_SPECTATORS_FULL,
                        "the room has as many spectators as it takes",
                    )
                )
                return False
            room.spectators.add(connection)
            room.emit_to(connection, room.view.state_for(None))
            room.view.repeat_result(connection, room.play.last_result)
            return True
        room.idle_since = None  # only players keep a room open
        older = room.player_connections.get(index)
        if older is not None:
            room.emit(Close(older, CLOSE_REPLACED, "replaced by a newer connection"))
        room.player_connections[index] = connection
        room.players[index].has_connected = True
        room.view.broadcast()
        room.view.repeat_result(connection, room.play.last_result)
        play = room.play
        play.human_since_deal = True
        if play.deal_awaits_human:
            # The table held its next deal for nobody; now someone is here.
            play.deal_awaits_human = False
            deal = room.deal
            room.clocks.schedule(
                room.now, cmd.Resume() if deal is None else cmd.NextDealDue(deal.deal_no)
            )
        return True

    def disconnect(self, connection: cmd.Connection) -> None:
        """A link went away; a player's seat is then covered by its bot."""
        room = self.room
        index = connection.player_index
        if index is None:
            room.spectators.discard(connection)
        elif room.player_connections.get(index) is connection:
            del room.player_connections[index]
            room.view.broadcast()
            room.clocks.hand_covered_turns_to_bots()
        if not room.player_connections and room.idle_since is None:
            room.idle_since = room.now
            self.arm_idle_check()

    def arm_idle_check(self) -> None:
        """Close the room if no player holds it for the idle time from `idle_since`.
        Spectators alone do not keep a room open: one watcher could hold it for ever."""
        room = self.room
        assert room.idle_since is not None
        room.clocks.schedule(
            room.idle_since + room.table_settings.idle_close_seconds,
            cmd.IdleCheck(room.idle_since),
        )

    def idle_check(self, idle_since: float) -> Generator[StoreWrite, Any, None]:
        """Close the room if nobody came back since `idle_since`."""
        room = self.room
        if room.idle_since != idle_since or room.player_connections:
            return
        log.info(
            "room %s: no connection for %.0f s, closing",
            room.room_id,
            room.table_settings.idle_close_seconds,
        )
        yield SetRoomStatus(room.room_id, RoomStatus.CLOSED.value)
        room.status = RoomStatus.CLOSED
        room.close_connections(CLOSE_ROOM_CLOSED, "room closed")
