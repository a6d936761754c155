"""A game: deal after deal for the same players, with dealer rotation and running scores.

Players are numbered 0..n-1 and sit at seats E, S, W(, N) in that order for the first
deal. The dealer is always seat East, so when the deal passes, every player's seat moves:
whoever deals next becomes East and the others follow in turn order.

- Hong Kong: the dealer keeps the deal on a dealer win (also as one of several winners),
  a drawn deal or a timeout; otherwise it passes to the next seat. The round wind moves
  East -> South -> West -> North after the deal has passed all four seats.
- 3 Kaki: the winner deals next; after a drawn or timed-out deal, the last player who
  drew. The round wind is always East; a "round" is three passes of the deal.

The game is finished after `rounds` rounds (the deal has passed 4 (HK) or 3 (3 Kaki)
times per round), or after `max_deals` deals when that is set.
"""

from __future__ import annotations

import hashlib
from typing import Any

from server.engine.deal import new_deal
from server.engine.deal_state import DealSettings, DealState
from server.engine.dealership import round_wind as wind_after_passes
from server.engine.dealership import seats_after
from server.engine.errors import EngineError
from server.engine.rules import TableRules
from server.engine.variants import get_variant


def deal_seed(game_seed: int | str, deal_number: int) -> int:
    """The seed of deal `deal_number` (0-based) of a game, derived from the game's seed."""
    digest = hashlib.sha256(f"{game_seed}/{deal_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Game:
    """Deal after deal: which player sits where, the round wind, and the running scores."""

    def __init__(
        self,
        variant: str,
        seed: int | str,
        rounds: int = 1,
        max_deals: int | None = None,
        rules: TableRules | None = None,
    ) -> None:
        if not isinstance(rounds, int) or not 1 <= rounds <= 4:
            raise EngineError(f"a game has 1 to 4 rounds, not {rounds!r}")
        self.variant = get_variant(variant)
        if rules is not None and rules.variant != variant:
            raise EngineError(f"rules of the {rules.variant} table given to a {variant} game")
        self.rules = rules
        self.seed = seed
        self.rounds = rounds
        self.max_deals = max_deals
        self.deal_number = 0
        self.passes = 0
        self.round_index = 0
        # seat_of[player] is that player's seat in the coming deal.
        self.seat_of: list[str] = list(self.variant.seats)
        self.scores: list[int] = [0] * self.variant.player_count
        self.results: list[dict[str, Any]] = []

    @property
    def player_count(self) -> int:
        """How many players the game has."""
        return self.variant.player_count

    @property
    def round_wind(self) -> str:
        """The coming deal's round wind (3 Kaki: always East)."""
        return wind_after_passes(self.variant, self.passes)

    @property
    def is_finished(self) -> bool:
        """True once every round has been played (or `max_deals` deals)."""
        if self.max_deals is not None and self.deal_number >= self.max_deals:
            return True
        return self.round_index >= self.rounds

    def player_at(self, seat: str) -> int:
        """The player sitting at `seat` in the coming (or current) deal."""
        return self.seat_of.index(seat)

    def settings(self) -> DealSettings:
        """The coming deal's settings."""
        return DealSettings(self.variant.name, self.round_wind, self.rules)

    def current_seed(self) -> int:
        """The coming deal's seed."""
        return deal_seed(self.seed, self.deal_number)

    def start_deal(self) -> DealState:
        """Deal the coming deal."""
        if self.is_finished:
            raise EngineError("the game is finished")
        return new_deal(self.settings(), self.current_seed())

    def record(self, result: dict[str, Any]) -> None:
        """Take a finished deal's result: add the scores, then move the deal on."""
        if self.is_finished:
            raise EngineError("the game is finished")
        for seat, points in result["scores"].items():
            self.scores[self.player_at(seat)] += points
        self.results.append(result)
        self.deal_number += 1
        next_dealer = result["next_dealer"]
        if next_dealer == "E":
            return
        self.seat_of = list(seats_after(self.variant, self.seat_of, next_dealer))
        self.passes += 1
        if self.passes % len(self.variant.seats) == 0:
            self.round_index += 1
