"""The deal's play in a room's core: a player's move or a bot's, the turn and deal timers,
and the deals starting and ending.

Every change takes the same road: the command is checked, the engine applies the action
(`engine.apply`, pure), the write is yielded to the store, and only once it is saved does
the table move on and each connection get its own `state`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

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
from server.engine.actions import WIN
from server.engine.short_win import short_win
from server.rooms import commands as cmd
from server.rooms import seating
from server.rooms.deal_in_play import DealInPlay, utc
from server.rooms.effects import (
    ActionSettled,
    FinishDeal,
    LogAction,
    SetRoomStatus,
    StartDeal,
    StoreWrite,
)
from server.rooms.hints import hints_used, move_reason
from server.rooms.messages import encode, epoch_ms
from server.rooms.snapshot import RoomStatus

if TYPE_CHECKING:
    from server.rooms.room import Room

log = logging.getLogger(__name__)

Flow = Generator[StoreWrite, Any, None]


class DealPlay:
    """The deal-flow commands of a room, and what they keep between deals."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.ready_for_next: set[int] = set()
        self.next_deal_at: float | None = None
        # The `result` message of the deal that ended last, repeated to links made after it.
        self.last_result: dict[str, Any] | None = None
        # Whether a human has been connected since the deal on the table began, and whether
        # the next deal waits for one to connect (`hold_deals_without_humans`).
        self.human_since_deal = False
        self.deal_awaits_human = False

    # ----------------------------------------------------------------- actions

    def player_action(self, command: cmd.PlayerAction) -> Flow:
        """A player's move, checked against the very `legal` list they were sent."""
        room = self.room
        connection = command.connection
        if connection.player_index is None:
            room.refuse(command, "spectator", "spectators cannot act")
            return
        if not room.seats.holds_seat(connection):
            room.refuse(command, "not_legal", "this connection no longer holds the seat")
            return
        deal = room.deal
        if deal is None or deal.ended:
            room.refuse(command, "no_deal", "no deal is in progress")
            return
        if room.host.pause is not None:
            room.refuse(command, "paused", "the table is paused")
            return
        seat = deal.seat_of(connection.player_index)
        assert seat is not None
        try:
            action = Action.from_json(command.action, seat=seat)
        except (ActionFormatError, TypeError, ValueError) as error:
            room.refuse(command, "bad_action", str(error)[:300])
            return
        if action not in room.legal_now(seat):
            # A win short of the minimum is offered nowhere: say why (issue 25, point 12).
            short = short_win(deal.state, seat) if action.type == WIN else None
            if short is not None:
                room.refuse(command, "below_min_fan", short.text)
                return
            room.refuse(
                command,
                "not_legal",
                f"{json.dumps(command.action)[:200]} is not one of your legal actions now",
            )
            return
        try:
            # issue 18: a move after a hint is logged as such (by_bot stays false).
            yield from self.play(action, by_bot=False, bot_reason=move_reason(deal, seat))
        except IllegalActionError as error:
            room.refuse(command, "not_legal", str(error))
            return
        room.emit(ActionSettled(command.received_at))

    def turn_timer(self, seat: str, token: int, reason: str | None) -> Flow:
        """A turn timer ran out (`reason="timeout"`) or a covered seat's bot is due (None)."""
        room = self.room
        deal = room.deal
        if deal is None or deal.ended or deal.turns.get(seat, (0, -1))[1] != token:
            return  # superseded: the seat already acted, or the deal moved on
        if room.host.pause is not None:
            return  # resuming arms fresh timers with the time that was left
        player_index = deal.seat_players[seat]
        player = room.players[player_index]
        if reason is None:
            if not room.is_covered(player_index):
                return  # the human came back before the bot moved
            reason = "bot_seat" if player.is_bot else "disconnected"
        legal = room.legal_now(seat)
        if not legal:
            return
        if reason == "timeout" and not room.is_covered(player_index):
            drawn = yield from room.banks.draw(seat, player_index)
            if drawn:
                return  # the bank's seconds first; the bot steps in when they run out too
        settings = room.table_settings
        try:
            level = room.host.bot_level_of(player_index) if player.is_bot else settings.bot_level
            action = choose_action(
                view(deal.state, seat), legal, level, deal.state.settings.table_rules
            )
            if action not in legal:
                raise ValueError(f"bot chose {action} outside legal")
        except Exception:  # a bot bug must not stall the table: take the safest legal move
            log.exception("room %s: bot failed for seat %s", room.room_id, seat)
            action = next((a for a in legal if a.type == "pass"), legal[0])
        if reason in ("timeout", "disconnected"):
            room.registry.bot_takeovers.inc(reason=reason)
            if reason == "timeout":
                room.registry.timeouts.inc()
            log.info("bot plays seat %s of deal %s (%s)", seat, deal.deal_id, reason)
        yield from self.play(
            action.with_seat(seat) if action.seat is None else action,
            by_bot=True,
            bot_reason=reason,
        )

    def deal_timeout(self, deal_id: int) -> Flow:
        """The deal timer ran out: the deal ends as a draw by time."""
        room = self.room
        deal = room.deal
        if deal is None or deal.ended or deal.deal_id != deal_id or room.host.pause is not None:
            return
        if room.now < deal.deadline:
            return  # armed before a pause moved the deadline on; a later timer is set
        yield from self.play(Action("timeout"), by_bot=False, bot_reason=None)

    def play(self, action: Action, *, by_bot: bool, bot_reason: str | None) -> Flow:
        """Apply `action`, log it, then tell everyone. Raises IllegalActionError, changing nothing."""
        room = self.room
        deal = room.deal
        assert deal is not None
        new_state, _events = apply(deal.state, action)
        now = room.now
        yield LogAction(
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
        room.registry.actions.inc(by="bot" if by_bot else "human" if action.seat else "clock")
        yield from self.table_changed()

    def table_changed(self) -> Flow:
        """After the deal state moved: end the deal, or re-arm the clocks; then broadcast."""
        room = self.room
        deal = room.deal
        assert deal is not None
        yield from room.banks.return_unused()
        if deal.state.is_over:
            yield from self.finish_deal()
            return
        room.clocks.rearm_turn_timers()
        room.view.broadcast()
        room.clocks.hand_covered_turns_to_bots()

    # ----------------------------------------------------------------- deals

    def start_next_deal(self) -> Flow:
        """Deal the next deal of the game: stored first, then shown."""
        room = self.room
        if room.status.is_over:
            return
        if room.status is RoomStatus.WAITING:
            yield SetRoomStatus(room.room_id, RoomStatus.PLAYING.value)
            room.status = RoomStatus.PLAYING
        game = room.game
        settings = room.settings
        seat_players = seating.seat_players(game)
        round_wind = game.round_wind
        seed = room.chance.deal_seed()
        rules = settings.table_rules
        state = new_deal(
            DealSettings(variant=settings.variant, round_wind=round_wind, rules=rules), seed
        )
        deal_no = game.deal_number + 1
        dealt = {
            "variant": settings.variant,
            "round_wind": round_wind,
            "dealer_player": game.player_at("E"),
            "dealer_passes": game.passes,
            "rules": rules.to_json(),  # each stored deal says which rules it was played by
        }
        deal_id = yield StartDeal(
            room.room_id,
            deal_no,
            settings.variant,
            dealt,
            seed,
            seat_players,
            utc(room.now),
            settings.deal_seconds,
        )
        # `room.now` is later than the deal's start if the store was down meanwhile.
        room.deal = DealInPlay(
            deal_id=int(deal_id),
            deal_no=deal_no,
            seed=seed,
            seat_players=seat_players,
            state=state,
            deadline=room.now + settings.deal_seconds,
        )
        log.info("deal %s starts (deal %d of the game)", deal_id, deal_no)
        self.ready_for_next.clear()
        self.human_since_deal = any(
            not room.players[index].is_bot for index in room.player_connections
        )
        self.deal_awaits_human = False
        self.next_deal_at = None
        room.clocks.schedule(room.deal.deadline, cmd.DealTimeout(room.deal.deal_id))
        yield from self.table_changed()

    def hold_for_humans(self) -> bool:
        """Whether the next deal waits: no human has been connected since the last deal
        began (or, reopened, since the restart). A human connecting starts it."""
        room = self.room
        if not room.table_settings.hold_deals_without_humans or self.human_since_deal:
            return False
        if not self.deal_awaits_human:
            log.info("room %s: no human since the deal began; the next deal waits", room.room_id)
        self.deal_awaits_human = True
        return True

    def next_deal_due(self, after_deal_no: int) -> Flow:
        """The pause after a deal is over: deal the next (while paused, it waits)."""
        room = self.room
        deal = room.deal
        if (
            deal is not None
            and deal.deal_no == after_deal_no
            and deal.ended
            and room.host.pause is None
            and not self.hold_for_humans()
        ):
            yield from self.start_next_deal()

    def resume(self) -> Flow:
        """A room reopened after a restart: re-arm the deal's clocks, or deal the next."""
        room = self.room
        deal = room.deal
        if deal is None:
            if not self.hold_for_humans():
                yield from self.start_next_deal()
            return
        room.clocks.schedule(deal.deadline, cmd.DealTimeout(deal.deal_id))
        yield from self.table_changed()

    def finish_deal(self) -> Flow:
        """The deal is over: store its result, then announce it (and the game's end)."""
        room = self.room
        deal = room.deal
        assert deal is not None
        # The engine's typed result becomes JSON here, at the edge: the store and the
        # `result` message take the wire form (docs/engine.md, "The result").
        typed = deal.state.result
        assert typed is not None, "a deal that ended has its result"
        result = typed.to_json()
        player_scores = {
            deal.seat_players[seat]: int(net) for seat, net in result.get("scores", {}).items()
        }
        yield FinishDeal(deal.deal_id, result, utc(room.now), player_scores)
        room.registry.deal_outcomes.inc(
            variant=room.settings.variant, outcome=str(result["outcome"])
        )
        log.info("deal %s ends: %s", deal.deal_id, result["outcome"])
        deal.ended = True
        deal.turns = {}
        for index, net in player_scores.items():
            room.running_scores[index] = room.running_scores.get(index, 0) + net
        seating.record_result(room.game, result)
        game_over = room.game.is_finished
        if game_over:
            room.status = RoomStatus.FINISHED
            yield SetRoomStatus(room.room_id, RoomStatus.FINISHED.value)
        else:
            self.next_deal_at = room.now + room.table_settings.next_deal_seconds
            room.clocks.schedule(self.next_deal_at, cmd.NextDealDue(deal.deal_no))
        room.view.broadcast()
        names = room.view.names()
        result_message = {
            "type": "result",
            "seq": room.seq,
            "deal_no": deal.deal_no,
            **result,
            "seat_players": {seat: names[index] for seat, index in deal.seat_players.items()},
            "running_scores": room.view.scores_by_name(),
            "game_over": game_over,
            "next_deal_at": epoch_ms(self.next_deal_at),
            "hints": hints_used(deal),  # issue 18: shown to everyone
        }
        self.last_result = result_message
        room.send_all(encode(result_message))

    def next_deal_ready(self, command: cmd.NextDealReady) -> Flow:
        """A player is ready: the next deal starts once every connected human is."""
        room = self.room
        connection = command.connection
        if connection.player_index is None:
            room.refuse(command, "spectator", "spectators cannot start deals")
            return
        if not room.seats.holds_seat(connection):
            room.refuse(command, "not_seated", "this connection no longer holds the seat")
            return
        if room.deal is None or not room.deal.ended or room.status is not RoomStatus.PLAYING:
            room.refuse(command, "no_deal", "no deal is waiting to start")
            return
        if room.host.pause is not None:
            room.refuse(command, "paused", "the table is paused")
            return
        self.ready_for_next.add(connection.player_index)
        humans = {index for index in room.player_connections if not room.players[index].is_bot}
        if humans <= self.ready_for_next:
            yield from self.start_next_deal()
