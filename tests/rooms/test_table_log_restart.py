"""The table log survives a restart: the host's events (rows of their own) and each
player's time bank are in the store (a real SQLite file), not only in memory, and a
reopened room shows them."""

from __future__ import annotations

from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings
from server.store import Store
from tests.rooms.conftest import ana_against_bots, quiet, until


async def test_host_events_and_time_banks_come_back_after_a_restart(
    store: Store, clock: ManualClock, manager: RoomManager
) -> None:
    room_id, actor, ana = await ana_against_bots(
        manager, RoomSettings(variant="kaki3", turn_seconds=40, rules={"time_bank_seconds": 30})
    )

    actor.tell(cmd.HostCommand(ana, "bot_level", {"player_index": 1, "level": "baseline"}))
    await until(lambda: bool(ana.last_state["room"]["host_events"]))
    # Ana's turn clock runs out: her bank is drawn; she plays 12 s into it.
    clock.advance(40)
    await until(lambda: ana.last_state["room"]["players"][0]["time_bank_seconds"] == 0)
    clock.advance(12)
    await quiet(actor)
    discard = next(a for a in ana.last_state["legal"] if a["type"] == "discard")
    actor.tell(cmd.PlayerAction(ana, discard, None))
    await until(lambda: ana.last_state["room"]["players"][0]["time_bank_seconds"] == 18)
    await quiet(actor)
    await manager.shutdown()

    # Stored, as a fresh read of the store shows (docs/persistence.md, "The table log"):
    # the host event as a row of its own, the banks in the table log.
    (record,) = [r for r in await store.load_open_rooms() if r.room_id == room_id]
    assert [e["kind"] for e in record.host_events] == ["bot_level"]
    assert record.host_event_count == 1
    table_log = record.settings["table_log"]
    assert table_log == {"time_banks": {"left": {"0": 18.0}, "drawn": {}}}
    listed = await store.list_rooms()
    assert all("table_log" not in room["settings"] for room in listed)

    reopened = RoomManager(store, clock, manager.table_settings)
    try:
        assert await reopened.recover() >= 1
        again = reopened.get(room_id)
        room = again.public_room()
        assert [e["kind"] for e in room["host_events"]] == ["bot_level"]
        assert room["players"][0]["time_bank_seconds"] == 18
    finally:
        await reopened.shutdown()
