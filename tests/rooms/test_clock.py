"""The one timer path: `Clock.call_at` on the real clock and on the hand-driven one, and the
socket rate limiter on an injected clock."""

from __future__ import annotations

import asyncio
import gc
import weakref

from server.api.ws import RateLimit
from server.rooms.clock import ManualClock, SystemClock


def test_a_manual_clock_runs_due_timers_in_deadline_order_and_skips_cancelled_ones() -> None:
    clock = ManualClock(start=100.0)
    fired: list[str] = []
    clock.call_at(105.0, lambda: fired.append("late"))
    clock.call_at(102.0, lambda: fired.append("early"))
    cancelled = clock.call_at(103.0, lambda: fired.append("cancelled"))
    clock.call_at(102.0, lambda: fired.append("early, armed second"))
    cancelled.cancel()
    clock.advance(1.9)
    assert fired == []
    clock.advance(0.1)
    assert fired == ["early", "early, armed second"]
    clock.set(200.0)
    assert fired == ["early", "early, armed second", "late"]
    assert clock.pending == 0


def test_a_manual_clock_without_a_loop_runs_a_past_moment_at_the_next_advance() -> None:
    clock = ManualClock(start=100.0)
    fired: list[float] = []
    clock.call_at(90.0, lambda: fired.append(clock.now()))
    assert fired == [], "never inside call_at itself"
    clock.advance(0)
    assert fired == [100.0]


async def test_a_manual_clock_on_a_loop_runs_a_past_moment_soon() -> None:
    clock = ManualClock(start=100.0)
    fired = asyncio.Event()
    clock.call_at(100.0, fired.set)
    assert not fired.is_set()
    await asyncio.wait_for(fired.wait(), timeout=5)


async def test_the_system_clock_fires_at_the_wall_moment_and_cancels() -> None:
    clock = SystemClock()
    fired: list[str] = []
    done = asyncio.Event()

    def last() -> None:
        fired.append("second")
        done.set()

    clock.call_at(clock.now() + 0.01, lambda: fired.append("first"))
    clock.call_at(clock.now() + 0.01, lambda: fired.append("cancelled")).cancel()
    moment = clock.now() + 0.03
    clock.call_at(moment, last)
    await asyncio.wait_for(done.wait(), timeout=5)
    assert fired == ["first", "second"]
    assert clock.now() >= moment


async def test_fired_and_cancelled_wall_timers_are_freed_without_the_collector() -> None:
    """No reference cycle outlives a timer (docs/benchmarks.md, "Server load")."""
    clock = SystemClock()
    done = asyncio.Event()
    gc.disable()
    try:
        fired = clock.call_at(clock.now() + 0.01, done.set)
        cancelled = clock.call_at(clock.now() + 0.01, done.clear)
        watched = [weakref.ref(fired), weakref.ref(cancelled)]
        cancelled.cancel()
        del fired, cancelled
        await asyncio.wait_for(done.wait(), timeout=5)
        await asyncio.sleep(0.05)  # the loop drops the cancelled handle once its time is past
        assert [ref() for ref in watched] == [None, None]
    finally:
        gc.enable()


def test_the_rate_limit_refills_on_its_clock() -> None:
    clock = ManualClock(start=100.0)
    rate = RateLimit(clock, burst=3, per_second=2.0)
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert rate.flood == 1
    clock.advance(0.5)  # one message's worth
    assert [rate.allow(), rate.allow()] == [True, False]
    clock.advance(10)  # refills to the burst, no further; the flood count drains
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert rate.flood == 1


def test_the_rate_limit_takes_a_clock_stepping_back_as_no_time() -> None:
    clock = ManualClock(start=100.0)
    rate = RateLimit(clock, burst=1, per_second=1.0)
    assert rate.allow()
    rate.updated = 200.0  # as if the wall clock stepped back by 100 s since the last message
    assert not rate.allow(), "a step back must not refill nor drain the bucket"
    assert rate.tokens == 0
