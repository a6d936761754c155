"""Decisions on the bot's own turn: discard, declare a kong, swap or sink a Fei.

Every option is compared on the same scale (`evaluation.evaluate_hand`): the worth of the
hand the bot would then be holding while it waits for its next tile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from server.bots.evaluation import USEFUL_SPAN, HandValue, evaluate_hand
from server.bots.safety import caution, tile_danger
from server.bots.seat_view import SeatView
from server.bots.slips import EASY, slipped_discard
from server.engine.actions import Action
from server.engine.melds import Meld
from server.engine.tiles import FEI, Tile

# A kong that leaves the hand as good as the best discard is still worth making: it is
# paid at once and brings a replacement tile.
KONG_BONUS = 0.05


def without(tiles: tuple[Tile, ...], removed: list[Tile] | tuple[Tile, ...]) -> tuple[Tile, ...]:
    """`tiles` less one copy of each of `removed` (which must all be there)."""
    left = Counter(removed)
    kept: list[Tile] = []
    for tile in tiles:
        if left[tile]:
            left[tile] -= 1
        else:
            kept.append(tile)
    return tuple(kept)


def discard_score(hand: HandValue, tile: Tile, view: SeatView, level: str) -> float:
    """A discard's worth: the hand it leaves, less the danger of the tile (full bot only)."""
    if level in ("baseline", EASY):
        return hand.value
    return hand.value - caution(hand.steps) * tile_danger(tile, view)


def best_discard(
    view: SeatView,
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    choices: list[Action],
    level: str,
) -> tuple[Action, float, HandValue]:
    """The discard among `choices` leaving the best hand, its score and the hand's value.

    Two passes: every discard is first judged without the useful-tile count, then only
    those close enough to the best for the count to matter are judged in full.
    """
    first: list[tuple[Action, Tile, float]] = []
    tried: set[Tile] = set()
    for action in choices:
        tile = action.tile
        if tile is None or tile in tried:
            continue
        tried.add(tile)
        hand = evaluate_hand(without(tiles, [tile]), melds, view.bonus, view, level, False)
        first.append((action, tile, discard_score(hand, tile, view, level)))
    if not first:
        raise ValueError("no discard to choose from")
    leading = max(score for _, _, score in first)
    best: tuple[Action, float, HandValue] | None = None
    for action, tile, score in first:
        if score < leading - USEFUL_SPAN:
            continue
        hand = evaluate_hand(without(tiles, [tile]), melds, view.bonus, view, level)
        score = discard_score(hand, tile, view, level)
        if best is None or score > best[1]:
            best = (action, score, hand)
    assert best is not None
    if level == EASY:
        slip = slipped_discard(view, [(action, score) for action, _, score in first], best[0])
        if slip != best[0]:
            return slip, best[1], best[2]
    return best


def _kong_value(view: SeatView, action: Action, level: str) -> float | None:
    """Worth of the hand after a concealed or added kong of `action.tile`."""
    tile = action.tile
    if tile is None:
        return None
    if action.type == "concealed_kong":
        tiles = without(view.concealed, [tile] * 4)
        melds = (*view.melds, Meld("kong", (tile,) * 4, concealed=True))
    else:
        tiles = without(view.concealed, [tile])
        melds = tuple(
            replace(m, kind="kong", tiles=(*m.tiles, tile))
            if m.kind == "pong" and FEI not in m.tiles and m.tiles[0] == tile
            else m
            for m in view.melds
        )
    return evaluate_hand(tiles, melds, view.bonus, view, level).value + KONG_BONUS


def _sink_value(view: SeatView, best: HandValue, level: str) -> float | None:
    """Worth of sinking a Fei, or None when the table's advice says keep it.

    The seed's advice: sink when that fan lifts the waits to the minimum, or when a fresh
    tile would help more than the joker. So the hand left must either be ready with a
    winning wait, or no further from ready than the best discard keeping the Fei. Then
    it is worth that hand, plus the chance that the replacement, drawn at once, helps.
    """
    tiles = without(view.concealed, [FEI])
    hand = evaluate_hand(tiles, view.melds, (*view.bonus, FEI), view, level)
    if not (hand.plan == "ready" or hand.steps <= best.steps):
        return None
    unseen_total = max(1, sum(view.unseen.values()))
    return hand.value + hand.useful / unseen_total


def decide_turn(view: SeatView, legal: list[Action], level: str) -> Action:
    """Choose what to do on the bot's own turn (the win, if legal, is taken earlier)."""
    swaps = [a for a in legal if a.type == "swap"]
    if swaps:
        # Taking a Fei back for a real tile never makes the hand worse: a Fei is any tile.
        return swaps[0]
    discards = [a for a in legal if a.type == "discard" and a.tile != FEI]
    if not discards:
        discards = [a for a in legal if a.type == "discard"]
    if not discards:
        return legal[0]
    choice, score, kept = best_discard(view, view.concealed, view.melds, discards, level)
    if level == EASY:
        # A new player throws and moves on: no kongs declared, no Fei sunk.
        return choice
    for action in legal:
        if action.type in ("concealed_kong", "added_kong"):
            value = _kong_value(view, action, level)
            if value is not None and value >= score:
                choice, score = action, value
    sink = next((a for a in legal if a.type == "sink"), None)
    # Sinking gives up the No Bonus Tiles limit, so a seat with no bonus tile keeps its Fei.
    if sink is not None and level == "full" and view.bonus:
        value = _sink_value(view, kept, level)
        if value is not None and value > score:
            choice, score = sink, value
    return choice
