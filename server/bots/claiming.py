"""Decisions on another player's discard: chow, pong, kong or pass.

A claim is worth making when the hand it leaves (after the discard a chow or pong forces)
is worth more than the hand held now. A claimed set also ends the chance of seven pairs
and shows the table a suit, so the full bot asks a chow to be clearly better.
"""

from __future__ import annotations

from server.bots.evaluation import evaluate_hand
from server.bots.own_turn import KONG_BONUS, best_discard, without
from server.bots.seat_view import SeatView
from server.bots.slips import EASY, misses_claim
from server.engine.actions import Action
from server.engine.melds import Meld
from server.engine.tiles import FEI, Tile
from server.engine.variants import VARIANTS

# How much better than passing a claim must be, by kind (full bot).
CLAIM_MARGIN = {"chow": 0.15, "pong": 0.0, "kong": 0.0}


def claimed_meld(view: SeatView, action: Action, discard: Tile) -> Meld:
    """The set a claim would show: the hand tiles used plus the discard."""
    used = action.tiles or ()
    return Meld(
        kind=action.type,
        tiles=tuple(sorted((*used, discard))),
        fei_as=action.fei_as,
        claimed_from=view.last_discard[0] if view.last_discard else None,
        claimed_tile=discard,
    )


def forced_discards(view: SeatView, tiles: tuple[Tile, ...], meld: Meld) -> list[Action]:
    """The discards the engine allows right after a chow or pong.

    At a table with the same-turn throw ban (3 Kaki) that is none of the set's kinds (nor
    its Fei), unless the ban would leave no throw at all; elsewhere any tile held.
    """
    held = sorted(set(tiles))
    banned: set[Tile] = set()
    if VARIANTS[view.variant].same_turn_throw_ban:
        banned = set(meld.real_tiles)
        if FEI in meld.tiles:
            banned.add(FEI)
    allowed = [t for t in held if t not in banned] or held
    return [Action("discard", tile=t) for t in allowed]


def claim_value(view: SeatView, action: Action, level: str) -> float | None:
    """Worth of the hand after making this claim (and the discard it forces), or None."""
    if view.last_discard is None or not action.tiles:
        return None
    discard = view.last_discard[1]
    meld = claimed_meld(view, action, discard)
    tiles = without(view.concealed, list(action.tiles))
    melds = (*view.melds, meld)
    if action.type == "kong":
        return evaluate_hand(tiles, melds, view.bonus, view, level).value + KONG_BONUS
    choices = forced_discards(view, tiles, meld)
    if not choices:
        return None
    _, score, _ = best_discard(view, tiles, melds, choices, level)
    return score


def decide_claim(view: SeatView, legal: list[Action], level: str) -> Action:
    """Choose among the claims in `legal` and passing (a legal win is taken earlier)."""
    passing = next((a for a in legal if a.type == "pass"), None)
    claims = [a for a in legal if a.type in ("chow", "pong", "kong")]
    if not claims:
        return passing if passing is not None else legal[0]
    if level == EASY and passing is not None and misses_claim(view):
        return passing
    now = evaluate_hand(view.concealed, view.melds, view.bonus, view, level).value
    best, best_value = passing, now
    for action in claims:
        value = claim_value(view, action, level)
        if value is None:
            continue
        margin = 0.0 if level in ("baseline", EASY) else CLAIM_MARGIN[action.type]
        if value - margin > best_value:
            best, best_value = action, value - margin
    return best if best is not None else claims[0]
