"""Every golden deal in `tests/scenarios/*.json`, replayed through `mahjong-hall replay`.

Each file is a replay input plus either `expect` (the printed result) or `expect_error`
(a fragment of the one-line error of an exit 2). The expected numbers were worked out by
hand from docs/rules.md; each file's `comment` shows the arithmetic. See docs/scenarios.md.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.cli.replay import replay_stream
from tests.scenarios.tools.wall import check_tile_set

SCENARIO_DIR = Path(__file__).resolve().parent
SCENARIO_PATHS = sorted(SCENARIO_DIR.glob("*.json"))
SEAT_ORDER = "ESWN"
DOCS = SCENARIO_DIR.parent.parent / "docs"
# A scenario's comment opens with the rule it pins: a section of the project's own docs,
# `docs/rules.md, "Section"` (docs/scenarios.md, "Scenario files").
CITATION = re.compile(r'docs/([a-z_]+)\.md, "([^"]+)"')


def load(path: Path) -> dict[str, Any]:
    """One scenario file."""
    return json.loads(path.read_text())


def replay_input(scenario: dict[str, Any]) -> str:
    """The scenario as `mahjong-hall replay` reads it: the keys the test reads are left out."""
    keys = ("variant", "rules", "round_wind", "hands", "wall", "actions")
    return json.dumps({key: scenario[key] for key in keys if key in scenario})


def run_in_process(scenario: dict[str, Any]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of the replay command's code, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    status = replay_stream(io.StringIO(replay_input(scenario)), out, err)
    return status, out.getvalue(), err.getvalue()


def run_subprocess(scenario: dict[str, Any]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a real `mahjong-hall replay` process."""
    completed = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "replay"],
        input=replay_input(scenario),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return completed.returncode, completed.stdout, completed.stderr


def comparable(result: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """The keys of `expected`, from `result`, in an order-free form.

    The rules fix who pays whom and how much, not the order payments are listed in, nor the
    order of several winners or of one winner's patterns; so those lists are compared as
    multisets.
    """
    shaped: dict[str, Any] = {}
    for key in expected:
        value = result.get(key, "<missing>")
        if key == "payments" and isinstance(value, list):
            value = sorted((p["from"], p["to"], p["points"], p["reason"]) for p in value)
        elif key == "winners" and isinstance(value, list):
            value = sorted(
                (
                    {**w, "patterns": sorted((p["id"], p["fan"]) for p in w.get("patterns", []))}
                    for w in value
                ),
                key=lambda w: SEAT_ORDER.index(w["seat"]),
            )
        shaped[key] = value
    return shaped


def check(scenario: dict[str, Any], status: int, out: str, err: str) -> None:
    """Assert that one run gave the scenario's expected result or error."""
    if "expect_error" in scenario:
        assert status == 2, f"expected exit 2, got {status}: {out}{err}"
        assert out == ""
        assert err.count("\n") == 1, f"the error must be one line: {err!r}"
        assert "Traceback" not in err
        assert scenario["expect_error"] in err, err
        return
    assert status == 0, err
    result = json.loads(out)
    expected = scenario["expect"]
    assert comparable(result, expected) == comparable(expected, expected)


def scenario_params() -> list[Any]:
    """One pytest param per file, marked xfail (strictly) where the file names an engine bug."""
    params = []
    for path in SCENARIO_PATHS:
        marks = []
        reason = load(path).get("xfail")
        if reason:
            marks.append(pytest.mark.xfail(reason=reason, strict=True))
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


@pytest.mark.parametrize("path", scenario_params())
def test_scenario(path: Path) -> None:
    scenario = load(path)
    check(scenario, *run_in_process(scenario))


# A few through a real process, to cover the installed command's stdin/stdout and exit status.
SUBPROCESS_SCENARIOS = [
    "kaki3_discard_win_split",
    "hk_two_winners_on_one_discard",
    "kaki3_kong_refused_until_fei_swapped_out",
    "refused_wall_not_the_tile_set",
]


@pytest.mark.parametrize("name", SUBPROCESS_SCENARIOS)
def test_scenario_through_a_real_process(name: str) -> None:
    scenario = load(SCENARIO_DIR / f"{name}.json")
    check(scenario, *run_subprocess(scenario))


def test_there_are_enough_scenarios_for_both_tables() -> None:
    variants = [load(path)["variant"] for path in SCENARIO_PATHS]
    assert len(variants) >= 45
    assert variants.count("kaki3") >= 30
    assert variants.count("hk") >= 10


@pytest.mark.parametrize("path", SCENARIO_PATHS, ids=[path.stem for path in SCENARIO_PATHS])
def test_scenario_is_well_formed(path: Path) -> None:
    """Each file cites the rule it pins, and (unless it tests that error) holds the exact tile set."""
    scenario = load(path)
    comment = scenario["comment"]
    assert CITATION.match(comment), "the comment opens with the section it follows"
    for name, section in CITATION.findall(comment):
        headings = re.findall(r"^#+ (.+)$", (DOCS / f"{name}.md").read_text(), re.MULTILINE)
        assert section in headings, f"docs/{name}.md has no section {section!r}"
    assert ("expect" in scenario) != ("expect_error" in scenario)
    missing, extra = check_tile_set(scenario["variant"], scenario["hands"], scenario["wall"])
    if (
        "tile set" in scenario.get("expect_error", "")
        or path.stem == "refused_wall_not_the_tile_set"
    ):
        assert missing and extra
    else:
        assert (missing, extra) == ([], [])
