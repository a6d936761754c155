"""Each player's time bank (a house rule): extra seconds for the whole game, drawn when
their turn clock runs out, before the bot steps in.

When a human's turn timer fires and their bank has time left, the seat gets all of it as
a new deadline instead of a bot move. When that decision is over (they acted, someone
else's claim ended it, the deal ended) whatever was not used goes back to the bank.
A bot seat has no bank. Every draw and every return is saved in the table log before it
is shown (docs/persistence.md, "The table log"), so a restart brings the banks back; a
bank drawn when the server stopped comes back whole, as the decision starts afresh.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from server.engine import pending_seats
from server.rooms.effects import SaveTableLog, StoreWrite

if TYPE_CHECKING:
    from server.rooms.room import Room


class TimeBanks:
    """Seconds left in each player's bank, and the banks being used now."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._left: dict[int, float] = {}  # player index -> seconds left, once drawn
        self._drawn: dict[str, tuple[int, float]] = {}  # seat -> (player, seconds drawn)
        self.version = 0  # grows with each change, so the room object is rebuilt

    def left(self, player_index: int) -> float:
        """Seconds left in the player's bank."""
        full = float(self.room.settings.table_rules.time_bank_seconds)
        return self._left.get(player_index, full)

    def stored(self) -> dict[str, Any]:
        """The banks as the table log keeps them: seconds left, and those drawn now."""
        return {
            "left": {str(index): seconds for index, seconds in sorted(self._left.items())},
            "drawn": {str(index): seconds for index, seconds in self._drawn.values()},
        }

    def reopen(self, stored: dict[str, Any]) -> None:
        """Take back the banks of a reopened room; a bank in use at the stop comes back."""
        left = {int(index): float(seconds) for index, seconds in stored.get("left", {}).items()}
        for index, seconds in stored.get("drawn", {}).items():
            left[int(index)] = left.get(int(index), 0.0) + float(seconds)
        self._left = left

    def draw(self, seat: str, player_index: int) -> Generator[StoreWrite, Any, bool]:
        """Give `seat` its player's whole bank as a new deadline; False if it is empty."""
        room = self.room
        deal = room.deal
        left = self.left(player_index)
        if deal is None or deal.ended or left <= 0:
            return False
        self._left[player_index] = 0.0
        self._drawn[seat] = (player_index, left)
        deadline = room.now + left
        # The new deadline is set before the write, so an outage during it pauses (and
        # then resumes) this very clock.
        deal.turns[seat] = (deadline, room.clocks.arm_turn(seat, deadline))
        self.version += 1
        yield self.table_log_write()
        room.view.broadcast()
        return True

    def return_unused(self) -> Generator[StoreWrite, Any, None]:
        """Before the clocks are re-armed for a changed table: a seat whose banked decision
        is over gets back the time it did not use (saved before it is shown)."""
        room = self.room
        deal = room.deal
        if not self._drawn or deal is None:
            return
        state = deal.state
        key = (state.phase, state.turn, state.last_discard, state.front, state.back)
        still = set() if state.is_over or key != deal.decision_key else set(pending_seats(state))
        settled = False
        for seat, (player_index, _) in list(self._drawn.items()):
            if seat in still:
                continue
            del self._drawn[seat]
            deadline = deal.turns.get(seat, (room.now, 0))[0]
            self._left[player_index] = max(0.0, deadline - room.now)
            settled = True
        if settled:
            self.version += 1
            yield self.table_log_write()

    def table_log_write(self) -> SaveTableLog:
        """The table log as it stands: the time banks (docs/persistence.md)."""
        return SaveTableLog(self.room.room_id, {"time_banks": self.stored()})
