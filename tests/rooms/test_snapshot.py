"""Outsiders read a room through its typed snapshot, and talk to it only through its mailbox."""

from __future__ import annotations

import dataclasses

import pytest

from server.rooms import commands as cmd
from server.rooms.manager import RoomManager
from server.rooms.players import NameTakenError
from server.rooms.settings import RoomSettings
from server.rooms.snapshot import RoomStatus
from tests.rooms.conftest import RecordingConnection, quiet, until


async def test_the_snapshot_follows_seats_connections_and_the_deal(manager: RoomManager) -> None:
    room_id = await manager.create_room(RoomSettings(variant="kaki3", name="Snap"))
    actor = manager.get(room_id)
    first = actor.snapshot()
    assert (first.status, first.free_seats, first.deal_id, first.deal_in_play) == (
        RoomStatus.WAITING,
        3,
        None,
        False,
    )
    seated = await manager.join(room_id, "Ana")
    with pytest.raises(NameTakenError):
        await manager.join(room_id, "ana")  # a refusal comes back through `ask`
    ana = RecordingConnection(0, seated["token"])
    watcher = RecordingConnection(None)
    actor.tell(cmd.Connect(ana, ana.token))
    actor.tell(cmd.Connect(watcher, None))
    await until(lambda: actor.snapshot().connected_players == 1)
    seated = actor.snapshot()
    assert [(p.name, p.seat, p.connected, p.is_bot) for p in seated.players] == [
        ("Ana", "E", True, False)
    ]
    assert seated.spectators == 1 and seated.free_seats == 2
    await manager.add_bots(room_id)
    await until(lambda: actor.snapshot().deal_in_play)
    await quiet(actor)
    playing = actor.snapshot()
    assert playing.status is RoomStatus.PLAYING and playing.deal_no == 1
    assert playing.deal_id is not None and playing.seq == ana.last_state["seq"]
    assert [p.is_bot for p in playing.players] == [False, True, True]
    with pytest.raises(dataclasses.FrozenInstanceError):
        playing.status = RoomStatus.CLOSED  # type: ignore[misc]
    listed = manager.list_rooms()
    assert [(r["room_id"], r["status"], r["free_seats"]) for r in listed] == [
        (room_id, "playing", 0)
    ]
    assert manager.list_rooms("waiting") == []
