"""One room's actor: the single asyncio task that owns a table and everything that changes it.

Like a Lichess round actor, every change takes the same road: a command arrives on the
queue, the actor validates it, applies it in the engine, logs it in the store BEFORE anyone
hears of it, then sends each connection its own view with the next `seq`. Nothing else
touches the table, so no lock is needed and every client sees the same order of changes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, assert_never

from server.bots import choose_action
from server.engine import (
    Action,
    ActionFormatError,
    DealSettings,
    IllegalActionError,
    apply,
    new_deal,
    view,
)
from server.observability import bind_log_context
from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms import seating
from server.rooms.access import TableAccess
from server.rooms.clock import Clock
from server.rooms.deal_in_play import DealInPlay
from server.rooms.hints import answer_hint, hints_used, move_reason
from server.rooms.messages import encode, epoch_ms, error_message
from server.rooms.players import (
    NameTakenError,
    RoomClosedError,
    RoomFullError,
)
from server.rooms.reopening import reopened_room
from server.rooms.room_seats import CLOSE_SERVICE_RESTART
from server.rooms.settings import TableSettings
from server.rooms.snapshot import RoomStatus
from server.rooms.store_outage import TableStopping
from server.rooms.time_bank import TimeBanks
from server.store import Store, StoreUnavailable
from server.store.leases import LeaseLostError

log = logging.getLogger(__name__)


class RoomActor(TimeBanks):
    """Owns one room: every command that changes it runs here, one at a time (see RoomState);
    seats and connections are handled in RoomSeats."""

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> None:
        """Start the actor task (and the idle timer of a room nobody has joined yet)."""
        self._task = asyncio.create_task(self._run(), name=f"room-{self.room_id}")
        if self.idle_since is not None and not self._has_connections():
            self._schedule(
                self.idle_since + self.table_settings.idle_close_seconds,
                cmd.IdleCheck(self.idle_since),
            )

    async def stop(self) -> None:
        """Stop for a server shutdown: connections close with 1012, the room stays open in the store."""
        if self._task is None or self._task.done():
            return
        self.tell(cmd.Shutdown())
        await self._task

    async def ask(self, make: Callable[[asyncio.Future[Any]], cmd.Request]) -> Any:
        """Send the command `make(reply)` and wait for the room's answer through `reply`
        (its refusal, such as RoomFullError, is raised here)."""
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.tell(make(reply))
        return await reply

    async def _run(self) -> None:
        bind_log_context(room_id=self.room_id)  # every log line of this table names it
        while True:
            command = await self._mailbox.get()
            if isinstance(command, cmd.Shutdown):
                self._stop_for_shutdown()
                return
            reply = command.reply if isinstance(command, cmd.Join | cmd.AddBots) else None
            try:
                await self._handle(command)
            except TableStopping:  # the server stopped while the table waited for its store
                if reply is not None and not reply.done():
                    reply.set_exception(StoreUnavailable("the server stopped"))
                self._stop_for_shutdown()
                return
            except LeaseLostError as lost:  # another process owns the room (docs/scaling.md)
                log.warning("room %s stops here: %s", self.room_id, lost)
                if reply is not None and not reply.done():
                    reply.set_exception(lost)
                self._stop_for_shutdown()  # its links close with 1012 and find the new owner
                self.closed.set()  # the manager forgets it; nothing was written
                return
            except (RoomFullError, NameTakenError, RoomClosedError, StoreUnavailable) as refusal:
                if reply is not None and not reply.done():
                    reply.set_exception(refusal)  # an ordinary "no" to join or bots
            except Exception as error:  # one bad command must never take the table down
                log.exception("room %s: %r failed", self.room_id, command)
                if reply is not None and not reply.done():
                    reply.set_exception(error)
            if self.status is RoomStatus.CLOSED:
                self._cancel_timers()
                self.closed.set()
                return

    def _stop_for_shutdown(self) -> None:
        self._close_connections(CLOSE_SERVICE_RESTART, "server restarting")
        self._cancel_timers()

    async def _handle(self, command: cmd.Command) -> None:
        match command:
            case cmd.Connect(connection=connection):
                self._on_connect(connection)
            case cmd.Disconnect(connection=connection):
                self._on_disconnect(connection)
            case cmd.PlayerAction():
                await self._on_player_action(command)
            case cmd.NextDealReady():
                await self._on_next_deal_ready(command)
            case cmd.HintRequest(connection=connection, message_id=message_id):  # issue 18
                answer_hint(self, connection, message_id)
            case cmd.HostCommand():
                await self._on_host_command(command)
            case cmd.Join():
                await self._on_join(command)
            case cmd.AddBots():
                await self._on_add_bots(command)
            case cmd.TurnTimeout(seat=seat, token=token):
                await self._on_turn_timer(seat, token, "timeout")
            case cmd.BotTurn(seat=seat, token=token):
                await self._on_turn_timer(seat, token, None)
            case cmd.DealTimeout(deal_id=deal_id):
                await self._on_deal_timeout(deal_id)
            case cmd.NextDealDue(after_deal_no=after_deal_no):
                deal = self.deal
                # While paused the next deal waits; resuming schedules it again.
                if (
                    deal is not None
                    and deal.deal_no == after_deal_no
                    and deal.ended
                    and self.pause is None
                    and not self._hold_for_humans()
                ):
                    await self._start_next_deal()
            case cmd.Resume():
                await self._on_resume()
            case cmd.IdleCheck(idle_since=idle_since):
                await self._on_idle_check(idle_since)
            case cmd.Shutdown() | cmd.StoreRetry():
                pass  # Shutdown ends `_run` first; a retry round outlived by its outage
            case _:
                assert_never(command)

    # ----------------------------------------------------------------- actions

    async def _on_player_action(self, command: cmd.PlayerAction) -> None:
        connection = command.connection

        def refuse(code: str, text: str) -> None:
            connection.push(error_message(code, text, command.message_id))

        if connection.player_index is None:
            refuse("spectator", "spectators cannot act")
            return
        if self.player_connections.get(connection.player_index) is not connection:
            refuse("not_legal", "this connection no longer holds the seat")
            return
        deal = self.deal
        if deal is None or deal.ended:
            refuse("no_deal", "no deal is in progress")
            return
        if self.pause is not None:
            refuse("paused", "the table is paused")
            return
        seat = deal.seat_of(connection.player_index)
        assert seat is not None
        try:
            action = Action.from_json(command.action, seat=seat)
        except (ActionFormatError, TypeError, ValueError) as error:
            refuse("bad_action", str(error)[:300])
            return
        if action not in self.legal_now(seat):
            refuse(
                "not_legal",
                f"{json.dumps(command.action)[:200]} is not one of your legal actions now",
            )
            return
        try:
            # issue 18: a move after a hint is logged as such (by_bot stays false).
            await self._play(action, by_bot=False, bot_reason=move_reason(deal, seat))
        except IllegalActionError as error:
            refuse("not_legal", str(error))
            return
        self.registry.action_latency.observe(time.perf_counter() - command.received_at)

    async def _on_turn_timer(self, seat: str, token: int, reason: str | None) -> None:
        deal = self.deal
        if deal is None or deal.ended or deal.turns.get(seat, (0, -1))[1] != token:
            return  # superseded: the seat already acted, or the deal moved on
        if self.pause is not None:
            return  # resuming arms fresh timers with the time that was left
        player_index = deal.seat_players[seat]
        if reason is None:
            if not self.is_covered(player_index):
                return  # the human came back before the bot moved
            reason = "bot_seat" if self.players[player_index].is_bot else "disconnected"
        legal = self.legal_now(seat)
        if not legal:
            return
        if (
            reason == "timeout"
            and not self.is_covered(player_index)
            and self._draw_time_bank(seat, player_index)
        ):
            return  # the bank's seconds first; the bot steps in when they run out too
        try:
            level = (
                self.bot_level_of(player_index)
                if self.players[player_index].is_bot
                else self.table_settings.bot_level
            )
            action = choose_action(
                view(deal.state, seat), legal, level, deal.state.settings.table_rules
            )
            if action not in legal:
                raise ValueError(f"bot chose {action} outside legal")
        except Exception:  # a bot bug must not stall the table: take the safest legal move
            log.exception("room %s: bot failed for seat %s", self.room_id, seat)
            action = next((a for a in legal if a.type == "pass"), legal[0])
        if reason in ("timeout", "disconnected"):
            self.registry.bot_takeovers.inc(reason=reason)
            if reason == "timeout":
                self.registry.timeouts.inc()
            log.info("bot plays seat %s of deal %s (%s)", seat, deal.deal_id, reason)
        await self._play(
            action.with_seat(seat) if action.seat is None else action,
            by_bot=True,
            bot_reason=reason,
        )

    async def _on_deal_timeout(self, deal_id: int) -> None:
        deal = self.deal
        if deal is None or deal.ended or deal.deal_id != deal_id or self.pause is not None:
            return
        if self.clock.now() < deal.deadline:
            return  # armed before an outage moved the deadline on; a later timer is set
        await self._play(Action("timeout"), by_bot=False, bot_reason=None)

    async def _play(self, action: Action, *, by_bot: bool, bot_reason: str | None) -> None:
        """Apply `action`, log it, then tell everyone. Raises IllegalActionError, changing nothing."""
        deal = self.deal
        assert deal is not None
        new_state, _events = apply(deal.state, action)
        now = self.clock.now()
        await self._log_action(deal, action, now, by_bot, bot_reason)
        deal.next_log_seq += 1
        deal.state = new_state
        self.registry.actions.inc(by="bot" if by_bot else "human" if action.seat else "clock")
        await self._table_changed()

    async def _table_changed(self) -> None:
        """After the deal state moved: end the deal, or re-arm the clocks; then broadcast."""
        deal = self.deal
        assert deal is not None
        self._return_unused_banks()
        if deal.state.is_over:
            await self._finish_deal()
            return
        self._rearm_turn_timers()
        self.seq += 1
        self._broadcast(bumped=True)
        self._hand_covered_turns_to_bots()

    # ----------------------------------------------------------------- deals

    async def _start_next_deal(self) -> None:
        if self.status.is_over:
            return
        if self.status is RoomStatus.WAITING:
            await self._store_status(RoomStatus.PLAYING, self.clock.now())
            self.status = RoomStatus.PLAYING
        seat_players = seating.seat_players(self.game)
        round_wind = self.game.round_wind
        seed = secrets.randbits(62)
        rules = self.settings.table_rules
        deal_settings = DealSettings(
            variant=self.settings.variant, round_wind=round_wind, rules=rules
        )
        state = new_deal(deal_settings, seed)
        now = self.clock.now()
        deal_no = self.game.deal_number + 1
        dealt = {
            "variant": self.settings.variant,
            "round_wind": round_wind,
            "dealer_player": self.game.player_at("E"),
            "dealer_passes": self.game.passes,
            "rules": rules.to_json(),  # each stored deal says which rules it was played by
        }
        deal_id = await self._store_deal(deal_no, dealt, seed, seat_players, now)
        now = self.clock.now()  # later than the deal's start if the store was down
        self.deal = DealInPlay(
            deal_id=deal_id,
            deal_no=deal_no,
            seed=seed,
            seat_players=seat_players,
            state=state,
            deadline=now + self.settings.deal_seconds,
        )
        bind_log_context(deal_id=deal_id)
        log.info("deal %s starts (deal %d of the game)", deal_id, deal_no)
        self.ready_for_next.clear()
        self.human_since_deal = any(
            not self.players[index].is_bot for index in self.player_connections
        )
        self.deal_awaits_human = False
        self.next_deal_at = None
        self._schedule(self.deal.deadline, cmd.DealTimeout(deal_id))
        await self._table_changed()

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
        """The actor of a room reopened after a restart, from its store record.

        A deal in play is replayed; its clocks are re-armed by the actor itself when it takes
        the `Resume` command (a fresh turn timer for each pending seat, the deal timer with
        the time that was left). Between deals, `Resume` starts the next deal.
        """
        reopened = reopened_room(record, clock.now())
        actor = cls(
            room_id=record.room_id,
            settings=reopened.settings,
            store=store,
            clock=clock,
            table_settings=table_settings,
            created_at=record.created_at.timestamp(),
            registry=registry,
            spectator_cap=spectator_cap,
            access=access,
        )
        actor.players = reopened.players
        actor.running_scores = reopened.running_scores
        actor.game = reopened.game
        if reopened.deal is not None or reopened.deal_due:
            actor.deal = reopened.deal
            actor.status = RoomStatus.PLAYING
            actor.tell(cmd.Resume())
        return actor

    def _hold_for_humans(self) -> bool:
        """Whether the next deal waits: no human has been connected since the last deal
        began (or, reopened, since the restart). A human connecting starts it."""
        if not self.table_settings.hold_deals_without_humans or self.human_since_deal:
            return False
        if not self.deal_awaits_human:
            log.info("room %s: no human since the deal began; the next deal waits", self.room_id)
        self.deal_awaits_human = True
        return True

    async def _on_resume(self) -> None:
        deal = self.deal
        if deal is None:
            if not self._hold_for_humans():
                await self._start_next_deal()
            return
        bind_log_context(deal_id=deal.deal_id)
        self._schedule(deal.deadline, cmd.DealTimeout(deal.deal_id))
        await self._table_changed()

    async def _finish_deal(self) -> None:
        deal = self.deal
        assert deal is not None
        result = deal.state.result
        now = self.clock.now()
        player_scores = {
            deal.seat_players[seat]: int(net) for seat, net in result.get("scores", {}).items()
        }
        await self._store_result(deal.deal_id, result, now, player_scores)
        now = self.clock.now()
        self.registry.deal_outcomes.inc(
            variant=self.settings.variant, outcome=str(result["outcome"])
        )
        log.info("deal %s ends: %s", deal.deal_id, result["outcome"])
        deal.ended = True
        deal.turns = {}
        for index, net in player_scores.items():
            self.running_scores[index] = self.running_scores.get(index, 0) + net
        seating.record_result(self.game, result)
        game_over = self.game.is_finished
        if game_over:
            self.status = RoomStatus.FINISHED
            await self._store_status(RoomStatus.FINISHED, now)
        else:
            self.next_deal_at = now + self.table_settings.next_deal_seconds
            self._schedule(self.next_deal_at, cmd.NextDealDue(deal.deal_no))
        self.seq += 1
        self._broadcast(bumped=True)
        names = self._names()
        result_message = {
            "type": "result",
            "seq": self.seq,
            "deal_no": deal.deal_no,
            **result,
            "seat_players": {seat: names[index] for seat, index in deal.seat_players.items()},
            "running_scores": self._scores_by_name(),
            "game_over": game_over,
            "next_deal_at": epoch_ms(self.next_deal_at),
            "hints": hints_used(deal),  # issue 18: shown to everyone
        }
        self.last_result = result_message
        self._send_all(encode(result_message))

    async def _on_next_deal_ready(self, command: cmd.NextDealReady) -> None:
        connection = command.connection
        if connection.player_index is None:
            connection.push(
                error_message("spectator", "spectators cannot start deals", command.message_id)
            )
            return
        if self.deal is None or not self.deal.ended or self.status is not RoomStatus.PLAYING:
            connection.push(
                error_message("no_deal", "no deal is waiting to start", command.message_id)
            )
            return
        if self.pause is not None:
            connection.push(error_message("paused", "the table is paused", command.message_id))
            return
        self.ready_for_next.add(connection.player_index)
        humans = {index for index in self.player_connections if not self.players[index].is_bot}
        if humans <= self.ready_for_next:
            await self._start_next_deal()
