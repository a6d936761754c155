"""The `analysis` member of a seat's `state`: its own hand analysed from its own view.

The engine's `analyse` takes the seat's view and nothing else (docs/learning.md). Most
changes of a table leave a seat's analysis as it was (a pass, a player connecting), so the
encoded text is kept per seat until something it reads changes: any seat's tiles (the
engine copies a seat before changing it, so an unchanged seat is the same object), the
last discard, the phase, the turn, the wall count or the throw ban.
"""

from __future__ import annotations

from typing import Any

from server.engine import view
from server.engine.analysis import analyse
from server.engine.deal_state import DealState


def analysis_text(
    state: DealState, seat: str, kept: dict[str, tuple[Any, str]], encode: Any
) -> str:
    """`"analysis":...` for `seat`, re-encoded only when what it reads has changed."""
    source = (
        tuple(state.players.values()),
        state.last_discard,
        state.phase,
        state.turn,
        state.wall_remaining,
        state.forbidden,
    )
    key = f"analysis {seat}"
    previous = kept.get(key)
    if previous is not None and _same(previous[0], source):
        return previous[1]
    text = f'"analysis":{encode(analyse(view(state, seat)))}'
    kept[key] = (source, text)
    return text


def _same(before: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    players_before, players_now = before[0], now[0]
    return (
        len(players_before) == len(players_now)
        and all(a is b for a, b in zip(players_before, players_now, strict=True))
        and before[1:] == now[1:]
    )
