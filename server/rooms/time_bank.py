"""Each player's time bank (a house rule): extra seconds for the whole game, drawn when
their turn clock runs out, before the bot steps in.

When a human's turn timer fires and their bank has time left, the seat gets all of it as
a new deadline instead of a bot move. When that decision is over (they acted, someone
else's claim ended it, the deal ended) whatever was not used goes back to the bank. A bot
seat has no bank. Banks live with the room in memory: a server restart gives every
player their full bank again (docs/protocol.md).
"""

from __future__ import annotations

from server.engine import pending_seats
from server.rooms import commands as cmd
from server.rooms.host_controls import HostControls


class TimeBanks(HostControls):
    """The time bank handlers of a room actor."""

    def time_bank_of(self, player_index: int) -> float:
        """Seconds left in the player's bank."""
        full = float(self.settings.table_rules.time_bank_seconds)
        return self.time_bank_left.get(player_index, full)

    def _draw_time_bank(self, seat: str, player_index: int) -> bool:
        """Give `seat` its player's whole bank as a new deadline; False if it is empty."""
        deal = self.deal
        left = self.time_bank_of(player_index)
        if deal is None or deal.ended or left <= 0:
            return False
        token = next(self._tokens)
        deadline = self.clock.now() + left
        deal.turns[seat] = (deadline, token)
        self._turn_timers[token] = self._schedule(deadline, cmd.TurnTimeout(seat, token))
        self.time_bank_left[player_index] = 0.0
        self._banks_drawn[seat] = player_index
        self.seq += 1
        self._broadcast(bumped=True)
        return True

    def _return_unused_banks(self) -> None:
        """Before the clocks are re-armed for a changed table: a seat whose banked decision
        is over gets back the time it did not use."""
        deal = self.deal
        if not self._banks_drawn or deal is None:
            return
        state = deal.state
        key = (state.phase, state.turn, state.last_discard, state.front, state.back)
        still = set() if state.is_over or key != deal.decision_key else set(pending_seats(state))
        now = self.clock.now()
        for seat, player_index in list(self._banks_drawn.items()):
            if seat in still:
                continue
            del self._banks_drawn[seat]
            deadline = deal.turns.get(seat, (now, 0))[0]
            self.time_bank_left[player_index] = max(0.0, deadline - now)
