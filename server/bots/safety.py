"""Defence: which discards are dangerous, judged only from what the table shows.

Two dangers are plain to see and costly:
- The third dragon to a player showing two dragon sets. In 3 Kaki the thrower is then
  liable for that player's whole win (both losers' shares); in Hong Kong it feeds Big
  Three Dragons, a limit hand.
- Tiles of the suit (and the honours) of a player whose shown sets are all one suit: an
  obvious flush, worth 3 to 6 fan in Hong Kong.
The bot weighs danger against its own chances: far from ready it gives way, close to
ready it plays on.
"""

from __future__ import annotations

from server.bots.seat_view import OpponentView, SeatView
from server.engine.melds import Meld
from server.engine.tiles import DRAGONS, FEI, Tile
from server.engine.variants import HK

LIABILITY_DANGER = 3.0
FLUSH_DANGER = 1.0
FLUSH_HONOUR_DANGER = 0.4


def _meld_tile(meld: Meld) -> Tile:
    return meld.fei_as if meld.fei_as else next(t for t in meld.tiles if t != FEI)


def dragon_sets(opponent: OpponentView) -> set[Tile]:
    """The dragons this opponent shows a pung or kong of."""
    return {_meld_tile(m) for m in opponent.melds if m.kind != "chow" and _meld_tile(m) in DRAGONS}


def flush_suit(opponent: OpponentView) -> str | None:
    """The suit of an obvious flush: two or more shown sets, all in one suit or honours."""
    if len(opponent.melds) < 2:
        return None
    suits = {_meld_tile(m)[-1] for m in opponent.melds} - {"z"}
    if len(suits) != 1:
        return None
    return suits.pop()


def tile_danger(tile: Tile, view: SeatView) -> float:
    """Danger of throwing `tile` now, before weighing it against the bot's own hand."""
    danger = 0.0
    for opponent in view.opponents:
        dragons = dragon_sets(opponent)
        if tile in DRAGONS and len(dragons) >= 2 and tile not in dragons:
            danger += LIABILITY_DANGER
        # Every tile at the 3 Kaki table is Tong or an honour, so a flush tells nothing.
        suit = flush_suit(opponent) if view.variant == HK else None
        if suit is not None:
            if tile[-1] == suit:
                danger += FLUSH_DANGER
            elif tile[-1] == "z":
                danger += FLUSH_HONOUR_DANGER
    return danger


def caution(steps: int) -> float:
    """How much of a tile's danger counts, given the bot's own steps to ready."""
    if steps <= 0:
        return 0.25
    if steps == 1:
        return 0.5
    return 1.0
