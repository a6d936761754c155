"""The room's core: `Room.handle(command, now) -> list[Effect]`, synchronous and pure.

In the style of python-websockets' sans-I/O protocol: the core holds the table (players,
connections, the deal in play, clocks, the host's controls, the store's outage state),
takes one command at a time and answers with the effects the outside world must carry
out, in order (server/rooms/effects.py). It never awaits, reads no clock (each command
brings `now`), touches no socket and no store; the actor (server/rooms/table.py) does.

A change that must be saved before anyone hears of it is written as a generator, a
*flow*: it yields the store write and resumes with the store's answer. `handle` runs a
flow until it yields, returns the effects so far with a `Persist` last, and keeps the
flow; the actor makes the write and feeds back `Persisted(value)` (or `StoreRefused`, or
`StoreFailed` then `StoreRestored` around an outage), and the flow goes on from there.

The core is made of small parts, each a plain object it owns: the seats and links
(server/rooms/room_seats.py), the deal's play (server/rooms/play.py), the clocks
(server/rooms/table_clocks.py), what is shown (server/rooms/room_view.py), the host's
controls (server/rooms/host_controls.py), the time banks (server/rooms/time_bank.py) and
the store's outage (server/rooms/store_outage.py).
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar, assert_never

from server.engine import Action
from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms.access import TableAccess
from server.rooms.deal_in_play import DealInPlay
from server.rooms.effects import Close, Effect, Persist, Refuse, Send, StoreWrite
from server.rooms.hints import answer_hint
from server.rooms.host_controls import HostControls
from server.rooms.messages import error_message
from server.rooms.play import DealPlay
from server.rooms.players import NameTakenError, Player, RoomClosedError, RoomFullError
from server.rooms.reopening import reopened_room
from server.rooms.room_seats import CLOSE_SERVICE_RESTART, RoomSeats
from server.rooms.room_view import RoomView
from server.rooms.seating import new_game
from server.rooms.settings import RoomSettings, TableSettings
from server.rooms.snapshot import PlayerSnapshot, RoomSnapshot, RoomStatus
from server.rooms.store_outage import StoreOutage
from server.rooms.table_clocks import TableClocks
from server.rooms.time_bank import TimeBanks
from server.store import StoreUnavailable, hash_token

log = logging.getLogger(__name__)

T = TypeVar("T")
# A change that waits for the store: it yields each write and is sent the store's answer.
Flow = Generator[StoreWrite, Any, T]

# The ordinary "no" to a join or to bots: answered to the caller, not logged as a failure.
REFUSALS = (RoomFullError, NameTakenError, RoomClosedError, StoreUnavailable)
NOT_SAVED_TEXT = "this could not be saved; send it again if the table still offers it"


@dataclass(frozen=True)
class Chance:
    """Where the core's secrets come from: each deal's seed and each player's token.
    Tests pass fixed ones to make a room reproducible."""

    deal_seed: Callable[[], int] = functools.partial(secrets.randbits, 62)
    player_token: Callable[[], str] = functools.partial(secrets.token_urlsafe, 24)


@dataclass
class _Waiting:
    """A flow stopped at a store write: resumed with its outcome."""

    flow: Flow[None]
    answer: cmd.Answer | None
    since: float  # when the table decided on the write (an outage pauses from then)
    # A player's request over their socket: told on that connection if its write fails.
    request: cmd.ConnectionRequest | None = None


class Room:
    """One table's state and rules, driven by `handle` (see the module docstring)."""

    def __init__(
        self,
        *,
        room_id: str,
        settings: RoomSettings,
        table_settings: TableSettings,
        created_at: float,
        registry: HallMetrics,
        spectator_cap: int | None = None,
        access: TableAccess | None = None,
        chance: Chance | None = None,
    ) -> None:
        self.room_id = room_id
        # Rooms built without one (in-process tests) are public, as every room once was.
        self.access = access or TableAccess(public=True, invite_hash=None)
        self.settings = settings
        self.table_settings = table_settings
        self.created_at = created_at
        self.registry = registry  # in-memory counters only; the actor times actions
        self.chance = chance or Chance()
        self.spectator_cap = spectator_cap  # at most this many spectators (None: no cap)
        self.now = created_at  # the moment of the command being handled
        self.status = RoomStatus.WAITING
        self.players: list[Player] = []
        self.running_scores: dict[int, int] = {}
        self.game = new_game(settings)
        self.deal: DealInPlay | None = None
        self.seq = 0
        self.player_connections: dict[int, cmd.Connection] = {}
        self.spectators: set[cmd.Connection] = set()
        self.idle_since: float | None = created_at
        self.clocks = TableClocks(self)
        self.view = RoomView(self)
        self.seats = RoomSeats(self)
        self.play = DealPlay(self)
        self.host = HostControls(self)
        self.banks = TimeBanks(self)
        self.outage = StoreOutage(self)
        self._out: list[Effect] = []
        self._waiting: _Waiting | None = None

    # ----------------------------------------------------------------- the one way in

    def handle(self, command: cmd.Command, now: float) -> list[Effect]:
        """Take `command` at the moment `now`; the effects to carry out, in order."""
        self.now = now
        out: list[Effect] = []
        self._out = out
        match command:
            case cmd.Persisted(value=value):
                self._resume(lambda flow: flow.send(value))
            case cmd.StoreRefused(error=error):
                if self.outage.down_since is not None:
                    self.outage.restored()  # the store answered: the table must not stay paused
                self._resume(lambda flow: flow.throw(error))
            case cmd.StoreFailed(reason=reason):
                assert self._waiting is not None, "a store failure with no write waiting"
                self.outage.failed(self._waiting.since, reason)
            case cmd.StoreRestored():
                self.outage.restored()
            case cmd.Shutdown():
                self._shut_down()
            case _ if self.outage.down_since is not None:
                self._guarded(self.outage.while_down, command)
            case _:
                assert self._waiting is None, f"{command!r} while a store write is pending"
                self._guarded(self._dispatch, command)
        self._out = []
        return out

    def _guarded(self, handler: Callable[[cmd.Command], None], command: cmd.Command) -> None:
        """Run `handler(command)`: one bad command must never take the table down (what it
        emitted before it failed still goes out; an `ask` gets the failure)."""
        try:
            handler(command)
        except Exception as error:
            log.exception("room %s: %r failed", self.room_id, command)
            if isinstance(command, cmd.Join | cmd.AddBots):
                self.emit(Refuse(command.reply, error))

    def emit(self, effect: Effect) -> None:
        """Add `effect` to the answer of the command being handled."""
        self._out.append(effect)

    @property
    def waiting_for_store(self) -> bool:
        """Whether a change waits for the outcome of a store write."""
        return self._waiting is not None

    def _dispatch(self, command: cmd.Command) -> None:
        match command:
            case cmd.Connect():
                self.seats.connect(command)
            case cmd.Disconnect(connection=connection):
                self.seats.disconnect(connection)
            case cmd.PlayerAction():
                self._run(self.play.player_action(command), request=command)
            case cmd.NextDealReady():
                self._run(self.play.next_deal_ready(command), request=command)
            case cmd.HintRequest(connection=connection, message_id=message_id):  # issue 18
                self.emit_to(connection, answer_hint(self, connection, message_id))
            case cmd.HostCommand():
                self._run(self.host.command(command), request=command)
            case cmd.Join():
                self._run(self.seats.join(command), command.reply)
            case cmd.AddBots():
                self._run(self.seats.add_bots(command), command.reply)
            case cmd.TurnTimeout(seat=seat, token=token):
                self._run(self.play.turn_timer(seat, token, "timeout"))
            case cmd.BotTurn(seat=seat, token=token):
                self._run(self.play.turn_timer(seat, token, None))
            case cmd.DealTimeout(deal_id=deal_id):
                self._run(self.play.deal_timeout(deal_id))
            case cmd.NextDealDue(after_deal_no=after_deal_no):
                self._run(self.play.next_deal_due(after_deal_no))
            case cmd.Resume():
                self._run(self.play.resume())
            case cmd.IdleCheck(idle_since=idle_since):
                self._run(self.seats.idle_check(idle_since))
            case cmd.StoreRetry():
                pass  # a retry round outlived by its outage
            case (
                cmd.Persisted()
                | cmd.StoreRefused()
                | cmd.StoreFailed()
                | cmd.StoreRestored()
                | cmd.Shutdown()
            ):
                pass  # taken by `handle` before the dispatch
            case _:
                assert_never(command)

    # ----------------------------------------------------------------- flows

    def _run(
        self,
        flow: Flow[None],
        answer: cmd.Answer | None = None,
        request: cmd.ConnectionRequest | None = None,
    ) -> None:
        self._waiting = _Waiting(flow, answer, self.now, request)
        self._resume(next)  # a generator starts at its first yield

    def _resume(self, step: Any) -> None:
        """Run the waiting flow on from `step(flow)` to its next write, or to its end."""
        waiting = self._waiting
        assert waiting is not None, "a store outcome with no write waiting"
        try:
            write = step(waiting.flow)
        except StopIteration:
            self._waiting = None
            return
        except Exception as error:  # one bad command must never take the table down
            self._waiting = None
            if not isinstance(error, REFUSALS):  # a refusal is an answer, not a failure
                log.exception("room %s: a command failed", self.room_id)
            if waiting.answer is not None:
                self.emit(Refuse(waiting.answer, error))
            self._not_saved(waiting)
            return
        waiting.since = self.now
        self.emit(Persist(write))

    def _not_saved(self, waiting: _Waiting) -> None:
        """A player's request failed on the way (its write refused, or a bug): tell them,
        rather than leave a move sent and never answered (a move is applied only once
        its write is saved)."""
        if waiting.request is not None:
            self.refuse(waiting.request, "not_saved", NOT_SAVED_TEXT)

    def _shut_down(self) -> None:
        """Close every link with 1012 and disarm the timers; the room stays open in the
        store. A write still waiting (an outage) is abandoned, unacknowledged."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting.flow.close()
            if waiting.answer is not None:
                self.emit(Refuse(waiting.answer, StoreUnavailable("the server stopped")))
        self.close_connections(CLOSE_SERVICE_RESTART, "server restarting")
        self.clocks.cancel_all()

    # ----------------------------------------------------------------- shared helpers

    def emit_to(self, connection: cmd.Connection, text: str) -> None:
        """Send `text` to one connection."""
        self.emit(Send((connection,), text))

    def refuse(self, request: cmd.ConnectionRequest, code: str, text: str) -> None:
        """Answer `request` on its connection with the error `code` (nothing changed)."""
        self.emit_to(request.connection, error_message(code, text, request.message_id))

    def send_all(self, text: str) -> None:
        """Send `text` to every connection, players then spectators."""
        self.view.send_all(text)

    def close_connections(self, code: int, reason: str) -> None:
        """Close every link (players and spectators) with `code`."""
        for connection in [*self.player_connections.values(), *self.spectators]:
            self.emit(Close(connection, code, reason))
        self.player_connections.clear()
        self.spectators.clear()

    def is_covered(self, player_index: int) -> bool:
        """Whether the player's bot plays the seat now: a bot, or a human with no live link."""
        return self.players[player_index].is_bot or player_index not in self.player_connections

    def player_for_token(self, token: str) -> Player | None:
        """The human player holding `token`, if any."""
        hashed = hash_token(token)
        return next((player for player in self.players if player.token_hash == hashed), None)

    def legal_now(self, seat: str) -> list[Action]:
        """`seat`'s legal actions in the deal as it stands (those of the last broadcast
        when it showed this very state)."""
        return self.view.legal_now(seat)

    def public_room(self) -> dict[str, Any]:
        """The room object of every `state`, and of `GET /api/rooms/{id}`."""
        return self.view.public_room()

    # ----------------------------------------------------------------- opening, reading

    def opening(self) -> list[Effect]:
        """The effects of opening the room: a room nobody holds closes when idle."""
        out: list[Effect] = []
        self._out = out
        if self.idle_since is not None and not self.player_connections and not self.spectators:
            self.seats.arm_idle_check()
        self._out = []
        return out

    @classmethod
    def from_record(
        cls,
        record: Any,
        *,
        now: float,
        table_settings: TableSettings,
        registry: HallMetrics,
        spectator_cap: int | None = None,
        access: TableAccess | None = None,
        chance: Chance | None = None,
    ) -> Room:
        """The core of a room reopened after a restart, from `Store.load_open_rooms`'
        record (pure). A room left `playing` must then be sent `Resume`: it re-arms the
        clocks of the deal in play, or starts the next deal."""
        reopened = reopened_room(record, now)
        room = cls(
            room_id=record.room_id,
            settings=reopened.settings,
            table_settings=table_settings,
            created_at=record.created_at.timestamp(),
            registry=registry,
            spectator_cap=spectator_cap,
            access=access,
            chance=chance,
        )
        room.now = now
        room.players = reopened.players
        room.running_scores = reopened.running_scores
        room.game = reopened.game
        room.host.reopen(reopened.host_events, reopened.host_event_count)
        room.banks.reopen(reopened.time_banks)
        if reopened.deal is not None or reopened.deal_due:
            room.deal = reopened.deal
            room.status = RoomStatus.PLAYING
        return room

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
            store_down=self.outage.down_since is not None,
            public=self.access.public,
            rules=self.settings.table_rules.to_json(),
        )
