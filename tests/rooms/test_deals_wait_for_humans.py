"""A room where no human is connected does not play deal after deal for nobody: between
deals it waits until a human has connected since the last deal began, and a room
reopened after a restart with no human seated is closed. Driven by the injected clock."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store
from tests.rooms.conftest import RecordingConnection, quiet, until

SETTINGS = TableSettings(bot_delay=0, next_deal_seconds=5, bot_level="baseline")


@pytest.fixture
async def hall(store: Store, clock: ManualClock) -> AsyncIterator[RoomManager]:
    rooms = RoomManager(store, clock, SETTINGS)  # the server's default: deals wait
    yield rooms
    await rooms.shutdown()


async def _deal_over(actor: object, clock: ManualClock, seconds: float) -> None:
    """Let the deal clock run out (the bots play every seat meanwhile)."""
    await quiet(actor)
    clock.advance(seconds)
    await until(lambda: actor.deal is not None and actor.deal.ended)  # type: ignore[attr-defined]
    await quiet(actor)


async def test_the_next_deal_waits_until_a_human_connects(
    hall: RoomManager, clock: ManualClock
) -> None:
    room_id = await hall.create_room(RoomSettings(variant="kaki3", deal_seconds=60))
    actor = hall.get(room_id)
    seated = await hall.join(room_id, "Ana")
    ana = RecordingConnection(0, seated["token"])
    actor.tell(cmd.Connect(ana, ana.token))
    await hall.add_bots(room_id)
    await until(lambda: actor.deal is not None and actor.deal.deal_no == 1)
    # Ana was there when deal 1 began, then left: deal 2 still starts.
    actor.tell(cmd.Disconnect(ana))
    await _deal_over(actor, clock, 61)
    clock.advance(SETTINGS.next_deal_seconds)
    await until(lambda: actor.deal is not None and actor.deal.deal_no == 2)
    # Deal 2 began with nobody: after it, the table holds, however long it waits.
    await _deal_over(actor, clock, 61)
    for _ in range(3):
        clock.advance(SETTINGS.next_deal_seconds * 10)
        await quiet(actor)
    assert actor.deal is not None and actor.deal.deal_no == 2 and actor.deal.ended
    assert actor.deal_awaits_human
    # A spectator is nobody to play for.
    actor.tell(cmd.Connect(RecordingConnection(None), None))
    await quiet(actor)
    assert actor.deal.deal_no == 2
    # Ana comes back: the next deal starts at once.
    again = RecordingConnection(0, ana.token)
    actor.tell(cmd.Connect(again, again.token))
    await until(lambda: actor.deal is not None and actor.deal.deal_no == 3)
    assert not actor.deal.ended and not actor.deal_awaits_human


async def test_a_reopened_room_with_no_human_seated_is_closed(
    store: Store, clock: ManualClock, hall: RoomManager
) -> None:
    bots_only = await hall.create_room(RoomSettings(variant="kaki3"))
    await hall.add_bots(bots_only)  # in-process only: the API refuses a table of bots
    with_human = await hall.create_room(RoomSettings(variant="kaki3"))
    await hall.join(with_human, "Ana")
    await hall.add_bots(with_human)
    await hall.shutdown()

    reopened = RoomManager(store, clock, SETTINGS)
    try:
        assert await reopened.recover() == 1
        assert set(reopened.rooms) == {with_human}
        assert [record.room_id for record in await store.load_open_rooms()] == [with_human]
        # Its deal in play resumes where it was (the rule holds between deals).
        actor = reopened.get(with_human)
        await quiet(actor)
        assert actor.deal is not None and actor.deal.deal_no == 1
    finally:
        await reopened.shutdown()
