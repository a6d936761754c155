"""Reading the repository's Dockerfile the way Docker does, for the tests that cannot build it.

Only what the tests need: instructions with continuation lines joined, ``ENV`` pairs, and
the exec-form (JSON) ``CMD``, ``ENTRYPOINT`` and ``HEALTHCHECK ... CMD``.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
DOCKERFILE = REPOSITORY / "Dockerfile"


@dataclass(frozen=True)
class Instruction:
    """One instruction: its keyword (upper case) and the rest of its (joined) line."""

    keyword: str
    arguments: str


def instructions(path: Path = DOCKERFILE) -> list[Instruction]:
    """Every instruction in order, comments dropped, ``\\`` continuations joined."""
    found: list[Instruction] = []
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        found.append(Instruction(keyword.upper(), arguments.strip()))
    return found


def exec_form(arguments: str) -> list[str]:
    """The JSON array of an exec-form instruction; shell form is refused on purpose,
    because only the exec form receives SIGTERM directly."""
    parsed = json.loads(arguments)
    if not (isinstance(parsed, list) and all(isinstance(part, str) for part in parsed)):
        raise ValueError(f"not an exec-form JSON array of strings: {arguments}")
    return parsed


def start_command(path: Path = DOCKERFILE) -> list[str]:
    """What the container runs: ENTRYPOINT (if any) followed by CMD, the last of each."""
    entrypoint: list[str] = []
    command: list[str] = []
    for instruction in instructions(path):
        if instruction.keyword == "ENTRYPOINT":
            entrypoint = exec_form(instruction.arguments)
        elif instruction.keyword == "CMD":
            command = exec_form(instruction.arguments)
    return entrypoint + command


def environment(path: Path = DOCKERFILE) -> dict[str, str]:
    """Every ``ENV`` variable the image sets (``KEY=value`` pairs)."""
    variables: dict[str, str] = {}
    for instruction in instructions(path):
        if instruction.keyword == "ENV":
            for pair in shlex.split(instruction.arguments):
                key, equals, value = pair.partition("=")
                if not equals:
                    raise ValueError(f"use the ENV KEY=value form: {instruction.arguments}")
                variables[key] = value
    return variables


def healthcheck_command(path: Path = DOCKERFILE) -> list[str]:
    """The command of the ``HEALTHCHECK`` (options before ``CMD`` are skipped)."""
    for instruction in instructions(path):
        if instruction.keyword == "HEALTHCHECK":
            _, _, command = instruction.arguments.partition("CMD ")
            return exec_form(command)
    raise LookupError("the Dockerfile has no HEALTHCHECK")
