"""The whole numbers and times a request names in its query or path, read one way everywhere.

`whole_number` takes ASCII digits only, at most `MAX_DIGITS` of them: `str.isdigit` says yes
to "²" (which `int()` then refuses) and to a fullwidth "１" (which `int()` quietly reads as
1), and a 5,000-digit text is past what `int()` reads at all. `moment` reads an ISO 8601
time as aware UTC and refuses one whose zone moves it past the calendar's ends. Both raise
`ApiError` 422 `validation_error` naming the field in our words, so every route that takes
a number or a time refuses a bad one the same way.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from server.api.errors import bad_value

# Longer than any number a route takes (a page offset of a million has 7 digits).
MAX_DIGITS = 9
_ASCII_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
# ISO 8601 times are short; anything longer is no time (and never reaches the parser).
_LONGEST_MOMENT = 40


def whole_number_in(text: str | None, low: int, high: int) -> int | None:
    """`text` as a whole number from `low` to `high`, or None (for a path's ids: a miss)."""
    if text is None or not _ASCII_DIGITS.fullmatch(text) or not low <= int(text) <= high:
        return None
    return int(text)


def whole_number(text: str | None, field: str, low: int, high: int) -> int:
    """`text` as a whole number from `low` to `high`; `ApiError` 422 for anything else."""
    number = whole_number_in(text, low, high)
    if number is None:
        raise bad_value(f"{field}: must be a whole number from {low} to {high}")
    return number


def moment(text: str, field: str) -> datetime:
    """An ISO 8601 time as aware UTC (a time without a zone is read as UTC)."""
    problem = f"{field}: must be an ISO 8601 time within the years 1 to 9999"
    if len(text) > _LONGEST_MOMENT:
        raise bad_value(problem)
    try:
        read = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return read.replace(tzinfo=UTC) if read.tzinfo is None else read.astimezone(UTC)
    except (ValueError, OverflowError):
        raise bad_value(problem) from None
