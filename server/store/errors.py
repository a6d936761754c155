"""Errors the store raises on bad input. Each leaves the database unchanged."""

from __future__ import annotations


class StoreError(Exception):
    """Base class: the request was refused and nothing was written."""


class UnknownRoomError(StoreError, LookupError):
    """The room id names no stored room."""


class UnknownDealError(StoreError, LookupError):
    """The deal id names no stored deal."""


class DuplicateRecordError(StoreError, ValueError):
    """The row already exists: a room id, a seat, a deal number or an action seq reused."""


class DealFinishedError(StoreError, ValueError):
    """The deal already has its result; its log and outcome are closed."""


class StoreUnavailable(StoreError):
    """The database could not be reached or could not write (stopped, restarting, disk full).

    Unlike the other errors, the write may or may not have reached the database (a commit
    can succeed just before the connection drops): a caller that retries must recognise
    its own row already stored (`Store.action_logged`, `Store.find_deal`).
    """
