"""Bots: choose an action for a seat from what that seat may see.

`choose_action(view, legal, level)` is the whole interface used by rooms and `simulate`.
This first version is a placeholder policy (win if possible, else pass claims, else throw
the drawn tile); the bots issue replaces it with real play behind the same signature.
"""

from __future__ import annotations

from typing import Any

from server.engine.actions import Action

LEVELS = ("baseline", "full")


def choose_action(view: dict[str, Any], legal: list[Action], level: str = "full") -> Action:
    """Pick one of `legal` for the seat whose `view` this is."""
    if not legal:
        raise ValueError("no legal action to choose from")
    by_type = {action.type: action for action in legal}
    if "win" in by_type:
        return by_type["win"]
    if "pass" in by_type:
        return by_type["pass"]
    discards = [action for action in legal if action.type == "discard"]
    drawn = view.get("drawn_tile")
    for action in discards:
        if action.tile == drawn:
            return action
    return discards[0] if discards else legal[0]
