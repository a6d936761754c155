"""Who deals next, where everyone then sits, and the round wind: one rule for every caller.

The deal names the next dealer when it ends (`DealResult.next_dealer`); the game layer
(`Game`) and the real-table ledger (`server.ledger`) then move the seats on with
`seats_after`, and read the round wind from how often the deal has passed.

- Hong Kong: the dealer keeps the deal on a dealer win (also as one of several winners)
  and on a deal without a winner; otherwise it passes to the next seat. The round wind
  moves East -> South -> West -> North each time the deal has passed every seat.
- 3 Kaki: the winner deals next; after a deal without a winner, the last player who drew.
  The round wind is always East.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.tiles import SEATS
from server.engine.variants import Variant

DEALER = "E"


def next_dealer(variant: Variant, winner_seats: Sequence[str], last_drawer: str | None) -> str:
    """The seat, in the ending deal's naming, that deals next.

    `winner_seats` are the deal's winners (empty for a drawn or timed-out deal);
    `last_drawer` is the seat that drew last (3 Kaki's dealer after a drawn deal).
    """
    if variant.winner_deals_next:
        if winner_seats:
            return winner_seats[0]
        return last_drawer if last_drawer is not None else DEALER
    if not winner_seats or DEALER in winner_seats:
        return DEALER
    return variant.next_seat(DEALER)


def seats_after(variant: Variant, seat_of: Sequence[str], dealer_next: str) -> tuple[str, ...]:
    """Each player's seat in the coming deal, when `dealer_next` (a seat of the deal just
    ended) deals it: that player becomes East and the others follow in turn order.

    `seat_of[player]` is the player's seat in the deal just ended.
    """
    seats = variant.seats
    if dealer_next not in seats:
        raise ValueError(f"{dealer_next!r} is not a seat of the {variant.name} table")
    shift = seats.index(dealer_next)
    return tuple(seats[(seats.index(seat) - shift) % len(seats)] for seat in seat_of)


def round_wind(variant: Variant, passes: int) -> str:
    """The round wind after the deal has passed `passes` times (3 Kaki: always East).

    A round ends when the deal has passed every seat; after the North round the winds
    start again from East (a game stops earlier; a night at a real table may not).
    """
    if not variant.has_wind_rounds:
        return DEALER
    return SEATS[(passes // len(variant.seats)) % len(SEATS)]
