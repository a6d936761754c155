"""A room with a store write in flight is not quiet.

The room tests wait for a table to go quiet (`has_mail` false and no new `seq` for a
moment) before they read it. A deal's last write that took longer than that moment (a
loaded machine) once looked quiet: the mailbox was empty while the actor awaited the
store, and the test read the table in the middle of a command (the reconnection-race
test failed about one run in thirty under load; with the store's `finish_deal` held
80 ms it failed every time)."""

from __future__ import annotations

import asyncio
from typing import Any

from server.rooms import commands as cmd
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings
from server.store import Store
from tests.rooms.conftest import RecordingConnection, quiet, until


async def test_a_room_awaiting_its_store_has_mail(
    manager: RoomManager, store: Store, monkeypatch: Any
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="kaki3", turn_seconds=1000))
    actor = manager.get(room_id)
    seated = await manager.join(room_id, "Ana")
    ana = RecordingConnection(0, seated["token"])
    actor.tell(cmd.Connect(ana, ana.token))
    await manager.add_bots(room_id)
    await until(lambda: bool(ana.states) and ana.last_state.get("phase") == "discard")
    await quiet(actor)

    held = asyncio.Event()
    entered = asyncio.Event()
    real_append = store.append_action

    async def held_append(*args: Any, **kwargs: Any) -> None:
        entered.set()
        await held.wait()
        await real_append(*args, **kwargs)

    # The real store's write, held at its door: the room is waiting on the store.
    monkeypatch.setattr(store, "append_action", held_append)
    seq = actor.seq
    discard = next(a for a in ana.last_state["legal"] if a["type"] == "discard")
    actor.tell(cmd.PlayerAction(ana, discard))
    await asyncio.wait_for(entered.wait(), 10)
    assert actor.has_mail, "a room awaiting its store write must not look quiet"
    assert actor.seq == seq, "nothing is announced before it is saved"
    held.set()
    await quiet(actor)
    assert not actor.has_mail
    assert actor.seq > seq
