"""The `analysis` member of a seat's `state`: its own hand analysed from its own view.

The engine's `analyse` takes the seat's view and nothing else (docs/learning.md). Most
changes of a table leave a seat's analysis as it was, so the encoded text is kept per seat
until something it reads changes: any seat's tiles (the engine copies a seat before
changing it, so an unchanged seat is the same object), the last discard, the phase, the
turn, the wall count or the throw ban.

A hand that is not ready (and has no Fei it could sink) lists no waits, so nothing it
shows depends on the other seats' tiles or the wall count: its text is kept while its own
tiles, the phase, the turn and the throw ban stay (and the last discard, while it holds a
Fei, for the Fei-in-a-kong rule). Most seats most of the time are such hands.
"""

from __future__ import annotations

from typing import Any

from server.engine import view
from server.engine.analysis import analyse
from server.engine.deal_state import DealState
from server.engine.tiles import FEI


def analysis_text(
    state: DealState, seat: str, kept: dict[str, tuple[Any, str]], encode: Any
) -> str:
    """`"analysis":...` for `seat`, re-encoded only when what it reads has changed."""
    player = state.players[seat]
    my_turn = state.turn == seat
    holds_fei = FEI in player.hand
    # What a hand that is not ready reads of the table: whether the deal is over or it is
    # this seat's turn (its throw ban), and with a Fei in hand the discard on offer.
    own = (
        player,
        my_turn,
        state.phase if my_turn or holds_fei or state.phase == "ended" else "",
        state.forbidden if my_turn else (),
        state.last_discard if holds_fei else None,
    )
    key = f"analysis {seat}"
    previous = kept.get(key)
    if previous is not None:
        (kept_own, kept_table), text = previous
        if _same(kept_own, own) and (kept_table is None or _same(kept_table, _table(state))):
            return text
    analysis = analyse(view(state, seat), state.settings.table_rules)
    quiet = analysis is None or (analysis["steps"] > 0 and analysis["sink"] is None)
    text = f'"analysis":{encode(analysis)}'
    kept[key] = ((own, None if quiet else _table(state)), text)
    return text


def _table(state: DealState) -> tuple[Any, ...]:
    return (tuple(state.players.values()), state.last_discard, state.wall_remaining)


def _same(before: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Equal, with seats (and tuples of seats) compared by identity."""
    if len(before) != len(now):
        return False
    for a, b in zip(before, now, strict=True):
        if isinstance(a, tuple) and a and not isinstance(a[0], str):
            if len(a) != len(b) or any(x is not y for x, y in zip(a, b, strict=True)):
                return False
        elif a is not b and a != b:
            return False
    return True
