"""A bot's move with its reason, for the Hint button (docs/learning.md).

`hint(view, legal, level, rules)` asks the bots for their move exactly as they would play it
(`choose_action`, unchanged) and then explains it from the same view: a reason id and its
parameters, which the client words in the player's language. The explanation never feeds
back into the choice, so a hint is always the move the full bot would make.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from server.bots import choose_action
from server.engine.actions import Action
from server.engine.hand import shanten, waits
from server.engine.rules import TableRules
from server.engine.tiles import DRAGONS, FEI, Tile
from server.engine.variants import KAKI3

# Honour sets worth a fan at each table, by the tile: (pattern id, fan).
_DRAGON_FAN = ("dragon_set", 1)


def honour_set_value(
    tile: Tile, variant: str, seat: str, round_wind: str
) -> tuple[str, int] | None:
    """The fan a set of `tile` alone would bring this seat, if any."""
    if tile in DRAGONS:
        return _DRAGON_FAN
    wind = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}
    if tile == wind[seat]:
        return ("seat_wind_set", 1)
    if variant == KAKI3:
        if tile == "1z":
            return ("dong_set", 1)
        if tile == "4z":
            return ("bei_set", 1)
        return None
    if tile == wind[round_wind]:
        return ("round_wind_set", 1)
    return None


def hint(
    view: dict[str, Any],
    legal: list[Action],
    level: str = "full",
    rules: TableRules | None = None,
) -> dict[str, Any]:
    """`{"action": <wire action>, "reason": {"id": ..., "params": {...}}}` for this seat, at
    a table played by `rules` (None: the seed's), as the seat's bot would play it there."""
    action = choose_action(view, legal, level, rules)
    return {"action": action.to_json(), "reason": move_reason(view, action)}


def move_reason(view: dict[str, Any], action: Action) -> dict[str, Any]:
    """Why the bot's `action` suits the hand in `view`, as an id and its parameters."""
    kind = action.type
    if kind == "discard" and action.tile is not None:
        return _discard_reason(view, action.tile)
    last = view.get("last_discard") or {}
    if kind in ("chow", "pong", "kong"):
        return {"id": "claim", "params": {"kind": kind, "tile": last.get("tile")}}
    if kind == "pass":
        return {"id": "pass", "params": {"tile": last.get("tile")}}
    if kind in ("concealed_kong", "added_kong", "swap"):
        return {"id": kind, "params": {"tile": action.tile}}
    return {"id": kind, "params": {}}


def _discard_reason(view: dict[str, Any], tile: Tile) -> dict[str, Any]:
    variant = str(view["variant"])
    hand = list(view["hand"])
    if view.get("drawn_tile"):
        hand.append(view["drawn_tile"])
    kept = list(hand)
    kept.remove(tile)
    steps = shanten(kept, variant)
    if steps == 0:
        return {"id": "discard_ready", "params": {"tile": tile, "waits": waits(kept, variant)}}
    counts = Counter(kept)
    for honour, count in sorted(counts.items()):
        if honour == FEI or count < 2:
            continue
        value = honour_set_value(honour, variant, str(view["me"]), str(view["round_wind"]))
        if value is not None:
            pattern, fan = value
            return {
                "id": "keep_honour_pair",
                "params": {"tile": tile, "pair": honour, "pattern": pattern, "fan": fan},
            }
    return {"id": "discard_steps", "params": {"tile": tile, "steps": steps}}
