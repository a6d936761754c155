"""A room as outsiders may see it: a typed, read-only snapshot, and the room's status.

The dashboard, the metrics and the lobby list read rooms only through `RoomSnapshot`,
taken by the actor between two commands, so none of them depends on (or can change) what
the actor keeps inside.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class RoomStatus(StrEnum):
    """Where a room stands; the values are the wire's and the store's `status` strings."""

    WAITING = "waiting"  # seats still free, no deal yet
    PLAYING = "playing"  # a deal in play, or a pause between deals
    FINISHED = "finished"  # the game's last deal is over
    CLOSED = "closed"  # idle too long, or gone: takes no connection

    @property
    def is_over(self) -> bool:
        """Whether the room takes no more players or deals."""
        return self in (RoomStatus.FINISHED, RoomStatus.CLOSED)


@dataclass(frozen=True, slots=True)
class PlayerSnapshot:
    """One seat-holder as the public room shows it."""

    player_index: int
    name: str
    seat: str
    is_bot: bool
    connected: bool
    bot_covered: bool
    score: int


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """A room at one moment (between two of its actor's commands)."""

    room_id: str
    name: str
    variant: str
    status: RoomStatus
    created_at: float
    seat_count: int
    turn_seconds: float
    deal_seconds: float
    rounds: int
    seq: int
    deal_no: int
    deal_id: int | None  # the deal on the table, ended or not
    deal_in_play: bool  # a deal on the table that has not ended
    players: tuple[PlayerSnapshot, ...]
    spectators: int
    spectator_cap: int | None
    store_down: bool
    # Private tables: only public ones are listed. The house rules, as `TableRules.to_json`.
    public: bool = True
    rules: dict[str, Any] | None = None

    @property
    def spectators_full(self) -> bool:
        """Whether the room takes no more spectators now."""
        return self.spectator_cap is not None and self.spectators >= self.spectator_cap

    @property
    def free_seats(self) -> int:
        """Seats nobody holds yet."""
        return self.seat_count - len(self.players)

    @property
    def connected_players(self) -> int:
        """Players with a live link."""
        return sum(1 for player in self.players if player.connected)
