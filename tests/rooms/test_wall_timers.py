"""Wall-clock timers leave no reference cycle behind (docs/benchmarks.md, "Server load"): a
fired or cancelled timer is freed by reference counting, not left to the garbage collector."""

from __future__ import annotations

import asyncio
import gc
import weakref

from server.rooms.clock import SystemClock
from server.rooms.room_state import RoomState
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store


async def test_fired_and_cancelled_timers_are_freed_without_the_collector(store: Store) -> None:
    clock = SystemClock()
    room = RoomState(
        room_id="timers",
        settings=RoomSettings(variant="kaki3"),
        store=store,
        clock=clock,
        table_settings=TableSettings(bot_delay=0, next_deal_seconds=5, bot_level="baseline"),
        created_at=clock.now(),
    )
    gc.disable()
    try:
        room._schedule(clock.now() + 0.01, "fired")
        (fired,) = room._timers
        cancel = room._schedule(clock.now() + 0.01, "cancelled")
        (cancelled,) = room._timers - {fired}
        watched = [weakref.ref(fired), weakref.ref(cancelled)]
        del fired, cancelled
        cancel()
        del cancel
        assert await asyncio.wait_for(room.queue.get(), timeout=5) == "fired"
        await asyncio.sleep(0.05)  # the loop drops the cancelled handle once its time is past
        assert [ref() for ref in watched] == [None, None]
        assert room.queue.empty()
    finally:
        gc.enable()
