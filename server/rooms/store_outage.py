"""A table that outlives a database outage: its writes are retried, its clocks paused.

Every write a table cannot go on without (an action, a deal starting or ending, the room's
status) goes through `StoreOutage._saved`. When the store fails, the room keeps the write
it was making (the action is decided but not yet on the table), pauses its clocks, tells
everyone with a `notice`, and tries the same write again with a growing pause on the
room's own clock. Meanwhile the actor keeps answering its queue: links come and go,
actions and joins are refused with a clear error (they could not be saved), and timer
commands wait until the store is back. Once the write succeeds the clocks resume with the
time that was left and the table goes on from the very write that failed, so nothing is
lost and nothing is applied twice (each write recognises its own row if an earlier
attempt reached the database after all).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from server.engine import Action
from server.rooms import commands as cmd
from server.rooms.deal_in_play import DealInPlay, utc
from server.rooms.messages import error_message, notice_message
from server.rooms.room_state import RoomState
from server.rooms.snapshot import RoomStatus
from server.store import DealFinishedError, DuplicateRecordError, StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

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


class TableStopping(Exception):
    """The server shut down while a table waited for its store (the write is abandoned,
    unacknowledged: nobody was told of it, and the store still holds what came before)."""


class StoreOutage(RoomState):
    """The store-outage half of a room actor (see the module docstring)."""

    def __init__(self, **arguments: Any) -> None:
        super().__init__(**arguments)
        self._outage_rounds = 0
        self._deferred: list[cmd.Command] = []

    def _on_connect(self, connection: cmd.Connection) -> None:
        raise NotImplementedError  # the seats: RoomSeats

    def _on_disconnect(self, connection: cmd.Connection) -> None:
        raise NotImplementedError  # the seats: RoomSeats

    # ------------------------------------------------------------ the table's writes

    async def _log_action(
        self,
        deal: DealInPlay,
        action: Action,
        now: float,
        by_bot: bool,
        bot_reason: str | None,
    ) -> None:
        """Log `action` as the deal's next seq, decided at `now`; returns once it is saved."""
        seq, wire = deal.next_log_seq, action.to_json()

        async def already_logged() -> bool:
            logged = await self.store.action_logged(deal.deal_id, seq)
            if logged is not None and logged != (action.seat, wire):
                raise DuplicateRecordError(f"deal {deal.deal_id} seq {seq} holds another action")
            if logged is not None:
                log.info("room %s: action %d was saved by an earlier attempt", self.room_id, seq)
            return logged is not None

        async def append(retry: bool) -> None:
            # After a failure the failed attempt may have committed after all (its
            # connection dropped just after), or may still commit (a write timed out).
            if retry and await already_logged():
                return
            try:
                await self.store.append_action(
                    deal.deal_id,
                    seq,
                    action.seat,
                    wire,
                    utc(now),
                    by_bot,
                    bot_reason,
                    max(0.0, deal.deadline - now),
                )
            except DuplicateRecordError:
                if not (retry and await already_logged()):
                    raise

        await self._saved(append, now)

    async def _store_deal(
        self,
        deal_no: int,
        dealt: dict[str, Any],
        seed: int,
        seat_players: dict[str, int],
        now: float,
    ) -> int:
        """Store a new deal of game 1; returns its id once it is saved."""

        async def store(retry: bool) -> int:
            if retry:
                found = await self.store.find_deal(self.room_id, 1, deal_no)
                if found is not None and found[1] == seed:
                    return found[0]  # the failed attempt had committed after all
            return await self.store.start_deal(
                self.room_id,
                1,
                deal_no,
                self.settings.variant,
                dealt,
                seed,
                seat_players,
                utc(now),
                self.settings.deal_seconds,
            )

        return await self._saved(store, now)

    async def _store_result(
        self, deal_id: int, result: dict[str, Any], now: float, player_scores: dict[int, int]
    ) -> None:
        """Store a finished deal's result and scores; returns once they are saved."""

        async def store(retry: bool) -> None:
            try:
                await self.store.finish_deal(deal_id, result, utc(now), player_scores)
            except DealFinishedError:
                if not retry:
                    raise  # else the failed attempt had committed after all

        await self._saved(store, now)

    async def _store_status(self, status: RoomStatus, now: float) -> None:
        """Store the room's status (the same write twice is harmless)."""
        await self._saved(
            lambda _retry: self.store.set_room_status(self.room_id, status.value), now
        )

    # ------------------------------------------------------------ outages

    async def _saved(self, write: Callable[[bool], Awaitable[T]], since: float) -> T:
        """`write(retry)`'s answer once it succeeds, however long the store is down.

        `since` is when the table decided on this write: an outage pauses the clocks from
        then. `write` is called with `retry=True` after a failure, when it must first look
        for its own row (an attempt may have committed just before its connection broke).
        """
        retry = False
        while True:
            try:
                # A timeout scope, not `wait_for`: no task of its own on the hot path.
                async with asyncio.timeout(self.table_settings.store_timeout_seconds):
                    saved = await write(retry)
            except (StoreUnavailable, TimeoutError) as error:
                if self.store_down_since is None:
                    self._pause_for_store(since, error)
                else:
                    log.info("room %s: the store is still unavailable (%s)", self.room_id, error)
                retry = True
                await self._wait_for_retry()
                continue
            except Exception:
                # The store answered, with a refusal: the table must not stay paused.
                if self.store_down_since is not None:
                    self._resume_after_store()
                raise
            if self.store_down_since is not None:
                self._resume_after_store()
            return saved

    def _pause_for_store(self, since: float, error: BaseException) -> None:
        log.warning(
            "room %s: the store is unavailable, the table pauses until it is back: %s",
            self.room_id,
            str(error) or type(error).__name__,
        )
        self.store_down_since = since
        for cancel in self._turn_timers.values():
            cancel()
        self._turn_timers.clear()
        self.seq += 1
        self._broadcast(bumped=True)  # no deadlines and no legal actions while paused
        self._send_all(notice_message("store_unavailable", STORE_DOWN_TEXT))

    def _resume_after_store(self) -> None:
        """Start the clocks again with the time they had left when the table paused."""
        assert self.store_down_since is not None
        paused = self.clock.now() - self.store_down_since
        self.store_down_since = None
        self._outage_rounds = 0
        log.warning("room %s: the store is back after %.1f s", self.room_id, paused)
        self._shift_clocks(paused)
        self._send_all(notice_message("store_restored", STORE_BACK_TEXT))
        for command in self._deferred:
            self.tell(command)
        self._deferred.clear()

    async def _wait_for_retry(self) -> None:
        """Answer the queue as a paused table until the next attempt is due."""
        self._outage_rounds += 1
        round_ = self._outage_rounds
        settings = self.table_settings
        pause = min(
            settings.store_retry_seconds * 2 ** (round_ - 1), settings.store_retry_max_seconds
        )
        self._schedule(self.clock.now() + pause, cmd.StoreRetry(round_))
        while True:
            command = await self._mailbox.get()
            if isinstance(command, cmd.StoreRetry):
                if command.round == round_:
                    return
            elif isinstance(command, cmd.Shutdown):
                raise TableStopping
            else:
                self._while_store_down(command)

    def _while_store_down(self, command: cmd.Command) -> None:
        if isinstance(command, cmd.Connect):
            self._on_connect(command.connection)
            command.connection.push(notice_message("store_unavailable", STORE_DOWN_TEXT))
        elif isinstance(command, cmd.Disconnect):
            self._on_disconnect(command.connection)
        elif isinstance(
            command, (cmd.PlayerAction, cmd.NextDealReady, cmd.HintRequest, cmd.HostCommand)
        ):
            command.connection.push(
                error_message("store_unavailable", NOT_SAVED_TEXT, command.message_id)
            )
        elif isinstance(command, (cmd.Join, cmd.AddBots)):
            if not command.reply.done():
                command.reply.set_exception(StoreUnavailable(NOT_SAVED_TEXT))
        elif isinstance(command, _TIMER_COMMANDS):
            self._deferred.append(command)
