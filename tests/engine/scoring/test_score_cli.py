"""`mahjong-hall score` (docs/cli.md): in-process, and a few runs as a real command."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.main import main

CONTRACT_EXAMPLE = {
    "variant": "hk",
    "seat": "S",
    "round": "E",
    "concealed": "123m 456p 99s 222z 555z",
    "melds": [],
    "bonus": "",
    "winning_tile": "9s",
    "win": {"self_drawn": True},
}
CONTRACT_OUTPUT = {
    "valid": True,
    "fan": 3,
    "limit": False,
    "patterns": [
        {"id": "seat_wind_set", "fan": 1},
        {"id": "dragon_set", "fan": 1},
        {"id": "self_draw", "fan": 1},
    ],
    "points": 8,
}


def run_in_process(monkeypatch, capsys, stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["score"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_contract_example(monkeypatch, capsys):
    status, out, err = run_in_process(monkeypatch, capsys, json.dumps(CONTRACT_EXAMPLE))
    assert status == 0 and err == ""
    result = json.loads(out)
    # The documented output (docs/cli.md) may gain fields: "sets" lays out the best reading.
    assert {key: value for key, value in result.items() if key != "sets"} == CONTRACT_OUTPUT
    assert [group["kind"] for group in result["sets"]] == ["chow", "chow", "pong", "pong", "pair"]


def test_kaki3_with_fei_in_shown_sets(monkeypatch, capsys):
    hand = {
        "variant": "kaki3",
        "seat": "S",
        "concealed": "555z 123p 789p 22p",
        "melds": [{"kind": "chow", "tiles": "3p j 5p", "fei_as": "4p"}],
        "bonus": "1a 2a 3a",
        "winning_tile": "2p",
    }
    status, out, _ = run_in_process(monkeypatch, capsys, json.dumps(hand))
    result = json.loads(out)
    assert status == 0 and result["valid"] and result["fan"] == 5 and result["points"] == 8


def test_a_hand_that_does_not_win_is_not_an_error(monkeypatch, capsys):
    hand = dict(CONTRACT_EXAMPLE, concealed="123m 456p 99s 222z 55z")  # 13 tiles
    status, out, _ = run_in_process(monkeypatch, capsys, json.dumps(hand))
    result = json.loads(out)
    assert status == 0
    assert (
        result["valid"] is False
        and result["points"] == 0
        and result["fan"] == 0
        and result["reason"]
    )


BAD_INPUTS = [
    ("not json", "not JSON"),
    ("[1, 2]", "one JSON object"),
    (json.dumps(dict(CONTRACT_EXAMPLE, concealed="123m 456p 99s 222z 555x")), "unknown character"),
    (json.dumps(dict(CONTRACT_EXAMPLE, concealed="11111m 456p 99s 222z 5z")), "copies of 1m"),
    (json.dumps(dict(CONTRACT_EXAMPLE, winning_tile="1p")), "not among the concealed"),
    (
        json.dumps(
            dict(
                CONTRACT_EXAMPLE,
                concealed="456p 99s 222z 555z",
                melds=[{"kind": "chow", "tiles": "124m"}],
            )
        ),
        "run",
    ),
    (
        json.dumps(
            dict(
                CONTRACT_EXAMPLE,
                concealed="456p 99s 222z 555z",
                melds=[{"kind": "pong", "tiles": "111m", "concealed": True}],
            )
        ),
        "only a kong",
    ),
    (
        json.dumps(
            dict(
                CONTRACT_EXAMPLE,
                variant="kaki3",
                seat="S",
                concealed="123m 456p 99p 222z 555z",
                bonus="1f",
            )
        ),
        "1m",
    ),
    (
        json.dumps(
            {
                "variant": "kaki3",
                "seat": "S",
                "concealed": "123p 456p 99p 222z",
                "melds": [{"kind": "pong", "tiles": "5p j j"}],
                "bonus": "1f",
                "winning_tile": "9p",
            }
        ),
        "at most one Fei",
    ),
    (
        json.dumps(
            {
                "variant": "kaki3",
                "seat": "S",
                "concealed": "123p 456p 99p 222z",
                "melds": [{"kind": "kong", "tiles": "5p 5p 5p j"}],
                "bonus": "1f",
                "winning_tile": "9p",
            }
        ),
        "never holds a Fei",
    ),
    (json.dumps(dict(CONTRACT_EXAMPLE, variant="mahjong")), "variant"),
    (json.dumps(dict(CONTRACT_EXAMPLE, win={"self_drawn": "yes"})), "self_drawn"),
    (json.dumps(dict(CONTRACT_EXAMPLE, rules={"min_fan": 4})), "rules.min_fan: 4 is not offered"),
    (json.dumps(dict(CONTRACT_EXAMPLE, rules={"points": "double"})), "rules.points"),
    (json.dumps(dict(CONTRACT_EXAMPLE, rules={"variant": "kaki3"})), "rules.variant"),
    (json.dumps(dict(CONTRACT_EXAMPLE, rules=[3])), "rules: expected an object"),
]


@pytest.mark.parametrize(("stdin", "message"), BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(monkeypatch, capsys, stdin, message):
    status, out, err = run_in_process(monkeypatch, capsys, stdin)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def _command(stdin: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("mahjong-hall")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "server.cli.main"]
    return subprocess.run(
        [*command, "score"], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_command_prints_the_contract_example():
    completed = _command(json.dumps(CONTRACT_EXAMPLE))
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert {key: value for key, value in result.items() if key != "sets"} == CONTRACT_OUTPUT
    assert result["sets"][-1] == {"kind": "pair", "tiles": ["9s", "9s"], "stands_for": ["9s", "9s"]}


@pytest.mark.parametrize("stdin", [BAD_INPUTS[0][0], BAD_INPUTS[3][0], BAD_INPUTS[8][0]])
def test_command_rejects_bad_input_without_a_traceback(stdin):
    completed = _command(stdin)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert len(completed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in completed.stderr


def test_tiles_may_be_lists_as_in_views_and_optional_fields_null(monkeypatch, capsys):
    hand = {
        "variant": "kaki3",
        "seat": "S",
        "round": None,
        "concealed": ["5z", "5z", "5z", "1p", "2p", "3p", "7p", "8p", "9p", "2p", "2p"],
        "melds": [
            {
                "kind": "chow",
                "tiles": ["3p", "j", "5p"],
                "fei_as": "4p",
                "from": "E",
                "claimed": "3p",
            }
        ],
        "bonus": ["1a", "2a", "3a"],
        "winning_tile": "2p",
        "win": None,
        "comment": "fields beyond the contract are ignored",
    }
    status, out, err = run_in_process(monkeypatch, capsys, json.dumps(hand))
    assert status == 0, err
    assert json.loads(out)["fan"] == 5


def test_a_tile_list_with_a_bad_tile_exits_2(monkeypatch, capsys):
    hand = dict(CONTRACT_EXAMPLE, concealed=["1m", "2m", "3x"])
    status, _, err = run_in_process(monkeypatch, capsys, json.dumps(hand))
    assert status == 2 and "3x" in err


def test_the_command_scores_under_the_rules_object():
    completed = _command(json.dumps(dict(CONTRACT_EXAMPLE, rules={"points": "half"})))
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert (result["fan"], result["points"]) == (3, 4)
    seed = json.loads(_command(json.dumps(dict(CONTRACT_EXAMPLE, rules=None))).stdout)
    assert seed["points"] == 8
