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
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any

from server.bots import choose_action
from server.engine import (
    Action,
    ActionFormatError,
    DealSettings,
    IllegalActionError,
    apply,
    legal_actions,
    new_deal,
    pending_seats,
    view,
)
from server.observability import bind_log_context, metrics
from server.rooms import commands as cmd
from server.rooms.clock import Clock
from server.rooms.messages import epoch_ms, error_message, room_json, state_message
from server.rooms.players import (
    NameTakenError,
    Player,
    RoomClosedError,
    RoomFullError,
    bot_name,
)
from server.rooms.seating import GameProgress
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store, hash_token

log = logging.getLogger(__name__)

CLOSE_REPLACED = 4409
CLOSE_ROOM_CLOSED = 4410
CLOSE_GOING_AWAY = 1001
# A server shutdown (SIGTERM): "service restart", so clients know to reconnect shortly.
CLOSE_SERVICE_RESTART = 1012


class DealInPlay:
    """The deal on the table: engine state plus what the room logs and times about it."""

    def __init__(
        self,
        *,
        deal_id: int,
        deal_no: int,
        seed: int,
        seat_players: dict[str, int],
        state: Any,
        deadline: float,
        next_log_seq: int = 1,
    ) -> None:
        self.deal_id = deal_id
        self.deal_no = deal_no
        self.seed = seed
        self.seat_players = seat_players
        self.state = state
        self.deadline = deadline
        self.next_log_seq = next_log_seq
        self.ended = False
        # seat -> (deadline, timer token) of the decision it owes now.
        self.turns: dict[str, tuple[float, int]] = {}
        self.decision_key: tuple[Any, ...] | None = None

    def seat_of(self, player_index: int) -> str | None:
        """The seat `player_index` holds in this deal."""
        for seat, index in self.seat_players.items():
            if index == player_index:
                return seat
        return None


def utc(moment: float) -> datetime:
    """Epoch seconds as the store's timezone-aware UTC datetime."""
    return datetime.fromtimestamp(moment, tz=UTC)


class RoomActor:
    """Owns one room: its players, connections, the deal in play, clocks and bot takeover."""

    def __init__(
        self,
        *,
        room_id: str,
        settings: RoomSettings,
        store: Store,
        clock: Clock,
        table_settings: TableSettings,
        created_at: float,
    ) -> None:
        self.room_id = room_id
        self.settings = settings
        self.store = store
        self.clock = clock
        self.table_settings = table_settings
        self.created_at = created_at
        self.status = "waiting"
        self.players: list[Player] = []
        self.running_scores: dict[int, int] = {}
        self.progress = GameProgress(variant=settings.variant, rounds=settings.rounds)
        self.deal: DealInPlay | None = None
        self.seq = 0
        self.player_connections: dict[int, cmd.Connection] = {}
        self.spectators: set[cmd.Connection] = set()
        self.ready_for_next: set[int] = set()
        self.next_deal_at: float | None = None
        self.idle_since: float | None = created_at
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self._timers: set[asyncio.Task[None]] = set()
        self._tokens = iter(range(1, 1 << 62))
        self._task: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

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
        await self.queue.put(cmd.Shutdown())
        await self._task

    async def _run(self) -> None:
        bind_log_context(room_id=self.room_id)  # every log line of this table names it
        while True:
            command = await self.queue.get()
            if isinstance(command, cmd.Shutdown):
                self._close_connections(CLOSE_SERVICE_RESTART, "server restarting")
                self._cancel_timers()
                return
            try:
                await self._handle(command)
            except Exception as error:  # one bad command must never take the table down
                log.exception("room %s: %r failed", self.room_id, command)
                reply = getattr(command, "reply", None)
                if reply is not None and not reply.done():
                    reply.set_exception(error)
            if self.status == "closed":
                self._cancel_timers()
                self.closed.set()
                return

    async def _handle(self, command: Any) -> None:
        if isinstance(command, cmd.Connect):
            self._on_connect(command.connection)
        elif isinstance(command, cmd.Disconnect):
            self._on_disconnect(command.connection)
        elif isinstance(command, cmd.PlayerAction):
            await self._on_player_action(command)
        elif isinstance(command, cmd.NextDealReady):
            await self._on_next_deal_ready(command)
        elif isinstance(command, cmd.Join):
            await self._on_join(command)
        elif isinstance(command, cmd.AddBots):
            await self._on_add_bots(command)
        elif isinstance(command, cmd.TurnTimeout):
            await self._on_turn_timer(command.seat, command.token, "timeout")
        elif isinstance(command, cmd.BotTurn):
            await self._on_turn_timer(command.seat, command.token, None)
        elif isinstance(command, cmd.DealTimeout):
            await self._on_deal_timeout(command.deal_id)
        elif isinstance(command, cmd.NextDealDue):
            if (
                self.deal is not None
                and self.deal.deal_no == command.after_deal_no
                and self.deal.ended
            ):
                await self._start_next_deal()
        elif isinstance(command, cmd.Resume):
            await self._on_resume()
        elif isinstance(command, cmd.IdleCheck):
            await self._on_idle_check(command.idle_since)

    # ----------------------------------------------------------------- seats

    async def _on_join(self, command: cmd.Join) -> None:
        if self.status in ("finished", "closed"):
            raise RoomClosedError("the room has closed")
        if len(self.players) >= len(self.settings.seats) or self.status != "waiting":
            raise RoomFullError("every seat is taken")
        if any(player.name.casefold() == command.name.casefold() for player in self.players):
            raise NameTakenError(f"the name {command.name!r} is already seated here")
        token = secrets.token_urlsafe(24)
        player = Player(len(self.players), command.name, hash_token(token), is_bot=False)
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
        if self.status in ("finished", "closed"):
            raise RoomClosedError("the room has closed")
        if len(self.players) >= len(self.settings.seats) or self.status != "waiting":
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

    def player_for_token(self, token: str) -> Player | None:
        """The human player holding `token`, if any."""
        hashed = hash_token(token)
        return next((player for player in self.players if player.token_hash == hashed), None)

    # ----------------------------------------------------------------- connections

    def _on_connect(self, connection: cmd.Connection) -> None:
        if self.status == "closed":
            connection.close(CLOSE_ROOM_CLOSED, "room closed")
            return
        self.idle_since = None
        index = connection.player_index
        if index is None:
            self.spectators.add(connection)
            connection.push(self._state_for(None))
            return
        older = self.player_connections.get(index)
        if older is not None:
            older.close(CLOSE_REPLACED, "replaced by a newer connection")
        self.player_connections[index] = connection
        self.seq += 1
        self._broadcast(bumped=True)

    def _on_disconnect(self, connection: cmd.Connection) -> None:
        index = connection.player_index
        if index is None:
            self.spectators.discard(connection)
        elif self.player_connections.get(index) is connection:
            del self.player_connections[index]
            self.seq += 1
            self._broadcast(bumped=True)
            self._hand_covered_turns_to_bots()
        if not self._has_connections() and self.idle_since is None:
            self.idle_since = self.clock.now()
            self._schedule(
                self.idle_since + self.table_settings.idle_close_seconds,
                cmd.IdleCheck(self.idle_since),
            )

    def _has_connections(self) -> bool:
        return bool(self.player_connections) or bool(self.spectators)

    def is_covered(self, player_index: int) -> bool:
        """Whether the player's bot plays the seat now: a bot, or a human with no live connection."""
        return self.players[player_index].is_bot or player_index not in self.player_connections

    async def _on_idle_check(self, idle_since: float) -> None:
        if self.idle_since != idle_since or self._has_connections():
            return
        log.info(
            "room %s: no connection for %.0f s, closing",
            self.room_id,
            self.table_settings.idle_close_seconds,
        )
        await self.store.set_room_status(self.room_id, "closed")
        self.status = "closed"
        self._close_connections(CLOSE_ROOM_CLOSED, "room closed")

    def _close_connections(self, code: int, reason: str) -> None:
        for connection in [*self.player_connections.values(), *self.spectators]:
            connection.close(code, reason)
        self.player_connections.clear()
        self.spectators.clear()

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
        seat = deal.seat_of(connection.player_index)
        assert seat is not None
        try:
            action = Action.from_json(command.action, seat=seat)
        except (ActionFormatError, TypeError, ValueError) as error:
            refuse("bad_action", str(error)[:300])
            return
        if action not in legal_actions(deal.state, seat):
            refuse(
                "not_legal",
                f"{json.dumps(command.action)[:200]} is not one of your legal actions now",
            )
            return
        try:
            await self._play(action, by_bot=False, bot_reason=None)
        except IllegalActionError as error:
            refuse("not_legal", str(error))
            return
        metrics.action_latency.observe(time.perf_counter() - command.received_at)

    async def _on_turn_timer(self, seat: str, token: int, reason: str | None) -> None:
        deal = self.deal
        if deal is None or deal.ended or deal.turns.get(seat, (0, -1))[1] != token:
            return  # superseded: the seat already acted, or the deal moved on
        player_index = deal.seat_players[seat]
        if reason is None:
            if not self.is_covered(player_index):
                return  # the human came back before the bot moved
            reason = "bot_seat" if self.players[player_index].is_bot else "disconnected"
        legal = legal_actions(deal.state, seat)
        if not legal:
            return
        try:
            action = choose_action(view(deal.state, seat), legal, self.table_settings.bot_level)
            if action not in legal:
                raise ValueError(f"bot chose {action} outside legal")
        except Exception:  # a bot bug must not stall the table: take the safest legal move
            log.exception("room %s: bot failed for seat %s", self.room_id, seat)
            action = next((a for a in legal if a.type == "pass"), legal[0])
        if reason in ("timeout", "disconnected"):
            metrics.bot_takeovers.inc(reason=reason)
            if reason == "timeout":
                metrics.timeouts.inc()
            log.info("bot plays seat %s of deal %s (%s)", seat, deal.deal_id, reason)
        await self._play(
            action.with_seat(seat) if action.seat is None else action,
            by_bot=True,
            bot_reason=reason,
        )

    async def _on_deal_timeout(self, deal_id: int) -> None:
        deal = self.deal
        if deal is None or deal.ended or deal.deal_id != deal_id:
            return
        await self._play(Action("timeout"), by_bot=False, bot_reason=None)

    async def _play(self, action: Action, *, by_bot: bool, bot_reason: str | None) -> None:
        """Apply `action`, log it, then tell everyone. Raises IllegalActionError, changing nothing."""
        deal = self.deal
        assert deal is not None
        new_state, _events = apply(deal.state, action)
        now = self.clock.now()
        await self.store.append_action(
            deal.deal_id,
            deal.next_log_seq,
            action.seat,
            action.to_json(),
            utc(now),
            by_bot,
            bot_reason,
            max(0.0, deal.deadline - now),
        )
        deal.next_log_seq += 1
        deal.state = new_state
        metrics.actions.inc(by="bot" if by_bot else "human" if action.seat else "clock")
        await self._table_changed()

    async def _table_changed(self) -> None:
        """After the deal state moved: end the deal, or re-arm the clocks; then broadcast."""
        deal = self.deal
        assert deal is not None
        if deal.state.is_over:
            await self._finish_deal()
            return
        self._rearm_turn_timers()
        self.seq += 1
        self._broadcast(bumped=True)
        self._hand_covered_turns_to_bots()

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
            self._schedule(deadline, cmd.TurnTimeout(seat, token))
        deal.turns = turns

    def _hand_covered_turns_to_bots(self) -> None:
        deal = self.deal
        if deal is None or deal.ended:
            return
        for seat, (_, token) in deal.turns.items():
            if self.is_covered(deal.seat_players[seat]):
                self._schedule(
                    self.clock.now() + self.table_settings.bot_delay, cmd.BotTurn(seat, token)
                )

    def _schedule(self, moment: float, command: Any) -> None:
        """Put `command` on the queue once the clock reaches `moment`."""

        async def fire() -> None:
            await self.clock.sleep_until(moment)
            await self.queue.put(command)

        self._spawn(fire())

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    def _cancel_timers(self) -> None:
        for task in list(self._timers):
            task.cancel()
        self._timers.clear()

    # ----------------------------------------------------------------- deals

    async def _start_next_deal(self) -> None:
        if self.status in ("finished", "closed"):
            return
        if self.status == "waiting":
            self.status = "playing"
            await self.store.set_room_status(self.room_id, "playing")
        seat_players = self.progress.seat_players()
        round_wind = self.progress.round_wind
        seed = secrets.randbits(62)
        deal_settings = DealSettings(variant=self.settings.variant, round_wind=round_wind)
        state = new_deal(deal_settings, seed)
        now = self.clock.now()
        deal_no = self.progress.deals_played + 1
        deal_id = await self.store.start_deal(
            self.room_id,
            1,
            deal_no,
            self.settings.variant,
            {
                "variant": self.settings.variant,
                "round_wind": round_wind,
                "dealer_player": self.progress.dealer_player,
                "dealer_passes": self.progress.dealer_passes,
            },
            seed,
            seat_players,
            utc(now),
            self.settings.deal_seconds,
        )
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
        self.next_deal_at = None
        self._schedule(self.deal.deadline, cmd.DealTimeout(deal_id))
        await self._table_changed()

    def resume_deal(self, deal: DealInPlay) -> None:
        """Put a deal rebuilt from the store back on the table (crash recovery).

        The clocks are re-armed by the actor itself when it takes the `Resume` command: a
        fresh turn timer for each pending seat, the deal timer with the time that was left.
        """
        self.deal = deal
        self.status = "playing"
        self.queue.put_nowait(cmd.Resume())

    async def _on_resume(self) -> None:
        deal = self.deal
        if deal is None:
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
        await self.store.finish_deal(deal.deal_id, result, utc(now), player_scores)
        metrics.deal_outcomes.inc(variant=self.settings.variant, outcome=str(result["outcome"]))
        log.info("deal %s ends: %s", deal.deal_id, result["outcome"])
        deal.ended = True
        deal.turns = {}
        for index, net in player_scores.items():
            self.running_scores[index] = self.running_scores.get(index, 0) + net
        self.progress.finish_deal(deal.seat_players, result.get("next_dealer") or "E")
        game_over = self.progress.game_over
        if game_over:
            self.status = "finished"
            await self.store.set_room_status(self.room_id, "finished")
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
        }
        self._send_all(json.dumps(result_message, separators=(",", ":")))

    async def _on_next_deal_ready(self, command: cmd.NextDealReady) -> None:
        connection = command.connection
        if connection.player_index is None:
            connection.push(
                error_message("spectator", "spectators cannot start deals", command.message_id)
            )
            return
        if self.deal is None or not self.deal.ended or self.status != "playing":
            connection.push(
                error_message("no_deal", "no deal is waiting to start", command.message_id)
            )
            return
        self.ready_for_next.add(connection.player_index)
        humans = {index for index in self.player_connections if not self.players[index].is_bot}
        if humans <= self.ready_for_next:
            await self._start_next_deal()

    # ----------------------------------------------------------------- broadcasting

    def _names(self) -> dict[int, str]:
        return {player.player_index: player.name for player in self.players}

    def _scores_by_name(self) -> dict[str, int]:
        names = self._names()
        return {names[index]: score for index, score in sorted(self.running_scores.items())}

    def public_room(self) -> dict[str, Any]:
        """The room object of every `state`, and of `GET /api/rooms/{id}` (without the table)."""
        deal = self.deal
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
                }
            )
        return {
            "room_id": self.room_id,
            "name": self.settings.name,
            "variant": self.settings.variant,
            "status": self.status,
            "turn_seconds": self.settings.turn_seconds,
            "deal_seconds": self.settings.deal_seconds,
            "rounds": self.settings.rounds,
            "seat_count": len(self.settings.seats),
            "deal_no": deal.deal_no if deal else 0,
            "deals_total": self.progress.deals_total,
            "round_wind": self.progress.round_wind
            if deal is None or deal.ended
            else self._deal_round_wind(),
            "players": players,
            "scores": self._scores_by_name(),
            "spectators": len(self.spectators),
        }

    def _deal_round_wind(self) -> str:
        assert self.deal is not None
        return str(self.deal.state.settings.round_wind)

    def _state_for(self, seat: str | None, room: dict[str, Any] | str | None = None) -> str:
        deal = self.deal
        return state_message(
            seq=self.seq,
            deal_state=deal.state if deal else None,
            seat=seat,
            turn_deadlines={s: d for s, (d, _) in deal.turns.items()} if deal else {},
            deal_deadline=deal.deadline if deal and not deal.ended else None,
            room=room if room is not None else self.public_room(),
            can_act=self.status == "playing",
        )

    def _broadcast(self, bumped: bool = False) -> None:
        """Send every connection its own `state` at the current `seq`."""
        if not bumped:
            self.seq += 1
        room = room_json(self.public_room())
        deal = self.deal
        spectator_text: str | None = None
        if self.spectators:
            spectator_text = self._state_for(None, room)
            for connection in list(self.spectators):
                connection.push(spectator_text)
        for index, connection in list(self.player_connections.items()):
            seat = deal.seat_of(index) if deal else None
            connection.push(self._state_for(seat, room))

    def _send_all(self, text: str) -> None:
        for connection in [*self.player_connections.values(), *self.spectators]:
            connection.push(text)
