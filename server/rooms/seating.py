"""Who sits where in each deal, and when the game is over: the engine's `Game`, set up for a room.

The rotation rules live in one place, `server.engine.game.Game` (docs/engine.md): players
keep the cyclic order they joined in, each deal seats the dealer's player East, in Hong Kong
the deal passes to the next seat and in 3 Kaki to the winner. This module only adds what a
room needs on top: 3 Kaki's fixed game length and a round wind to show once the game is over.
"""

from __future__ import annotations

from typing import Any

from server.engine.game import Game
from server.engine.tiles import SEATS
from server.engine.variants import get_variant
from server.rooms.settings import RoomSettings


def deals_total(settings: RoomSettings) -> int | None:
    """3 Kaki plays a fixed number of deals; Hong Kong's count depends on dealer repeats."""
    per_round = get_variant(settings.variant).deals_per_round
    return None if per_round is None else per_round * settings.rounds


def new_game(settings: RoomSettings) -> Game:
    """The room's game at its first deal.

    3 Kaki ends after `deals_total` deals: `Game` also ends it after that many passes of the
    deal, but the deal passes at most once per deal, so the deal count always comes first.
    The game seed is unused: the room draws a fresh secret seed for every deal and stores it.
    """
    return Game(
        settings.variant,
        seed=0,
        rounds=settings.rounds,
        max_deals=deals_total(settings),
        rules=settings.table_rules,
    )


def seat_players(game: Game) -> dict[str, int]:
    """Seat wind -> player index for the coming deal."""
    return {seat: game.player_at(seat) for seat in game.variant.seats}


def shown_round_wind(game: Game) -> str:
    """The coming deal's round wind; once Hong Kong's last round is over, the North wind at most."""
    if game.variant.deals_per_round is None and game.round_index >= len(SEATS):
        return SEATS[-1]
    return game.round_wind


def record_result(game: Game, result: dict[str, Any]) -> None:
    """Take a finished deal's result; one with no next dealer leaves the deal where it is."""
    game.record({**result, "next_dealer": result.get("next_dealer") or "E"})
