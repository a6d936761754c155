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
