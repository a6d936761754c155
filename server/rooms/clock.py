"""Clocks for the rooms: the real one, and a hand-driven one for tests, behind one timer path.

Every timer of the hall (turn, deal, next deal, idle close, store retry) is
`clock.call_at(moment, callback)`, which returns a handle to cancel. `SystemClock` maps it
to an event-loop callback; `ManualClock` runs the callback when a test moves it past the
moment. The rooms run the same code either way, so a test can run the 40-second and
5-minute paths in milliseconds and still exercise what production runs.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    """A timer armed with `Clock.call_at`."""

    def cancel(self) -> None:
        """Stop the timer; its callback will not run (a second cancel does nothing)."""
        ...


class Clock(Protocol):
    """What the hall needs from time: the current epoch seconds, and timers at a moment."""

    def now(self) -> float:
        """Seconds since the epoch (UTC), as a float."""
        ...

    def call_at(self, moment: float, callback: Callable[[], None]) -> TimerHandle:
        """Run `callback` (on the event loop's thread) once `now() >= moment`."""
        ...


class SystemClock:
    """Wall-clock time; timers are event-loop callbacks (no task per timer)."""

    def now(self) -> float:
        """The real time."""
        return time.time()

    def call_at(self, moment: float, callback: Callable[[], None]) -> TimerHandle:
        """Arm a loop callback for the wall-clock `moment` (needs a running loop)."""
        return _WallTimer(self, moment, callback)


class _WallTimer:
    """A callback at a wall-clock moment, as a loop callback.

    A class rather than a closure over its own handle: that closure made a reference cycle
    (handle -> callback -> cell -> handle) that outlived the firing, so every turn timer
    became cyclic garbage for the collector, about two per action, and at a thousand tables
    the young collections that freed them took 200 ms (docs/benchmarks.md, "Server load").
    Here the cycle (timer -> handle -> bound `_fire` -> timer) is broken when the timer
    fires or is cancelled, and reference counting frees it at once.
    """

    __slots__ = ("__weakref__", "callback", "clock", "handle", "moment")

    def __init__(self, clock: SystemClock, moment: float, callback: Callable[[], None]) -> None:
        self.clock = clock
        self.moment = moment
        self.callback: Callable[[], None] | None = callback
        self.handle: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        delay = max(0.0, self.moment - self.clock.now())
        self.handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        callback = self.callback
        if callback is None:
            return
        if self.clock.now() < self.moment:  # the loop keeps monotonic time: re-check the wall
            self._arm()
            return
        self.handle = self.callback = None
        callback()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()  # drops its callback, so the cycle goes too
        self.handle = self.callback = None


class _ManualTimer:
    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback: Callable[[], None] | None = callback

    def run(self) -> None:
        callback, self.callback = self.callback, None
        if callback is not None:
            callback()

    def cancel(self) -> None:
        self.callback = None


class ManualClock:
    """A clock that moves only when a test calls `advance` or `set`.

    Due timers run inside `advance`/`set`, in deadline order (ties in arming order), so
    they fire as they would in real time. It must be driven from the thread of the event
    loop whose rooms it times (or through `advance_threadsafe`).
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        """The clock's current reading."""
        return self._now

    def call_at(self, moment: float, callback: Callable[[], None]) -> TimerHandle:
        """Arm `callback` for `moment`. A moment already reached runs soon on the running
        loop, as `SystemClock` would run it (without a loop: at the next `advance` or
        `set`); never inside `call_at` itself."""
        timer = _ManualTimer(callback)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # driven without a loop (the pure room tests)
        if loop is not None:
            self._loop = loop
        if moment <= self._now and loop is not None:
            loop.call_soon(timer.run)
        else:
            heapq.heappush(self._timers, (moment, next(self._order), timer))
        return timer

    @property
    def pending(self) -> int:
        """How many armed timers have not run nor been cancelled."""
        return sum(1 for _, _, timer in self._timers if timer.callback is not None)

    def advance(self, seconds: float) -> None:
        """Move the clock forward and run every timer whose moment has come."""
        self.set(self._now + seconds)

    def set(self, moment: float) -> None:
        """Move the clock to `moment` (never backwards) and run the due timers."""
        self._now = max(self._now, moment)
        while self._timers and self._timers[0][0] <= self._now:
            heapq.heappop(self._timers)[2].run()

    def advance_threadsafe(self, seconds: float) -> None:
        """`advance` from another thread (a test driving a server that runs in a thread)."""
        if self._loop is None:
            self._now += seconds
            return
        done = asyncio.run_coroutine_threadsafe(self._advance_async(seconds), self._loop)
        done.result(timeout=5)

    async def _advance_async(self, seconds: float) -> None:
        self.advance(seconds)
