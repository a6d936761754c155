"""Bots: choose an action for a seat from what that seat may see.

`choose_action(view, legal, level, rules)` is the whole interface used by rooms and
`simulate`. It reads nothing but the seat's own `view` (docs/engine.md), its `legal`
actions and the table's public house rules, so a bot covering a timed-out player knows
exactly what that player's client knew.

Levels, weakest first (`LEVELS` is in that order):
- ``"easy"``: the baseline's efficiency with human-like slips (a near-miss discard now
  and then, a claim let go, no kongs), decided by a hash of what the seat sees so that
  replays repeat them (see `slips.py`).
- ``"baseline"``: tile efficiency only (fewest steps to ready, then most useful tiles).
- ``"full"``: aims at hands that can win, weighing efficiency against the fan the hand
  can reach (see `plans.py`), defends against plain dangers (`safety.py`) and, in
  3 Kaki, sinks Fei when that pays. See docs/bots.md.
"""

from __future__ import annotations

from typing import Any

from server.bots.claiming import decide_claim
from server.bots.own_turn import decide_turn
from server.bots.seat_view import read_view
from server.engine.actions import Action
from server.engine.rules import TableRules

LEVELS = ("easy", "baseline", "full")


def choose_action(
    view: dict[str, Any],
    legal: list[Action],
    level: str = "full",
    rules: TableRules | None = None,
) -> Action:
    """Pick one of `legal` for the seat whose `view` this is.

    `rules` are the table's house rules (``state.settings.rules``); the bot plans for
    their minimum fan and cap. None means the seed's rules of the view's table.
    Raises `ValueError` for an empty `legal`, an unknown level or rules of another table.
    Always returns an element of `legal` itself, so the caller can apply it unchanged.
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    seat_view = read_view(view, rules)
    for action in legal:
        if action.type == "win":
            # A legal win already meets the table's fan minimum: always take it.
            return action
    if any(action.type == "pass" for action in legal):
        choice = decide_claim(seat_view, legal, level)
    else:
        choice = decide_turn(seat_view, legal, level)
    return choice if choice in legal else legal[0]
