"""`mahjong-hall score`: score one hand read as JSON on standard input (docs/cli.md).

The object may carry an optional ``"rules"`` object, the table's house rules
(docs/cli.md); omitted, the seed's rules of the table apply.

Bad input (not JSON, unknown tiles, impossible counts, a malformed set) exits with status
2 and a one-line error on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from server.engine.errors import EngineError
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring import score_hand
from server.engine.scoring.types import WinFlags, WinningHand
from server.engine.tiles import parse_tile, parse_tiles

_FLAG_NAMES = (
    "self_drawn",
    "robbing_kong",
    "last_tile",
    "last_discard",
    "heavenly",
    "earthly",
    "kong_upon_kong",
)


class ScoreInputError(ValueError):
    """The JSON object is not a hand as docs/cli.md, "mahjong-hall score", describes it."""


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: the hand comes on standard input."""
    parser.epilog = "Reads one JSON hand on stdin, prints one JSON result (docs/cli.md)."


def run(args: argparse.Namespace) -> int:
    """Read, score, print. Returns the exit status."""
    try:
        obj = json.loads(sys.stdin.read())
        hand = hand_from_json(obj)
        result = score_hand(hand, rules_from_json(obj))
    except json.JSONDecodeError as error:
        return _fail(f"input is not JSON: {error.msg} at line {error.lineno} column {error.colno}")
    except (EngineError, ScoreInputError) as error:
        return _fail(str(error))
    print(json.dumps(result.to_json()))
    return 0


def _fail(message: str) -> int:
    print(f"mahjong-hall score: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _text(obj: dict[str, Any], name: str, default: str | None = None) -> str:
    value = obj.get(name, default)
    if not isinstance(value, str):
        raise ScoreInputError(f"{name!r} must be a string")
    return value


def _tiles(value: Any, name: str) -> tuple[str, ...]:
    """Tiles written in notation (``"55p j"``), or a list of single tiles as views show them."""
    if isinstance(value, str):
        return tuple(parse_tiles(value))
    if isinstance(value, list) and all(isinstance(tile, str) for tile in value):
        return tuple(parse_tile(tile) for tile in value)
    raise ScoreInputError(f'{name!r} must be tiles in notation, e.g. "123p 55z"')


def hand_from_json(obj: Any) -> WinningHand:
    """Build a `WinningHand` from the input object of docs/cli.md; raises on a malformed one."""
    if not isinstance(obj, dict):
        raise ScoreInputError("input must be one JSON object")
    # Fields beyond the documented ones (a comment, a label) are ignored: the format may grow.
    for required in ("variant", "seat", "concealed", "winning_tile"):
        if required not in obj:
            raise ScoreInputError(f"missing field {required!r}")
    # Optional fields may also be given as null.
    melds_json = obj.get("melds") or []
    if not isinstance(melds_json, list):
        raise ScoreInputError("'melds' must be a list")
    return WinningHand(
        variant=_text(obj, "variant"),
        seat_wind=_text(obj, "seat"),
        round_wind=_text(obj, "round", "E") if obj.get("round") is not None else "E",
        concealed=_tiles(obj["concealed"], "concealed"),
        winning_tile=parse_tile(_text(obj, "winning_tile")),
        melds=tuple(_meld_from_json(meld, index) for index, meld in enumerate(melds_json)),
        bonus=_tiles(obj.get("bonus") or "", "bonus"),
        flags=_flags_from_json(obj.get("win") or {}),
    )


def rules_from_json(obj: Any) -> TableRules | None:
    """The input's ``"rules"`` object as `TableRules`, or None when it has none.

    Raises `RulesError` (an `EngineError`) naming the field for a rule the table does
    not offer.
    """
    if not isinstance(obj, dict) or obj.get("rules") is None:
        return None
    variant = obj.get("variant")
    return TableRules.from_json(obj["rules"], variant if isinstance(variant, str) else None)


def _meld_from_json(obj: Any, index: int) -> Meld:
    if not isinstance(obj, dict):
        raise ScoreInputError(f"meld {index} must be an object")
    kind = obj.get("kind")
    if kind not in ("chow", "pong", "kong"):
        raise ScoreInputError(f"meld {index}: kind must be chow, pong or kong, not {kind!r}")
    concealed = obj.get("concealed", False)
    if not isinstance(concealed, bool):
        raise ScoreInputError(f"meld {index}: 'concealed' must be true or false")
    tiles = _tiles(obj.get("tiles"), f"meld {index} tiles")
    fei_as = obj.get("fei_as")
    if fei_as is not None and not isinstance(fei_as, str):
        raise ScoreInputError(f"meld {index}: 'fei_as' must be a tile")
    return Meld(
        kind=kind,
        tiles=tiles,
        concealed=concealed,
        fei_as=parse_tile(fei_as) if fei_as is not None else None,
    )


def _flags_from_json(obj: Any) -> WinFlags:
    if not isinstance(obj, dict):
        raise ScoreInputError("'win' must be an object")
    unknown = sorted(set(obj) - set(_FLAG_NAMES) - {"replacement"})
    if unknown:
        raise ScoreInputError(f"unknown win flag(s): {', '.join(unknown)}")
    values: dict[str, bool] = {}
    for name in _FLAG_NAMES:
        value = obj.get(name, False)
        if not isinstance(value, bool):
            raise ScoreInputError(f"win flag {name!r} must be true or false")
        values[name] = value
    replacement = obj.get("replacement")
    if replacement not in (None, "bonus", "kong"):
        raise ScoreInputError(f"replacement must be null, 'bonus' or 'kong', not {replacement!r}")
    return WinFlags(replacement=replacement, **values)
