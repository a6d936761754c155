"""The dependency floors and the image's pins hold what they promise (issue 25, point 14).

pyproject.toml's lower bounds are the oldest versions that work (.ci/run installs them with
uv's `--resolution lowest-direct` and runs the server's smoke tests on them);
constraints.txt pins every run-time package to the versions the suite passed on, and the
Dockerfile installs with it, so an image built later runs what was tested.
"""

from __future__ import annotations

import os
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from tests.docker.dockerfile import REPOSITORY, instructions

CONSTRAINTS = REPOSITORY / "constraints.txt"


def _runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"]]


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+-]+)", line)
        assert match, f"not an exact pin: {line!r}"
        pins[_name(match[1])] = Version(match[2])
    return pins


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def test_every_dependency_has_a_floor_and_a_pin_above_it() -> None:
    pins = _pins()
    for requirement in _runtime_requirements():
        floors = [spec for spec in requirement.specifier if spec.operator == ">="]
        assert floors, f"{requirement.name} has no lower bound"
        pinned = pins.get(_name(requirement.name))
        assert pinned is not None, f"constraints.txt does not pin {requirement.name}"
        assert pinned in requirement.specifier, (requirement, pinned)


def test_the_floors_the_code_needs() -> None:
    """The floors below which the code is known to break (docs/operations.md,
    "Dependencies"): each was tried one release lower and failed the smoke tests."""
    floors = {
        _name(r.name): min(Version(s.version) for s in r.specifier if s.operator == ">=")
        for r in _runtime_requirements()
    }
    # uvicorn 0.52.0 has the sans-I/O protocol but no back-pressure (pause_writing).
    assert floors["uvicorn"] >= Version("0.52.1")
    # Starlette 0.37 (FastAPI 0.110.1) brought WebSocket.send_denial_response.
    assert floors["fastapi"] >= Version("0.110.1")


def test_the_image_installs_with_the_pins() -> None:
    copied = " ".join(s.arguments for s in instructions() if s.keyword == "COPY")
    installs = [
        s.arguments for s in instructions() if s.keyword == "RUN" and "pip install" in s.arguments
    ]
    assert "constraints.txt" in copied
    assert installs and all("-c constraints.txt" in run for run in installs)
    ignored = (REPOSITORY / ".dockerignore").read_text().split()
    assert "constraints.txt" not in ignored


def test_the_suite_runs_on_the_pinned_versions() -> None:
    """Under .ci/run (PIP_CONSTRAINT names constraints.txt) every pinned package is
    installed at its pin: the image's versions are the tested ones."""
    named = os.environ.get("PIP_CONSTRAINT", "")
    if not named or Path(named).resolve() != CONSTRAINTS.resolve():
        pytest.skip("only where the suite was installed with constraints.txt (.ci/run)")
    wrong = {}
    for name, pinned in _pins().items():
        try:
            installed = Version(version(name))
        except PackageNotFoundError:
            continue  # an extra of a dependency this platform does without
        if installed != pinned:
            wrong[name] = (str(pinned), str(installed))
    assert wrong == {}
