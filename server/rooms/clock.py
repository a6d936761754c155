"""Clocks for the rooms: the real one, and a hand-driven one for tests.

Every timer of a room (turn, deal, next deal, idle close) asks its clock for the time and
waits through it, so a test can run the 40-second and 5-minute paths in milliseconds by
advancing a `ManualClock` by hand.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """What a room needs from time: the current epoch seconds, and a way to wait for a moment."""

    def now(self) -> float:
        """Seconds since the epoch (UTC), as a float."""
        ...

    async def sleep_until(self, moment: float) -> None:
        """Return once `now() >= moment`."""
        ...


class SystemClock:
    """Wall-clock time, waiting with `asyncio.sleep`."""

    def now(self) -> float:
        """The real time."""
        return time.time()

    async def sleep_until(self, moment: float) -> None:
        """Sleep until the wall clock reaches `moment` (re-checking, since sleeps may be early)."""
        while True:
            remaining = moment - time.time()
            if remaining <= 0:
                return
            await asyncio.sleep(remaining)


class ManualClock:
    """A clock that moves only when a test calls `advance` or `set`.

    Waiters are woken in deadline order, so timers fire as they would in real time.
    It must be driven from the event loop the waiters run on (or through `advance_threadsafe`).
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        """The clock's current reading."""
        return self._now

    async def sleep_until(self, moment: float) -> None:
        """Wait until a test moves the clock to `moment` or past it."""
        if moment <= self._now:
            return
        self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = self._loop.create_future()
        heapq.heappush(self._waiters, (moment, next(self._order), future))
        await future

    def advance(self, seconds: float) -> None:
        """Move the clock forward and wake every waiter whose moment has come."""
        self.set(self._now + seconds)

    def set(self, moment: float) -> None:
        """Move the clock to `moment` (never backwards) and wake the due waiters."""
        self._now = max(self._now, moment)
        while self._waiters and self._waiters[0][0] <= self._now:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)

    def advance_threadsafe(self, seconds: float) -> None:
        """`advance` from another thread (a test driving a server that runs in a thread)."""
        if self._loop is None:
            self._now += seconds
            return
        done = asyncio.run_coroutine_threadsafe(self._advance_async(seconds), self._loop)
        done.result(timeout=5)

    async def _advance_async(self, seconds: float) -> None:
        self.advance(seconds)
