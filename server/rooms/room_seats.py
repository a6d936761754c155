"""A room's seats and live connections: joining, bots filling seats, connecting,
reconnecting (a newer link replaces the older), leaving, and closing an idle room.

These handlers run inside the room actor's task like every other command (see
`server.rooms.table`); they live apart only to keep each module about one concept.
"""

from __future__ import annotations

import logging
import secrets

from server.rooms import commands as cmd
from server.rooms.deal_in_play import utc
from server.rooms.players import (
    NameTakenError,
    Player,
    RoomClosedError,
    RoomFullError,
    bot_name,
)
from server.rooms.snapshot import RoomStatus
from server.rooms.store_outage import StoreOutage
from server.store import hash_token

log = logging.getLogger(__name__)

CLOSE_REPLACED = 4409
CLOSE_ROOM_CLOSED = 4410
CLOSE_SPECTATORS_FULL = 4430
# A server shutdown (SIGTERM): "service restart", so clients know to reconnect shortly.
CLOSE_SERVICE_RESTART = 1012


class RoomSeats(StoreOutage):
    """The seat and connection commands of a room actor (RoomActor adds the deal's flow)."""

    async def _start_next_deal(self) -> None:
        raise NotImplementedError  # the deal's flow: RoomActor

    # ----------------------------------------------------------------- seats

    async def _on_join(self, command: cmd.Join) -> None:
        if self.status.is_over:
            raise RoomClosedError("the room has closed")
        if len(self.players) >= len(self.settings.seats) or self.status is not RoomStatus.WAITING:
            raise RoomFullError("every seat is taken")
        if any(player.name.casefold() == command.name.casefold() for player in self.players):
            raise NameTakenError(f"the name {command.name!r} is already seated here")
        token = secrets.token_urlsafe(24)
        player = Player(
            len(self.players),
            command.name,
            hash_token(token),
            is_bot=False,
            joined_at=self.clock.now(),
        )
        await self.store.add_player(
            self.room_id,
            player.player_index,
            player.name,
            player.token_hash,
            False,
            utc(self.clock.now()),
        )
        self.players.append(player)
        self.running_scores[player.player_index] = 0
        if self.access.host_index is None:
            # The table's first human is its host (the creator, who joins first).
            await self.store.set_host(self.room_id, player.player_index)
            self.access.host_index = player.player_index
        # Answer once the seat change (and a deal it starts) is done, so the caller sees it.
        await self._seats_changed()
        command.reply.set_result(
            {
                "seat": self.settings.seats[player.player_index],
                "token": token,
                "player_index": player.player_index,
            }
        )

    async def _on_add_bots(self, command: cmd.AddBots) -> None:
        if self.status.is_over:
            raise RoomClosedError("the room has closed")
        if len(self.players) >= len(self.settings.seats) or self.status is not RoomStatus.WAITING:
            raise RoomFullError("every seat is taken")
        added = []
        while len(self.players) < len(self.settings.seats):
            index = len(self.players)
            player = Player(index, bot_name(self.players, index), None, is_bot=True)
            await self.store.add_player(
                self.room_id, index, player.name, None, True, utc(self.clock.now())
            )
            self.players.append(player)
            self.running_scores[index] = 0
            added.append(index)
        await self._seats_changed()
        command.reply.set_result(added)

    async def _seats_changed(self) -> None:
        if len(self.players) == len(self.settings.seats):
            await self._start_next_deal()
        else:
            self._broadcast()

    # ----------------------------------------------------------------- connections

    def _on_connect(self, connection: cmd.Connection) -> None:
        if self.status is RoomStatus.CLOSED:
            connection.close(CLOSE_ROOM_CLOSED, "room closed")
            return
        index = connection.player_index
        if index is None:
            if self.spectator_cap is not None and len(self.spectators) >= self.spectator_cap:
                connection.close(
                    CLOSE_SPECTATORS_FULL, "the room has as many spectators as it takes"
                )
                return
            self.spectators.add(connection)
            connection.push(self._state_for(None))
            self._repeat_result(connection)
            return
        self.idle_since = None  # only players keep a room open
        older = self.player_connections.get(index)
        if older is not None:
            older.close(CLOSE_REPLACED, "replaced by a newer connection")
        self.player_connections[index] = connection
        self.players[index].has_connected = True
        self.seq += 1
        self._broadcast(bumped=True)
        self._repeat_result(connection)
        if not self.players[index].is_bot:
            self.human_since_deal = True
            if self.deal_awaits_human:
                # The table held its next deal for nobody; now someone is here.
                self.deal_awaits_human = False
                deal = self.deal
                self.tell(cmd.Resume() if deal is None else cmd.NextDealDue(deal.deal_no))

    def _on_disconnect(self, connection: cmd.Connection) -> None:
        index = connection.player_index
        if index is None:
            self.spectators.discard(connection)
        elif self.player_connections.get(index) is connection:
            del self.player_connections[index]
            self.seq += 1
            self._broadcast(bumped=True)
            self._hand_covered_turns_to_bots()
        if not self._players_connected() and self.idle_since is None:
            self.idle_since = self.clock.now()
            self._schedule(
                self.idle_since + self.table_settings.idle_close_seconds,
                cmd.IdleCheck(self.idle_since),
            )

    def _players_connected(self) -> bool:
        # Spectators alone do not keep a room open: one watcher could hold it for ever.
        return bool(self.player_connections)

    async def _on_idle_check(self, idle_since: float) -> None:
        if self.idle_since != idle_since or self._players_connected():
            return
        log.info(
            "room %s: no connection for %.0f s, closing",
            self.room_id,
            self.table_settings.idle_close_seconds,
        )
        await self._store_status(RoomStatus.CLOSED, self.clock.now())
        self.status = RoomStatus.CLOSED
        self._close_connections(CLOSE_ROOM_CLOSED, "room closed")
