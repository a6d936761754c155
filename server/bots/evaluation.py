"""How good a hand is to hold while waiting to draw: one number per hand, higher is better.

The unit is roughly "one step to ready". The baseline bot uses efficiency alone: fewer
steps first, more useful unseen tiles second. The full bot reads the hand as plans
(see `plans.py`) and charges each plan for the fan it would lack, so a hand that is quick
to make but cannot win loses to a slower one that can. A ready hand is checked exactly:
each waiting tile is scored by the engine, and only the winning ones count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from server.bots.efficiency import hand_shanten, useful_tiles
from server.bots.plans import hand_plans
from server.bots.seat_view import SeatView
from server.bots.slips import EASY
from server.engine.errors import EngineError
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring import score_hand
from server.engine.scoring.types import WinFlags, WinningHand
from server.engine.tiles import Tile

# Each fan a plan lacks costs this many steps: a missing fan is harder than a missing tile.
SHORTFALL_COST = 1.6
# A little preference for plans that score more (they also pay more).
FAN_WEIGHT = 0.04
# Useful unseen tiles break ties between hands the same number of steps from ready.
USEFUL_WEIGHT = 0.01
# Levels that judge a hand by tile efficiency alone (no plans, no fan).
EFFICIENCY_ONLY = ("baseline", EASY)
# Useful-tile counts rarely pass this; hands further than this behind skip the count.
USEFUL_SPAN = 0.5
# A ready hand none of whose waits can win is treated as this far from ready.
DEAD_READY_STEPS = 1.5


@dataclass(frozen=True)
class HandValue:
    """A hand's worth: `value` to compare, plus why (steps, useful tiles, best plan)."""

    value: float
    steps: int
    useful: int
    plan: str
    fan: float


@lru_cache(maxsize=50_000)
def _win_fan(hand: WinningHand, rules: TableRules) -> int:
    """Fan of a winning hand if it meets the table's minimum, else 0."""
    try:
        result = score_hand(hand, rules)
    except EngineError:
        return 0
    return result.fan if result.valid else 0


def winning_waits(
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    waits: list[Tile],
    view: SeatView,
) -> tuple[int, float]:
    """For a ready hand: unseen copies of the waits that win, and their best fan.

    A wait that wins only by self-draw (Hong Kong's self-draw fan) counts a third.
    """
    copies = 0.0
    best_fan = 0.0
    for wait in waits:
        unseen = view.unseen_count(wait)
        if unseen <= 0:
            continue
        for self_drawn, weight in ((False, 1.0), (True, 1.0 / 3)):
            hand = WinningHand(
                variant=view.variant,
                seat_wind=view.me,
                concealed=(*tiles, wait),
                winning_tile=wait,
                melds=melds,
                bonus=bonus,
                round_wind=view.round_seat,
                flags=WinFlags(self_drawn=self_drawn),
            )
            fan = _win_fan(hand, view.rules)
            if fan:
                copies += unseen * weight
                best_fan = max(best_fan, fan)
                break
    return round(copies), best_fan


def evaluate_hand(
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    view: SeatView,
    level: str,
    count_useful: bool = True,
) -> HandValue:
    """Worth of holding `tiles` (3n+1 concealed tiles) with these shown sets and bonus tiles.

    With `count_useful` false the useful-tile count (the costly part, a tie-breaker worth
    at most `USEFUL_SPAN`) is skipped, except for a ready hand, whose waits are needed.
    """
    variant = view.variant
    steps = hand_shanten(tiles, variant)
    if count_useful or (steps == 0 and level not in EFFICIENCY_ONLY):
        useful, kinds = useful_tiles(tiles, variant, view.unseen, steps)
    else:
        useful, kinds = 0, []
    if level in EFFICIENCY_ONLY:
        return HandValue(-steps + USEFUL_WEIGHT * useful, steps, useful, "efficiency", 0.0)
    if steps == 0:
        winners, fan = winning_waits(tiles, melds, bonus, kinds, view)
        if winners:
            return HandValue(
                FAN_WEIGHT * fan + 2 * USEFUL_WEIGHT * winners, 0, winners, "ready", fan
            )
    key = (tuple(sorted(tiles)), melds, bonus)
    best = view.memo.get(key)
    if best is None:
        best = _best_plan(tiles, melds, bonus, steps, view)
        view.memo[key] = best
    return HandValue(best.value + USEFUL_WEIGHT * useful, best.steps, useful, best.plan, best.fan)


def _best_plan(
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    bonus: tuple[Tile, ...],
    steps: int,
    view: SeatView,
) -> HandValue:
    """The plan worth most for this hand (its value before the useful-tile count)."""
    best: HandValue | None = None
    for plan in hand_plans(tiles, melds, bonus, steps, view):
        plan_steps = max(plan.steps, steps)
        # Ready, but no wait wins: it must change shape or gain fan first.
        dead_ready = steps == 0 and plan_steps == 0
        plan_steps_value = DEAD_READY_STEPS if dead_ready else plan_steps * (1 + plan.hardness)
        shortfall = max(0.0, view.min_fan - plan.fan)
        value = -plan_steps_value - SHORTFALL_COST * shortfall + FAN_WEIGHT * min(plan.fan, 10)
        if best is None or value > best.value:
            best = HandValue(value, plan_steps, 0, plan.name, plan.fan)
    assert best is not None
    return best
