"""One room's actor: the thin asyncio task that runs a `Room` core's effects.

The route of every change: a command arrives in the private mailbox (`tell`, or `ask`
for an answer), the actor hands it to `Room.handle(command, now)` (pure, synchronous,
server/rooms/room.py), and carries out the effects it returns, in order: sends, closes,
timers, answers, and store writes. A store write is always last in its list, and the
core hears its outcome before anything else happens, so nothing is broadcast before it
is saved. A write the table cannot go on without is retried through an outage with a
growing pause on the room's clock; the core is told `StoreFailed` and `StoreRestored`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from typing import Any, assert_never

from server.observability import bind_log_context
from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms.access import TableAccess
from server.rooms.clock import Clock, TimerHandle
from server.rooms.deal_in_play import DealInPlay
from server.rooms.effects import (
    ActionSettled,
    Cancel,
    CancelAll,
    Close,
    Effect,
    Persist,
    Refuse,
    Reply,
    Schedule,
    Send,
    StoreWrite,
)
from server.rooms.players import Player
from server.rooms.room import Room
from server.rooms.settings import TableSettings
from server.rooms.snapshot import RoomSnapshot, RoomStatus
from server.rooms.store_writes import make_write
from server.store import Store, StoreUnavailable
from server.store.leases import LeaseLostError

log = logging.getLogger(__name__)


class TableStopping(Exception):
    """The server shut down while a table waited for its store (the write is abandoned,
    unacknowledged: nobody was told of it, and the store still holds what came before)."""


class RoomActor:
    """Runs one room: takes its commands one at a time and carries out the core's effects."""

    def __init__(
        self, room: Room, *, store: Store, clock: Clock, table_settings: TableSettings
    ) -> None:
        self._room = room
        self._store = store
        self._clock = clock
        self._table_settings = table_settings
        self._registry: HallMetrics = room.registry
        self.room_id = room.room_id
        self.created_at = room.created_at
        self._mailbox: asyncio.Queue[cmd.Command] = asyncio.Queue()
        self._timers: dict[int, TimerHandle] = {}  # key -> armed timer
        self._outage_rounds = 0
        self._writing = False  # a store write is awaited right now
        self._bound_deal: int | None = None
        self._task: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    @classmethod
    def from_record(
        cls,
        record: Any,
        *,
        store: Store,
        clock: Clock,
        table_settings: TableSettings,
        registry: HallMetrics,
        spectator_cap: int | None = None,
        access: TableAccess | None = None,
    ) -> RoomActor:
        """The actor of a room reopened after a restart: `Room.from_record`, wrapped. A
        room left playing is sent `Resume` (it re-arms its clocks or deals the next deal)."""
        room = Room.from_record(
            record,
            now=clock.now(),
            table_settings=table_settings,
            registry=registry,
            spectator_cap=spectator_cap,
            access=access,
        )
        actor = cls(room, store=store, clock=clock, table_settings=table_settings)
        if room.status is RoomStatus.PLAYING:
            actor.tell(cmd.Resume())
        return actor

    # ----------------------------------------------------------------- the way in

    def tell(self, command: cmd.Command) -> None:
        """Leave `command` in the mailbox; the actor takes it after those already there."""
        self._mailbox.put_nowait(command)

    async def ask(self, make: Callable[[asyncio.Future[Any]], cmd.Request]) -> Any:
        """Send the command `make(reply)` and wait for the room's answer through `reply`
        (its refusal, such as RoomFullError, is raised here)."""
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.tell(make(reply))
        return await reply

    @property
    def has_mail(self) -> bool:
        """Whether the room has work in hand: commands in the mailbox, or a store write
        awaited (tests wait for a room to go quiet; a slow write under load once looked
        quiet, and a test read the table in the middle of a command)."""
        return self._writing or not self._mailbox.empty()

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> None:
        """Start the actor task (and the idle timer of a room nobody has joined yet)."""
        self._task = asyncio.create_task(self._run(), name=f"room-{self.room_id}")
        self._carry_out(self._room.opening())

    async def stop(self) -> None:
        """Stop for a server shutdown: connections close with 1012, the room stays open."""
        if self._task is None or self._task.done():
            return
        self.tell(cmd.Shutdown())
        await self._task

    async def _run(self) -> None:
        bind_log_context(room_id=self.room_id)  # every log line of this table names it
        while True:
            command = await self._mailbox.get()
            try:
                await self._deliver(command)
            except TableStopping:  # the server stopped while the table waited for its store
                self._carry_out(self._room.handle(cmd.Shutdown(), self._clock.now()))
                return
            except LeaseLostError as lost:  # another process owns the room (docs/scaling.md)
                log.warning("room %s stops here: %s", self.room_id, lost)
                # Its links close with 1012 and find the new owner; nothing was written.
                self._carry_out(self._room.handle(cmd.Shutdown(), self._clock.now()))
                self._cancel_timers()
                self.closed.set()  # the manager forgets it
                return
            if isinstance(command, cmd.Shutdown):
                return
            if self._room.status is RoomStatus.CLOSED:
                self._cancel_timers()
                self.closed.set()
                return

    async def _deliver(self, command: cmd.Command) -> None:
        """Hand `command` to the core; carry out its effects, and each write's sequel."""
        effects = self._room.handle(command, self._clock.now())
        while True:
            write = self._carry_out(effects)
            if write is None:
                break
            outcome = await self._persist(write)
            effects = self._room.handle(outcome, self._clock.now())
        deal = self._room.deal
        if deal is not None and deal.deal_id != self._bound_deal:
            self._bound_deal = deal.deal_id
            bind_log_context(deal_id=deal.deal_id)

    def _carry_out(self, effects: list[Effect]) -> StoreWrite | None:
        """Run every effect but a store write, which comes last and is returned."""
        for effect in effects:
            match effect:
                case Send(to=to, text=text):
                    for connection in to:
                        connection.push(text)
                case Close(connection=connection, code=code, reason=reason):
                    connection.close(code, reason)
                case Schedule(key=key, moment=moment, command=command):
                    self._arm(key, moment, command)
                case Cancel(key=key):
                    timer = self._timers.pop(key, None)
                    if timer is not None:
                        timer.cancel()
                case CancelAll():
                    self._cancel_timers()
                case Reply(answer=answer, value=value):
                    if not answer.done():
                        answer.set_result(value)
                case Refuse(answer=answer, error=error):
                    if not answer.done():
                        answer.set_exception(error)
                case ActionSettled(received_at=received_at):
                    self._registry.action_latency.observe(time.perf_counter() - received_at)
                case Persist(write=write):
                    assert effect is effects[-1], "a store write must come last"
                    return write
                case _:
                    assert_never(effect)
        return None

    # ----------------------------------------------------------------- timers

    def _arm(self, key: int, moment: float, command: cmd.Command) -> None:
        """Timers are kept by key, not by handle, and leave the map when they fire or are
        cancelled, so no reference cycle outlives a timer (docs/benchmarks.md, "Server
        load": at a thousand tables, cyclic garbage from timers cost 200 ms collections)."""
        self._timers[key] = self._clock.call_at(
            moment, functools.partial(self._timer_fired, key, command)
        )

    def _timer_fired(self, key: int, command: cmd.Command) -> None:
        if self._timers.pop(key, None) is not None:
            self._mailbox.put_nowait(command)

    def _cancel_timers(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # ----------------------------------------------------------------- the store

    async def _persist(self, write: StoreWrite) -> cmd.Command:
        """Make `write`; the command that tells the core how it went. A retried write is
        tried again, however long the store is down, each attempt bounded by a timeout."""
        failed = False
        while True:
            try:
                self._writing = True
                try:
                    if write.retried:
                        # A timeout scope, not `wait_for`: no task of its own on the hot path.
                        async with asyncio.timeout(self._table_settings.store_timeout_seconds):
                            value = await make_write(self._store, write, failed)
                    else:
                        value = await make_write(self._store, write, False)
                finally:
                    self._writing = False
            except (StoreUnavailable, TimeoutError) as error:
                if not write.retried:
                    return cmd.StoreRefused(error)
                reason = str(error) or type(error).__name__
                self._carry_out(self._room.handle(cmd.StoreFailed(reason), self._clock.now()))
                failed = True
                await self._wait_for_retry()
                continue
            except LeaseLostError:
                raise  # not an answer to the command: the table is no longer ours
            except Exception as error:
                self._outage_rounds = 0
                return cmd.StoreRefused(error)  # an answer, not an outage: the core resumes
            if failed:
                self._outage_rounds = 0
                self._carry_out(self._room.handle(cmd.StoreRestored(), self._clock.now()))
            return cmd.Persisted(value)

    async def _wait_for_retry(self) -> None:
        """Keep answering the mailbox (the core refuses what needs the store) until the
        next attempt is due: 0.25 s doubling to 4 s by default, on the room's clock."""
        self._outage_rounds += 1
        round_ = self._outage_rounds
        settings = self._table_settings
        pause = min(
            settings.store_retry_seconds * 2 ** (round_ - 1), settings.store_retry_max_seconds
        )
        # Negative keys: the core's own timer keys are positive.
        self._arm(-round_, self._clock.now() + pause, cmd.StoreRetry(round_))
        while True:
            command = await self._mailbox.get()
            if isinstance(command, cmd.StoreRetry):
                if command.round == round_:
                    return
            elif isinstance(command, cmd.Shutdown):
                raise TableStopping
            else:
                write = self._carry_out(self._room.handle(command, self._clock.now()))
                assert write is None, "a paused table starts no store write"

    # ----------------------------------------------------------------- reading

    def snapshot(self) -> RoomSnapshot:
        """The room as outsiders may read it (the dashboard, the metrics, the lobby)."""
        return self._room.snapshot()

    def public_room(self) -> dict[str, Any]:
        """The room object of `GET /api/rooms/{id}` (without the table)."""
        return self._room.public_room()

    def player_for_token(self, token: str) -> Player | None:
        """The human player holding `token`, if any (the socket's handshake asks)."""
        return self._room.player_for_token(token)

    # Read-only views of the core, for the manager and the tests; nothing outside the
    # core writes them.

    @property
    def access(self) -> TableAccess:
        """Who may reach the table (the HTTP and socket checks read it)."""
        return self._room.access

    @property
    def status(self) -> RoomStatus:
        """Where the room stands."""
        return self._room.status

    @property
    def players(self) -> list[Player]:
        """The seat-holders, by player index."""
        return self._room.players

    @property
    def deal(self) -> DealInPlay | None:
        """The deal on the table (or the last one, between deals)."""
        return self._room.deal

    @property
    def seq(self) -> int:
        """The table's version, as the last `state` sent showed it."""
        return self._room.seq

    @property
    def player_connections(self) -> dict[int, cmd.Connection]:
        """Player index -> its live link."""
        return self._room.player_connections

    @property
    def next_deal_at(self) -> float | None:
        """When the next deal starts, between deals."""
        return self._room.play.next_deal_at

    @property
    def deal_awaits_human(self) -> bool:
        """Whether the next deal waits for a human to connect."""
        return self._room.play.deal_awaits_human

    @property
    def store_down_since(self) -> float | None:
        """Since when the table waits for its store (None: it does not)."""
        return self._room.outage.down_since
