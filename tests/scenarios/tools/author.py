"""Write the scenario files of `tests/scenarios/` from the compact specs in `specs_*.py`.

Run from the repository root: ``python -m tests.scenarios.tools.author``. The specs name
only the tiles that matter (see `wall.py`); this fills in the wall, spells the actions out
in the form of docs/cli.md, "Actions", checks that the hand-written scores are the sums of the
hand-written payments, and writes one JSON file per scenario. The expected numbers are
worked out by hand in each spec's comment; nothing here runs the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from server.engine.tiles import format_tiles, parse_tiles
from tests.scenarios.tools.wall import build_wall, check_tile_set

SCENARIO_DIR = Path(__file__).resolve().parent.parent


def action(text: str) -> dict[str, Any]:
    """One action from shorthand: ``"S pong 5p j =5p"``, ``"E discard 1z"``, ``"W win"``.

    The words are: seat, type, then the tiles (a single tile for discard, concealed and
    added kongs and swaps; the hand tiles used for a claim), and ``=T`` for ``fei_as``.
    """
    words = text.split()
    seat, kind, rest = words[0], words[1], words[2:]
    obj: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "timeout":
        return {"type": "timeout"}
    fei_as = [word[1:] for word in rest if word.startswith("=")]
    tiles = " ".join(word for word in rest if not word.startswith("="))
    if kind in ("discard", "concealed_kong", "added_kong", "swap"):
        obj["tile"] = tiles
    elif kind in ("chow", "pong", "kong"):
        obj["tiles"] = tiles
    if fei_as:
        obj["fei_as"] = fei_as[0]
    return obj


def payments(*rows: tuple[str, str, int, str]) -> list[dict[str, Any]]:
    """Payment objects from ``(from, to, points, reason)`` rows."""
    return [{"from": f, "to": t, "points": p, "reason": r} for f, t, p, r in rows]


def winner(seat: str, fan: int, points: int, patterns: str, limit: bool = False) -> dict[str, Any]:
    """A winner entry; `patterns` is ``"dragon_set:1 animal:1 animal:1"``."""
    parsed = []
    for word in patterns.split():
        pattern_id, fan_text = word.split(":")
        parsed.append({"id": pattern_id, "fan": int(fan_text)})
    return {"seat": seat, "fan": fan, "limit": limit, "points": points, "patterns": parsed}


def build(spec: dict[str, Any]) -> dict[str, Any]:
    """The scenario file's content for one spec."""
    variant = spec["variant"]
    try:
        wall = build_wall(variant, spec["hands"], spec.get("front", ""), spec.get("back", ""))
    except ValueError as error:
        raise ValueError(f"{spec['name']}: {error}") from error
    missing, extra = check_tile_set(variant, spec["hands"], wall)
    assert not missing and not extra, (spec["name"], missing, extra)
    if "bad_wall" in spec:
        # A deliberately broken deal: the wall's last tile replaced by another.
        wall = format_tiles(parse_tiles(wall)[:-1] + [spec["bad_wall"]["last_tile"]])
    actions = spec["actions"]
    if callable(actions):
        # Long deals (a whole wall drawn and thrown) are spelled out from the wall itself.
        actions = actions(parse_tiles(wall))
    scenario: dict[str, Any] = {"comment": spec["comment"], "variant": variant}
    if "round_wind" in spec:
        scenario["round_wind"] = spec["round_wind"]
    scenario["hands"] = spec["hands"]
    scenario["wall"] = wall
    scenario["actions"] = [action(text) for text in actions]
    if "expect_error" in spec:
        scenario["expect_error"] = spec["expect_error"]
    else:
        expected = dict(spec["expect"])
        _check_scores(spec["name"], expected)
        scenario["expect"] = expected
    if "xfail" in spec:
        scenario["xfail"] = spec["xfail"]
    return scenario


def _check_scores(name: str, expected: dict[str, Any]) -> None:
    """The hand-written scores must be the net of the hand-written payments."""
    net: Counter[str] = Counter()
    for paid in expected["payments"]:
        net[paid["from"]] -= paid["points"]
        net[paid["to"]] += paid["points"]
    for seat, score in expected["scores"].items():
        assert net[seat] == score, (name, seat, net[seat], score)


def scenario_text(scenario: dict[str, Any]) -> str:
    """The file's text: one top-level key per line, one action or payment per line."""
    lines = []
    for key, value in scenario.items():
        if key == "actions":
            body = ",\n  ".join(json.dumps(item) for item in value)
            lines.append(f'"actions": [\n  {body}\n]' if value else '"actions": []')
        elif key == "expect":
            inner = []
            for sub_key, sub_value in value.items():
                if sub_key in ("payments", "winners") and sub_value:
                    body = ",\n    ".join(json.dumps(item) for item in sub_value)
                    inner.append(f'  "{sub_key}": [\n    {body}\n  ]')
                else:
                    inner.append(f'  "{sub_key}": {json.dumps(sub_value)}')
            lines.append('"expect": {\n' + ",\n".join(inner) + "\n}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_all() -> list[Path]:
    """Write every scenario file; returns their paths."""
    from tests.scenarios.tools import (
        specs_hk,
        specs_kaki3_limits,
        specs_kaki3_play,
        specs_kaki3_settlement,
        specs_rulings,
    )

    written = []
    for module in (
        specs_kaki3_settlement,
        specs_kaki3_play,
        specs_kaki3_limits,
        specs_hk,
        specs_rulings,
    ):
        for spec in module.SPECS:
            path = SCENARIO_DIR / f"{spec['name']}.json"
            path.write_text(scenario_text(build(spec)))
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all():
        print(path.name)
