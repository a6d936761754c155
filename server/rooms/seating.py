"""Who sits where in each deal, and when the game is over.

Players keep the cyclic order they joined in (player 0, 1, 2...). Each deal seats the
dealer's player East and the others follow in that order, which is the physical table
turning: in Hong Kong the deal passes to the next seat, in 3 Kaki to the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.rooms.settings import KAKI3_DEALS_PER_ROUND, SEATS_BY_VARIANT

ROUND_WINDS = ("E", "S", "W", "N")


@dataclass
class GameProgress:
    """The game's position: the dealer's player, how often the deal has passed, deals played."""

    variant: str
    rounds: int
    dealer_player: int = 0
    dealer_passes: int = 0
    deals_played: int = 0

    @property
    def seat_count(self) -> int:
        """Seats at this table."""
        return len(SEATS_BY_VARIANT[self.variant])

    @property
    def round_wind(self) -> str:
        """Hong Kong: East until the deal has gone round all four seats, then South...; 3 Kaki: East."""
        if self.variant != "hk":
            return "E"
        return ROUND_WINDS[min(self.dealer_passes // self.seat_count, len(ROUND_WINDS) - 1)]

    @property
    def deals_total(self) -> int | None:
        """3 Kaki plays a fixed number of deals; Hong Kong's count depends on dealer repeats."""
        if self.variant == "hk":
            return None
        return KAKI3_DEALS_PER_ROUND * self.rounds

    def seat_players(self) -> dict[str, int]:
        """Seat wind -> player index for the next deal."""
        seats = SEATS_BY_VARIANT[self.variant]
        return {
            seat: (self.dealer_player + offset) % len(seats) for offset, seat in enumerate(seats)
        }

    def finish_deal(self, seat_players: dict[str, int], next_dealer_seat: str) -> None:
        """Record a finished deal whose result named `next_dealer_seat` (in that deal's seating)."""
        self.deals_played += 1
        next_player = seat_players[next_dealer_seat]
        if next_player != self.dealer_player:
            if self.variant == "hk":
                # The deal passes one seat on; count it so the round wind can move.
                self.dealer_passes += 1
            self.dealer_player = next_player

    @property
    def game_over(self) -> bool:
        """Whether the agreed game length has been played."""
        if self.variant == "hk":
            return self.dealer_passes >= self.seat_count * self.rounds
        total = self.deals_total
        return total is not None and self.deals_played >= total
