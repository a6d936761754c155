"""The house style holds on every commit: ruff lint and format, mypy strict on all of server/."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy", "server"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict-server"],
)
def test_code_quality(command):
    run = subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


# What the socket layer once read of uvicorn's protocol and Starlette's WebSocket (their
# state, transport and frames), and the hand-driven coroutine of the old send path. None
# is API: the send path uses Starlette's `send_text`, the protocols what asyncio hands them.
LIBRARY_INTERNALS = re.compile(
    r"\.(handshake_complete|close_sent|conn|transport|loop)\b|self\.(disconnected|writable)\b"
    r"|\.send\(None\)|websockets\.frames|websockets\.protocol\b"
)
LIBRARIES = ("uvicorn", "starlette", "fastapi", "websockets")


def test_no_library_internals_are_read_in_server():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "server").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if LIBRARY_INTERNALS.search(line)
    ]
    assert found == []


def test_subclasses_of_library_classes_touch_no_private_attribute():
    """A `self._name` in a subclass of a uvicorn/Starlette class is the library's privates
    (or would shadow them): such subclasses name their own state without an underscore."""
    found = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        tree = ast.parse(path.read_text())
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(LIBRARIES)
            for alias in node.names
        }
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            if not any(isinstance(base, ast.Name) and base.id in imported for base in cls.bases):
                continue
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}: self.{node.attr} in {cls.name}"
                for node in ast.walk(cls)
                if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ]
    assert found == []
