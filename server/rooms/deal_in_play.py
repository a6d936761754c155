"""The deal on a room's table: the engine state plus what the room logs and times about it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from server.engine import DealState


class DealInPlay:
    """The deal on the table: engine state plus what the room logs and times about it."""

    def __init__(
        self,
        *,
        deal_id: int,
        deal_no: int,
        seed: int,
        seat_players: dict[str, int],
        state: DealState,
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
        # issue 18: seats that asked for a hint since their last move, and moves hinted;
        # each seat's last hint with the decision it answered (asked again, reused).
        self.hints: dict[str, Any] = {"asked": set(), "used": {}, "answers": {}}

    def seat_of(self, player_index: int) -> str | None:
        """The seat `player_index` holds in this deal."""
        for seat, index in self.seat_players.items():
            if index == player_index:
                return seat
        return None


def utc(moment: float) -> datetime:
    """Epoch seconds as the store's timezone-aware UTC datetime."""
    return datetime.fromtimestamp(moment, tz=UTC)
