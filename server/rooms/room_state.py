"""What a room holds and how it is shown: players, connections, the deal in play, clocks.

`RoomState` is the data half of a room's actor (server/rooms/table.py holds the other half,
the command handlers that change it). Nothing here awaits: these methods run inside one
step of the actor, so they can never interleave with another change.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from server.engine import Action, legal_actions, pending_seats
from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms.access import Pause, TableAccess
from server.rooms.clock import Clock, TimerHandle
from server.rooms.deal_in_play import DealInPlay
from server.rooms.messages import StateTexts, encode, epoch_ms, room_json
from server.rooms.players import Player
from server.rooms.seating import deals_total, new_game, shown_round_wind
from server.rooms.settings import RoomSettings, TableSettings
from server.rooms.snapshot import PlayerSnapshot, RoomSnapshot, RoomStatus
from server.store import Store, hash_token

log = logging.getLogger(__name__)


class RoomState:
    """A room's data, its public room object, its broadcasts and its timers."""

    def __init__(
        self,
        *,
        room_id: str,
        settings: RoomSettings,
        store: Store,
        clock: Clock,
        table_settings: TableSettings,
        created_at: float,
        registry: HallMetrics,
        spectator_cap: int | None = None,
        access: TableAccess | None = None,
    ) -> None:
        self.room_id = room_id
        # Rooms built without one (in-process tests) are public, as every room once was.
        self.access = access or TableAccess(public=True, invite_hash=None)
        self.settings = settings
        self.store = store
        self.clock = clock
        self.table_settings = table_settings
        self.created_at = created_at
        self.registry = registry  # the metrics this server reports (passed down by `serve`)
        # At most this many spectators at once (None: no cap), against abuse.
        self.spectator_cap = spectator_cap
        self.status = RoomStatus.WAITING
        self.players: list[Player] = []
        self.running_scores: dict[int, int] = {}
        self.game = new_game(settings)
        self.deal: DealInPlay | None = None
        self.seq = 0
        self.player_connections: dict[int, cmd.Connection] = {}
        self.spectators: set[cmd.Connection] = set()
        self.ready_for_next: set[int] = set()
        self.next_deal_at: float | None = None
        # The `result` message of the deal that ended last, repeated to links made after it.
        self.last_result: dict[str, Any] | None = None
        self.idle_since: float | None = created_at
        # While the store is down (server/rooms/store_outage.py): when the clocks paused.
        self.store_down_since: float | None = None
        # The host's controls (server/rooms/host_controls.py): a pause stops every clock;
        # `host_version` grows with each host event, so the room object is rebuilt.
        self.pause: Pause | None = None
        self.host_events: list[dict[str, Any]] = []
        self.host_version = 0
        # Seconds left in each player's time bank, once drawn (server/rooms/time_bank.py);
        # `_banks_drawn`: seat -> player whose bank is its deadline now.
        self.time_bank_left: dict[int, float] = {}
        # Whether a human has been connected since the deal on the table began, and whether
        # the next deal waits for one to connect (`hold_deals_without_humans`).
        self.human_since_deal = False
        self.deal_awaits_human = False
        self._banks_drawn: dict[str, int] = {}
        # The actor's mailbox: outsiders `tell` (or `ask`, server/rooms/table.py) it commands.
        self._mailbox: asyncio.Queue[cmd.Command] = asyncio.Queue()
        self._timers: dict[int, TimerHandle] = {}  # key -> armed timer
        self._turn_timers: dict[int, Callable[[], None]] = {}  # token -> cancel
        self._tokens = iter(range(1, 1 << 62))
        self._task: asyncio.Task[None] | None = None
        self._texts: StateTexts | None = None  # the last broadcast's messages
        self._room_cache: tuple[tuple[Any, ...], str] | None = None
        self._seat_texts: dict[str, tuple[Any, str]] = {}  # seat -> (its tiles, their JSON)
        self.closed = asyncio.Event()

    def tell(self, command: cmd.Command) -> None:
        """Leave `command` in the mailbox; the actor takes it after those already there."""
        self._mailbox.put_nowait(command)

    @property
    def has_mail(self) -> bool:
        """Whether commands wait in the mailbox (tests wait for a room to go quiet)."""
        return not self._mailbox.empty()

    def snapshot(self) -> RoomSnapshot:
        """The room as outsiders may read it (the dashboard, the metrics, the lobby)."""
        deal = self.deal
        return RoomSnapshot(
            room_id=self.room_id,
            name=self.settings.name,
            variant=self.settings.variant,
            status=self.status,
            created_at=self.created_at,
            seat_count=len(self.settings.seats),
            turn_seconds=self.settings.turn_seconds,
            deal_seconds=self.settings.deal_seconds,
            rounds=self.settings.rounds,
            seq=self.seq,
            deal_no=deal.deal_no if deal else 0,
            deal_id=deal.deal_id if deal else None,
            deal_in_play=deal is not None and not deal.ended,
            players=tuple(
                PlayerSnapshot(
                    player_index=player.player_index,
                    name=player.name,
                    seat=(deal.seat_of(player.player_index) if deal else None)
                    or self.settings.seats[player.player_index],
                    is_bot=player.is_bot,
                    connected=player.player_index in self.player_connections,
                    bot_covered=self.is_covered(player.player_index),
                    score=self.running_scores.get(player.player_index, 0),
                )
                for player in self.players
            ),
            spectators=len(self.spectators),
            spectator_cap=self.spectator_cap,
            store_down=self.store_down_since is not None,
            public=self.access.public,
            rules=self.settings.table_rules.to_json(),
        )

    def player_for_token(self, token: str) -> Player | None:
        """The human player holding `token`, if any."""
        hashed = hash_token(token)
        return next((player for player in self.players if player.token_hash == hashed), None)

    def _has_connections(self) -> bool:
        return bool(self.player_connections) or bool(self.spectators)

    def is_covered(self, player_index: int) -> bool:
        """Whether the player's bot plays the seat now: a bot, or a human with no live connection."""
        return self.players[player_index].is_bot or player_index not in self.player_connections

    def _close_connections(self, code: int, reason: str) -> None:
        for connection in [*self.player_connections.values(), *self.spectators]:
            connection.close(code, reason)
        self.player_connections.clear()
        self.spectators.clear()

    # ----------------------------------------------------------------- clocks

    def _rearm_turn_timers(self) -> None:
        """Give each newly pending seat a fresh turn timer; keep running ones inside one decision.

        Inside a claim window the seats still deciding keep their clock when another seat
        passes, so a pass cannot be used to buy time for the others.
        """
        deal = self.deal
        assert deal is not None
        state = deal.state
        # The same claim window (or turn) while phase, turn, discard and wall stand still.
        key = (state.phase, state.turn, state.last_discard, state.front, state.back)
        same_decision = key == deal.decision_key
        deal.decision_key = key
        now = self.clock.now()
        turns: dict[str, tuple[float, int]] = {}
        for seat in pending_seats(deal.state):
            if same_decision and seat in deal.turns:
                turns[seat] = deal.turns[seat]
                continue
            token = next(self._tokens)
            deadline = now + self.settings.turn_seconds
            turns[seat] = (deadline, token)
            self._turn_timers[token] = self._schedule(deadline, cmd.TurnTimeout(seat, token))
        # A superseded turn timer would only wake the actor to be ignored: drop it now.
        kept = {token for _, token in turns.values()}
        for token in [token for token in self._turn_timers if token not in kept]:
            self._turn_timers.pop(token)()
        deal.turns = turns

    def _shift_clocks(self, paused: float) -> None:
        """After a pause (the host's, or a store outage) of `paused` seconds: every clock of
        the deal in play gets back the time it had left, under fresh tokens, so a timer or
        bot move armed before the pause is superseded."""
        deal = self.deal
        if deal is None or deal.ended:
            return
        deal.deadline += paused
        self._schedule(deal.deadline, cmd.DealTimeout(deal.deal_id))
        turns: dict[str, tuple[float, int]] = {}
        for seat, (deadline, _) in deal.turns.items():
            token = next(self._tokens)
            turns[seat] = (deadline + paused, token)
            self._turn_timers[token] = self._schedule(
                deadline + paused, cmd.TurnTimeout(seat, token)
            )
        deal.turns = turns

    def _hand_covered_turns_to_bots(self) -> None:
        deal = self.deal
        if deal is None or deal.ended:
            return
        for seat, (_, token) in deal.turns.items():
            player = self.players[deal.seat_players[seat]]
            if self.is_covered(player.player_index):
                moment = self.clock.now() + self.table_settings.bot_delay
                if not player.is_bot and not player.has_connected:
                    moment = max(moment, player.joined_at + self.table_settings.join_grace_seconds)
                self._schedule(moment, cmd.BotTurn(seat, token))

    def _schedule(self, moment: float, command: cmd.Command) -> Callable[[], None]:
        """Put `command` on the queue once the clock reaches `moment`; returns a canceller.

        Timers are kept by key, not by handle, and leave the map when they fire or are
        cancelled, so no reference cycle outlives a timer (docs/benchmarks.md, "Server
        load": at a thousand tables, cyclic garbage from timers cost 200 ms collections).
        """
        key = next(self._tokens)
        self._timers[key] = self.clock.call_at(
            moment, functools.partial(self._timer_fired, key, command)
        )
        return functools.partial(self._cancel_timer, key)

    def _timer_fired(self, key: int, command: cmd.Command) -> None:
        if self._timers.pop(key, None) is not None:
            self._mailbox.put_nowait(command)

    def _cancel_timer(self, key: int) -> None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()

    def _cancel_timers(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # ----------------------------------------------------------------- broadcasting

    def _names(self) -> dict[int, str]:
        return {player.player_index: player.name for player in self.players}

    def _scores_by_name(self) -> dict[str, int]:
        names = self._names()
        return {names[index]: score for index, score in sorted(self.running_scores.items())}

    def public_room(self) -> dict[str, Any]:
        """The room object of every `state`, and of `GET /api/rooms/{id}` (without the table)."""
        deal = self.deal
        bank = float(self.settings.table_rules.time_bank_seconds)
        players = []
        for player in self.players:
            seat = (
                deal.seat_of(player.player_index)
                if deal
                else self.settings.seats[player.player_index]
            )
            players.append(
                {
                    "player_index": player.player_index,
                    "name": player.name,
                    "seat": seat,
                    "is_bot": player.is_bot,
                    "connected": player.player_index in self.player_connections,
                    "bot_covered": self.is_covered(player.player_index),
                    "score": self.running_scores.get(player.player_index, 0),
                    "time_bank_seconds": None
                    if player.is_bot or not bank
                    else round(self.time_bank_left.get(player.player_index, bank), 1),
                }
            )
        return {
            "room_id": self.room_id,
            "name": self.settings.name,
            "variant": self.settings.variant,
            "status": self.status.value,
            "turn_seconds": self.settings.turn_seconds,
            "deal_seconds": self.settings.deal_seconds,
            "rounds": self.settings.rounds,
            "hints": self.settings.hints,  # issue 18
            "rules": self.settings.table_rules.to_json(),
            "seat_count": len(self.settings.seats),
            "deal_no": deal.deal_no if deal else 0,
            "deals_total": deals_total(self.settings),
            "round_wind": shown_round_wind(self.game)
            if deal is None or deal.ended
            else self._deal_round_wind(),
            "players": players,
            "scores": self._scores_by_name(),
            "spectators": len(self.spectators),
            "public": self.access.public,
            "host": self.access.host_index,
            "spectators_allowed": self.access.spectators_allowed,
            "paused": None
            if self.pause is None
            else {"by": self.pause.by, "since": epoch_ms(self.pause.since)},
            "host_events": self.host_events,
        }

    def _room_text(self) -> str:
        """`public_room()` encoded, kept while nothing it shows has changed: most broadcasts
        (a discard, a pass) change the table but not the room."""
        deal = self.deal
        key = (
            self.status,
            (deal.deal_id, deal.ended) if deal else None,
            len(self.players),
            tuple(sorted(self.player_connections)),
            len(self.spectators),
            tuple(sorted(self.running_scores.items())),
            (self.access.public, self.access.host_index, self.access.spectators_allowed),
            self.host_version,
            tuple(sorted(self.time_bank_left.items())),
        )
        if self._room_cache is None or self._room_cache[0] != key:
            self._room_cache = (key, room_json(self.public_room()))
        return self._room_cache[1]

    def _deal_round_wind(self) -> str:
        assert self.deal is not None
        return str(self.deal.state.settings.round_wind)

    def _state_texts(self, room: str | None = None) -> StateTexts:
        deal = self.deal
        # While the store is down the clocks stand still and nothing can be saved: the
        # state shows no deadlines and offers no actions.
        running = self.store_down_since is None and self.pause is None
        return StateTexts(
            seq=self.seq,
            deal_state=deal.state if deal else None,
            turn_deadlines={s: d for s, (d, _) in deal.turns.items()} if deal and running else {},
            deal_deadline=deal.deadline if deal and not deal.ended and running else None,
            room=room if room is not None else self._room_text(),
            can_act=self.status is RoomStatus.PLAYING and running,
            seat_texts=self._seat_texts,
        )

    def _state_for(self, seat: str | None) -> str:
        return self._state_texts().text_for(seat)

    def legal_now(self, seat: str) -> list[Action]:
        """`seat`'s legal actions in the deal as it stands: those of the last broadcast
        when it showed this very state (worked out once per version), else fresh ones."""
        deal = self.deal
        assert deal is not None
        texts = self._texts
        if texts is not None and texts.deal_state is deal.state and texts.can_act:
            return texts.legal_for(seat)
        return legal_actions(deal.state, seat)

    def _broadcast(self, bumped: bool = False) -> None:
        """Send every connection its own `state` at the current `seq`."""
        if not bumped:
            self.seq += 1
        texts = self._state_texts()
        self._texts = texts
        deal = self.deal
        if self.spectators:
            spectator_text = texts.text_for(None)
            for connection in list(self.spectators):
                connection.push(spectator_text)
        for index, connection in list(self.player_connections.items()):
            connection.push(texts.text_for(deal.seat_of(index) if deal else None))

    def _repeat_result(self, connection: cmd.Connection) -> None:
        """Between deals, follow a new link's snapshot with the last `result` (at the
        snapshot's seq): a client that was away when the deal ended learns the outcome, the
        running scores and when the next deal starts, as those who saw it end did."""
        if self.last_result is not None and self.deal is not None and self.deal.ended:
            message = {**self.last_result, "seq": self.seq}
            connection.push(encode(message))

    def _send_all(self, text: str) -> None:
        for connection in [*self.player_connections.values(), *self.spectators]:
            connection.push(text)
