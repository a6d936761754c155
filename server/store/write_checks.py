"""What a write is refused for before it reaches the database, with a `ValueError`.

A bad value is the caller's mistake, not an outage: it is refused here, before a row
joins a batch that other tables' rows share (`action_log`), so one table's mistake can
never fail another's commit.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import orjson

from server.engine.deal_result import DealOutcome

ROOM_STATUSES = ("waiting", "playing", "finished", "closed")
DEAL_OUTCOMES = tuple(outcome.value for outcome in DealOutcome)
BIGINT_RANGE = range(-(2**63), 2**63)


def check_status(status: str) -> None:
    """A room status is one of `ROOM_STATUSES`."""
    if status not in ROOM_STATUSES:
        raise ValueError(f"unknown room status {status!r}; expected one of {ROOM_STATUSES}")


def check_seed(seed: int) -> None:
    """A deal's seed fits the signed 64-bit column."""
    if seed not in BIGINT_RANGE:
        raise ValueError(f"seed {seed} does not fit a signed 64-bit integer")


def check_moment(moment: datetime) -> None:
    """Moments are stored as UTC: a naive one is ambiguous."""
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware UTC datetime")


def check_action(action: dict[str, Any], at: datetime) -> None:
    """A logged action is JSON, at a timezone-aware moment."""
    check_moment(at)
    try:
        orjson.dumps(action)  # the fast check; json decides what orjson refuses
    except TypeError:
        try:
            json.dumps(action)
        except (TypeError, ValueError) as error:
            raise ValueError(f"action is not JSON: {error}") from error


def check_result(result: dict[str, Any], ended_at: datetime) -> None:
    """A deal's result has a known outcome and scores by seat."""
    if result.get("outcome") not in DEAL_OUTCOMES:
        raise ValueError(
            f"result outcome must be one of {DEAL_OUTCOMES}, not {result.get('outcome')!r}"
        )
    if not isinstance(result.get("scores", {}), dict):
        raise ValueError("result scores must map seats to points")
    check_moment(ended_at)
