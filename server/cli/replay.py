"""`mahjong-hall replay`: play a fixed deal from standard input and print what it paid.

The input is one JSON object (docs/cli.md, "mahjong-hall replay")::

    {"variant": "kaki3", "hands": {"E": "...", "S": "...", "W": "..."},
     "wall": "...", "actions": [{"seat": "E", "type": "discard", "tile": "2z"}, ...],
     "round_wind": "E", "rules": {"min_fan": 3}}

``"rules"`` is optional: the table's house rules (docs/cli.md); omitted, the seed's.

Decisions only: when a claim window (or a window to rob an added kong) is open and the next
action is not a decision on it, every seat still deciding passes first. The end of the list
counts as "not a claim" too, so a trailing discard is passed by everyone and play goes on to
the next draw. If the actions run out before the deal ends, the state so far is printed with
``"outcome": null``. See docs/scenarios.md.

Every input problem exits 2 with one line on standard error; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from server.engine import (
    Action,
    DealSettings,
    DealState,
    EngineError,
    apply,
    deal_from_wall,
    parse_tiles,
    pending_seats,
    view,
)
from server.engine.rules import TableRules
from server.engine.variants import VARIANTS

USAGE_ERROR = 2

# Actions that only make sense as a decision on a discard waiting to be claimed.
CLAIM_ONLY_DECISIONS = ("chow", "pong", "kong", "pass")
WINDOW_PHASES = ("claim", "rob")


class ReplayInputError(Exception):
    """Input that cannot be replayed. The message is the one line printed on standard error."""


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: the deal comes on standard input, the result goes to standard output."""
    parser.epilog = "Reads the deal as JSON on standard input; see docs/scenarios.md."


def run(args: argparse.Namespace) -> int:
    """Replay standard input to standard output; 0 on success, 2 on bad input."""
    return replay_stream(sys.stdin, sys.stdout, sys.stderr)


def replay_stream(source: TextIO, out: TextIO, err: TextIO) -> int:
    """Read a replay input from `source`, write the result JSON to `out` or one error line to `err`."""
    try:
        result = replay_document(_read(source))
    except ReplayInputError as error:
        err.write(f"mahjong-hall replay: {_one_line(error)}\n")
        return USAGE_ERROR
    except Exception as error:  # noqa: BLE001 - a bug must still not print a traceback
        err.write(
            f"mahjong-hall replay: internal error: {type(error).__name__}: {_one_line(error)}\n"
        )
        return 1
    out.write(json.dumps(result, sort_keys=False) + "\n")
    return 0


def _one_line(error: Exception) -> str:
    """The error's message on one line, whatever it holds."""
    return " ".join(str(error).split())


def _read(source: TextIO) -> str:
    """All of `source`; bytes that are not text are an input error, not a crash."""
    try:
        return source.read()
    except UnicodeDecodeError as error:
        raise ReplayInputError(f"input is not UTF-8 text: {error}") from error


def replay_document(text: str) -> dict[str, Any]:
    """The replay result for a JSON document, or `ReplayInputError` saying what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayInputError(f"input is not valid JSON: {error}") from error
    if not isinstance(document, dict):
        raise ReplayInputError("input must be one JSON object")
    return replay_deal(document)


def replay_deal(document: dict[str, Any]) -> dict[str, Any]:
    """Deal the fixed hands and wall, apply the actions, and report the deal's result."""
    state = _deal(document)
    raw_actions = document.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ReplayInputError("'actions' must be a list of action objects")
    for index, raw_action in enumerate(raw_actions):
        try:
            action = Action.from_json(raw_action)
        except EngineError as error:
            raise ReplayInputError(f"action {index}: {error}") from error
        if action.type != "timeout" and action.seat is None:
            raise ReplayInputError(f"action {index}: every action needs a 'seat'")
        if _is_ended(state):
            raise ReplayInputError(f"action {index}: the deal has already ended")
        if not _decides_open_window(state, action):
            state = _pass_open_window(state, index)
        try:
            state, _events = apply(state, action)
        except EngineError as error:
            raise ReplayInputError(f"action {index}: {error}") from error
    if not _is_ended(state):
        state = _pass_open_window(state, len(raw_actions))
    return _report(state)


def _deal(document: dict[str, Any]) -> DealState:
    """The starting state of the fixed deal described by `document`."""
    variant = document.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ReplayInputError(f'\'variant\' must be "hk" or "kaki3", not {variant!r}')
    round_wind = document.get("round_wind", "E")
    if round_wind not in ("E", "S", "W", "N") or (
        not VARIANTS[variant].has_wind_rounds and round_wind != "E"
    ):
        raise ReplayInputError(f"'round_wind' {round_wind!r} is not a round wind of this table")
    hands_text = document.get("hands")
    if not isinstance(hands_text, dict):
        raise ReplayInputError("'hands' must map each seat to its tiles")
    wall_text = document.get("wall")
    if not isinstance(wall_text, str):
        raise ReplayInputError("'wall' must be a string of tiles")
    try:
        rules_json = document.get("rules")
        rules = None if rules_json is None else TableRules.from_json(rules_json, variant)
        hands = {seat: parse_tiles(tiles) for seat, tiles in hands_text.items()}
        wall = parse_tiles(wall_text)
        settings = DealSettings(variant=variant, round_wind=round_wind, rules=rules)
        return deal_from_wall(settings, hands, wall)
    except EngineError as error:
        raise ReplayInputError(str(error)) from error


def _is_ended(state: DealState) -> bool:
    return state.result is not None


def _window_open(state: DealState) -> bool:
    return state.phase in WINDOW_PHASES


def _decides_open_window(state: DealState, action: Action) -> bool:
    """True when `action` is a decision on the discard (or added kong) now waiting.

    A claim or a pass is always one, even from a seat that may not make it, so the engine
    says why it is illegal ("S cannot chow ...") rather than the passes being implied and the
    error becoming "not your turn". A win is one when its seat is still deciding; from any
    other seat it is the next player's self-drawn win, after the passes.
    """
    if action.type == "timeout" or not _window_open(state):
        return True
    if action.type == "win":
        return action.seat in pending_seats(state)
    return action.type in CLAIM_ONLY_DECISIONS


def _pass_open_window(state: DealState, index: int) -> DealState:
    """Every seat still deciding on the open window passes (the implied passes)."""
    while not _is_ended(state) and _window_open(state):
        seats = pending_seats(state)
        if not seats:
            break
        try:
            state, _events = apply(state, Action("pass", seats[0]))
        except EngineError as error:
            raise ReplayInputError(
                f"action {index}: implied pass by {seats[0]}: {error}"
            ) from error
    return state


def _report(state: DealState) -> dict[str, Any]:
    """The printed result: the deal's result, or the state so far when it has not ended."""
    result = state.result
    if result is None:
        table = view(state, None)
        return {
            "outcome": None,
            "winners": [],
            "payments": _payments(table.get("payments", [])),
            "scores": table.get("scores", {}),
            "pending": pending_seats(state),
        }
    shown = result.to_json()
    return {
        "outcome": shown["outcome"],
        "winners": [_winner(winner) for winner in shown["winners"]],
        "payments": _payments(shown["payments"]),
        "scores": shown["scores"],
        "next_dealer": shown["next_dealer"],
    }


def _winner(winner: dict[str, Any]) -> dict[str, Any]:
    """A winner as printed: the concealed hand is left out, the fan and what made it kept."""
    keys = ("seat", "fan", "limit", "points", "patterns")
    return {key: winner[key] for key in keys if key in winner}


def _payments(payments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every payment that moved points. A zero payment is not a payment, so it is left out."""
    return [
        {"from": p["from"], "to": p["to"], "points": p["points"], "reason": p["reason"]}
        for p in payments
        if p["points"] != 0
    ]
