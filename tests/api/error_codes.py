"""The error codes docs/protocol.md documents for HTTP, read from its table, and what an
error answer must look like: one of those codes, and words of ours, not Python's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
# Phrases of Python's, pydantic's and Starlette's own messages: none is ours.
FOREIGN_WORDS = (
    "invalid literal",
    "Input should",
    "Field required",
    "Value error",
    "There was an error",
    "Traceback",
    "Exceeds the limit",
    "Not Found",
    "Method Not Allowed",
    "unable to parse",
)


def documented_http_codes() -> set[str]:
    """The codes of the table under "HTTP error codes:" in docs/protocol.md."""
    text = PROTOCOL.read_text()
    table = text.split("HTTP error codes:", 1)[1].split("\n\n", 2)[1]
    return set(re.findall(r"^\| \d{3} \| `([a-z_]+)` \|", table, re.MULTILINE))


def assert_documented_error(answer: Any, status: int | None = None) -> dict[str, Any]:
    """The answer is an error in the protocol's shape, with a documented code and our words."""
    if status is not None:
        assert answer.status_code == status, answer.text
    assert 400 <= answer.status_code < 500, answer.text
    error = answer.json()["error"]
    assert error["code"] in documented_http_codes(), error
    words = [error["message"], *(d.get("msg", "") for d in error.get("details") or [])]
    for phrase in FOREIGN_WORDS:
        assert all(phrase not in text for text in words), error
    return dict(error)
