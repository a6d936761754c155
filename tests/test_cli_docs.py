"""The examples of docs/cli.md, run through the real `mahjong-hall` command: each printed
output is the one the page shows."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cli.md"
# Figures that measure the machine, not the deals: they differ from run to run.
TIMINGS = (
    "deals_per_second",
    "decision_ms_p50",
    "decision_ms_p99",
    "decision_ms_max",
    "decision_cpu_ms_p50",
    "decision_cpu_ms_p99",
)


def example(label: str) -> str:
    """The code block of docs/cli.md whose info string ends in `label`."""
    found = re.findall(rf"^```\w+ {label}\n(.*?)^```$", PAGE.read_text(), re.S | re.M)
    assert len(found) == 1, f"docs/cli.md has {len(found)} blocks labelled {label}"
    return str(found[0])


def mahjong_hall(arguments: list[str], stdin: str = "") -> tuple[int, str, str]:
    installed = Path(sys.executable).parent / "mahjong-hall"
    command = [str(installed)] if installed.exists() else [sys.executable, "-m", "server.cli.main"]
    done = subprocess.run(
        [*command, *arguments], input=stdin, capture_output=True, text=True, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def test_the_score_example_prints_the_documented_output() -> None:
    status, out, err = mahjong_hall(["score"], example("score-input"))
    assert (status, err) == (0, "")
    assert json.loads(out) == json.loads(example("score-output"))


def test_the_replay_example_prints_the_documented_output() -> None:
    status, out, err = mahjong_hall(["replay"], example("replay-input"))
    assert (status, err) == (0, "")
    assert json.loads(out) == json.loads(example("replay-output"))


def test_the_simulate_example_prints_the_documented_output() -> None:
    words = shlex.split(example("simulate-command"))
    assert words[0] == "mahjong-hall"
    status, out, err = mahjong_hall(words[1:])
    assert (status, err) == (0, "")
    printed: dict[str, Any] = json.loads(out)
    documented: dict[str, Any] = json.loads(example("simulate-output"))
    assert printed.keys() == documented.keys()
    for name in TIMINGS:
        assert isinstance(printed.pop(name), float) and isinstance(documented.pop(name), float)
    assert printed == documented


def test_every_output_field_is_documented() -> None:
    """Each key the examples print has a row in its command's output table."""
    page = PAGE.read_text()
    for command, label in (("score", "score-output"), ("replay", "replay-output")):
        section = page.split(f"## mahjong-hall {command}", 1)[1].split("\n## ", 1)[0]
        for key in json.loads(example(label)):
            assert f"| `{key}` |" in section, (command, key)
    section = page.split("## mahjong-hall simulate", 1)[1].split("\n## ", 1)[0]
    for key in json.loads(example("simulate-output")):
        assert f"`{key}`" in section, ("simulate", key)


def test_bad_input_exits_two_with_one_line() -> None:
    for arguments, stdin, start in (
        (["score"], "{", "mahjong-hall score: input is not JSON"),
        (["score"], '{"variant": "hk"}', "mahjong-hall score: missing field 'seat'"),
        (["replay"], "[]", "mahjong-hall replay:"),
        (["simulate", "--deals", "-1"], "", "error: --deals must be zero or more"),
    ):
        status, out, err = mahjong_hall(arguments, stdin)
        assert (status, out) == (2, ""), arguments
        assert err.startswith(start) and err.count("\n") == 1, err
