"""What a room shows: its public room object, each connection's `state`, and broadcasts.

Every change bumps `seq` and sends each connection its own `state` (a `Send` effect per
player link, one for all spectators), built by `StateTexts` (server/rooms/messages.py)
from the parts all seats share, encoded once. A seat's text carries only its own tiles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine import Action, legal_actions
from server.rooms import commands as cmd
from server.rooms.effects import Send
from server.rooms.messages import StateTexts, encode, epoch_ms, room_json
from server.rooms.seating import deals_total, shown_round_wind
from server.rooms.snapshot import RoomStatus

if TYPE_CHECKING:
    from server.rooms.room import Room


class RoomView:
    """The room's wire views, with the caches that keep a broadcast cheap."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._texts: StateTexts | None = None  # the last broadcast's messages
        self._room_cache: tuple[tuple[Any, ...], str] | None = None
        self._seat_texts: dict[str, tuple[Any, str]] = {}  # seat -> (its tiles, their JSON)

    def names(self) -> dict[int, str]:
        """Player index -> name."""
        return {player.player_index: player.name for player in self.room.players}

    def scores_by_name(self) -> dict[str, int]:
        """The running scores by player name."""
        names = self.names()
        return {names[index]: score for index, score in sorted(self.room.running_scores.items())}

    def public_room(self) -> dict[str, Any]:
        """The room object of every `state`, and of `GET /api/rooms/{id}` (without the table)."""
        room = self.room
        deal = room.deal
        settings = room.settings
        bank = float(settings.table_rules.time_bank_seconds)
        players = []
        for player in room.players:
            index = player.player_index
            players.append(
                {
                    "player_index": index,
                    "name": player.name,
                    "seat": deal.seat_of(index) if deal else settings.seats[index],
                    "is_bot": player.is_bot,
                    "connected": index in room.player_connections,
                    "bot_covered": room.is_covered(index),
                    "score": room.running_scores.get(index, 0),
                    "time_bank_seconds": None
                    if player.is_bot or not bank
                    else round(room.banks.left(index), 1),
                }
            )
        pause = room.host.pause
        return {
            "room_id": room.room_id,
            "name": settings.name,
            "variant": settings.variant,
            "status": room.status.value,
            "turn_seconds": settings.turn_seconds,
            "deal_seconds": settings.deal_seconds,
            "rounds": settings.rounds,
            "hints": settings.hints,  # issue 18
            "rules": settings.table_rules.to_json(),
            "seat_count": len(settings.seats),
            "deal_no": deal.deal_no if deal else 0,
            "deals_total": deals_total(settings),
            "round_wind": shown_round_wind(room.game)
            if deal is None or deal.ended
            else str(deal.state.settings.round_wind),
            "players": players,
            "scores": self.scores_by_name(),
            "spectators": len(room.spectators),
            "public": room.access.public,
            "host": room.access.host_index,
            "spectators_allowed": room.access.spectators_allowed,
            "paused": None if pause is None else {"by": pause.by, "since": epoch_ms(pause.since)},
            "host_events": room.host.events,
        }

    def _room_text(self) -> str:
        """`public_room()` encoded, kept while nothing it shows has changed: most broadcasts
        (a discard, a pass) change the table but not the room."""
        room = self.room
        deal = room.deal
        key = (
            room.status,
            (deal.deal_id, deal.ended) if deal else None,
            len(room.players),
            tuple(sorted(room.player_connections)),
            len(room.spectators),
            tuple(sorted(room.running_scores.items())),
            (room.access.public, room.access.host_index, room.access.spectators_allowed),
            room.host.version,
            room.banks.version,
        )
        if self._room_cache is None or self._room_cache[0] != key:
            self._room_cache = (key, room_json(self.public_room()))
        return self._room_cache[1]

    def _state_texts(self) -> StateTexts:
        room = self.room
        deal = room.deal
        # While the store is down or the host paused, the clocks stand still: the state
        # shows no deadlines and offers no actions.
        running = room.outage.down_since is None and room.host.pause is None
        return StateTexts(
            seq=room.seq,
            deal_state=deal.state if deal else None,
            turn_deadlines={s: d for s, (d, _) in deal.turns.items()} if deal and running else {},
            deal_deadline=deal.deadline if deal and not deal.ended and running else None,
            room=self._room_text(),
            can_act=room.status is RoomStatus.PLAYING and running,
            seat_texts=self._seat_texts,
        )

    def state_for(self, seat: str | None) -> str:
        """The current `state` for `seat` (None: a spectator)."""
        return self._state_texts().text_for(seat)

    def legal_now(self, seat: str) -> list[Action]:
        """`seat`'s legal actions in the deal as it stands: those of the last broadcast
        when it showed this very state (worked out once per version), else fresh ones."""
        deal = self.room.deal
        assert deal is not None
        texts = self._texts
        if texts is not None and texts.deal_state is deal.state and texts.can_act:
            return texts.legal_for(seat)
        return legal_actions(deal.state, seat)

    def broadcast(self) -> None:
        """Bump `seq` and send every connection its own `state`."""
        room = self.room
        room.seq += 1
        texts = self._state_texts()
        self._texts = texts
        deal = room.deal
        if room.spectators:
            room.emit(Send(tuple(room.spectators), texts.text_for(None)))
        for index, connection in room.player_connections.items():
            room.emit(Send((connection,), texts.text_for(deal.seat_of(index) if deal else None)))

    def repeat_result(self, connection: cmd.Connection, last_result: dict[str, Any] | None) -> None:
        """Between deals, follow a new link's snapshot with the last `result` (at the
        snapshot's seq): a client that was away when the deal ended learns the outcome, the
        running scores and when the next deal starts, as those who saw it end did."""
        deal = self.room.deal
        if last_result is not None and deal is not None and deal.ended:
            self.room.emit_to(connection, encode({**last_result, "seq": self.room.seq}))

    def send_all(self, text: str) -> None:
        """Send `text` to every connection, players then spectators."""
        room = self.room
        to = (*room.player_connections.values(), *room.spectators)
        if to:
            room.emit(Send(to, text))
