"""The ``easy`` bot: the baseline's tile efficiency, with the slips a new player makes.

An easy bot plays like the baseline (fewest steps to ready, then most useful tiles) but
now and then throws a tile that is not its best, lets a useful claim go by, and never
declares a kong it could make. It stays fun to beat: it still takes every win it is
offered and still builds towards ready, only less sharply.

The slips are not random draws from a clock or a global generator: each is decided by a
hash of what the seat sees at that decision (its tiles, every discard, the wall count),
so the same deal played again makes the same slips, and replays and simulations are
reproducible from their seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from server.bots.seat_view import SeatView
from server.engine.actions import Action

EASY = "easy"
# How often the easy bot throws a tile other than its best one.
DISCARD_SLIP_CHANCE = 0.35
# Of the discards it could slip to, only those this close to the best (on the baseline's
# scale, where a step nearer ready is worth 1): a slip is a near miss, not a blunder.
DISCARD_SLIP_SPAN = 1.5
# How often it lets a claim go that the baseline would make.
CLAIM_SLIP_CHANCE = 0.4


def decision_roll(view: SeatView, purpose: str) -> float:
    """A number in [0, 1) fixed by what the seat sees now and the decision's `purpose`."""
    discards = ";".join(
        f"{opponent.seat}:{''.join(opponent.discards)}" for opponent in view.opponents
    )
    seen = (
        f"{purpose}|{view.me}|{''.join(sorted(view.concealed))}|{view.drawn_tile}|"
        f"{len(view.melds)}|{view.wall_remaining}|{view.last_discard}|{discards}"
    )
    digest = hashlib.sha256(seen.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def slipped_discard(view: SeatView, ranked: Sequence[tuple[Action, float]], best: Action) -> Action:
    """The discard the easy bot throws: usually `best`, sometimes a near miss.

    `ranked` holds each distinct discard with its baseline score.
    """
    if decision_roll(view, "discard") >= DISCARD_SLIP_CHANCE:
        return best
    top = max(score for _, score in ranked)
    near = [
        action for action, score in ranked if action != best and score >= top - DISCARD_SLIP_SPAN
    ]
    if not near:
        return best
    return near[int(decision_roll(view, "which") * len(near))]


def misses_claim(view: SeatView) -> bool:
    """True when the easy bot lets a worthwhile claim go by at this decision."""
    return decision_roll(view, "claim") < CLAIM_SLIP_CHANCE
