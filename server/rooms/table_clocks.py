"""A table's clocks, as the core sees them: timers it asks the actor to arm and cancel.

The core reads no clock: it emits `Schedule(key, moment, command)` and `Cancel(key)`
(server/rooms/effects.py), and the actor arms them on the room's `Clock`. Each seat that
owes a decision has a turn timer under a fresh token; a timer command carries its token,
so one that was superseded (the seat acted, the deal moved on, a pause moved the clocks)
is recognised and ignored when it arrives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine import pending_seats
from server.rooms import commands as cmd
from server.rooms.effects import Cancel, CancelAll, Schedule

if TYPE_CHECKING:
    from server.rooms.room import Room


class TableClocks:
    """The keys and tokens of a room's timers (the timers themselves are the actor's)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._tokens = iter(range(1, 1 << 62))
        self.turn_timers: dict[int, int] = {}  # turn token -> its timer's key

    def token(self) -> int:
        """A fresh token (for a turn or a timer key): never used before in this room."""
        return next(self._tokens)

    def schedule(self, moment: float, command: cmd.Command) -> int:
        """Have `command` delivered at `moment`; returns the timer's key."""
        key = next(self._tokens)
        self.room.emit(Schedule(key, moment, command))
        return key

    def cancel(self, key: int) -> None:
        """Disarm the timer `key`."""
        self.room.emit(Cancel(key))

    def cancel_all(self) -> None:
        """Disarm every timer of the room."""
        self.turn_timers.clear()
        self.room.emit(CancelAll())

    def arm_turn(self, seat: str, deadline: float) -> int:
        """A turn timer for `seat` at `deadline`; returns its token."""
        token = next(self._tokens)
        self.turn_timers[token] = self.schedule(deadline, cmd.TurnTimeout(seat, token))
        return token

    def stop_turn_timers(self) -> None:
        """Disarm every turn timer (a pause: they are armed afresh on resuming)."""
        for key in self.turn_timers.values():
            self.cancel(key)
        self.turn_timers.clear()

    def rearm_turn_timers(self) -> None:
        """Give each newly pending seat a fresh turn timer; keep running ones inside one decision.

        Inside a claim window the seats still deciding keep their clock when another seat
        passes, so a pass cannot be used to buy time for the others.
        """
        room = self.room
        deal = room.deal
        assert deal is not None
        state = deal.state
        # The same claim window (or turn) while phase, turn, discard and wall stand still.
        key = (state.phase, state.turn, state.last_discard, state.front, state.back)
        same_decision = key == deal.decision_key
        deal.decision_key = key
        turns: dict[str, tuple[float, int]] = {}
        for seat in pending_seats(deal.state):
            if same_decision and seat in deal.turns:
                turns[seat] = deal.turns[seat]
                continue
            deadline = room.now + room.settings.turn_seconds
            turns[seat] = (deadline, self.arm_turn(seat, deadline))
        # A superseded turn timer would only wake the actor to be ignored: drop it now.
        kept = {token for _, token in turns.values()}
        for token in [token for token in self.turn_timers if token not in kept]:
            self.cancel(self.turn_timers.pop(token))
        deal.turns = turns

    def shift(self, paused: float) -> None:
        """After a pause (the host's, or a store outage) of `paused` seconds: every clock of
        the deal in play gets back the time it had left, under fresh tokens, so a timer or
        bot move armed before the pause is superseded."""
        deal = self.room.deal
        if deal is None or deal.ended:
            return
        deal.deadline += paused
        self.schedule(deal.deadline, cmd.DealTimeout(deal.deal_id))
        deal.turns = {
            seat: (deadline + paused, self.arm_turn(seat, deadline + paused))
            for seat, (deadline, _) in deal.turns.items()
        }

    def hand_covered_turns_to_bots(self) -> None:
        """Schedule a bot move for each pending seat nobody holds now."""
        room = self.room
        deal = room.deal
        if deal is None or deal.ended:
            return
        settings = room.table_settings
        for seat, (_, token) in deal.turns.items():
            player = room.players[deal.seat_players[seat]]
            if room.is_covered(player.player_index):
                moment = room.now + settings.bot_delay
                if not player.is_bot and not player.has_connected:
                    moment = max(moment, player.joined_at + settings.join_grace_seconds)
                self.schedule(moment, cmd.BotTurn(seat, token))
