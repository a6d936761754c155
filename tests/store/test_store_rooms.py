"""Rooms and players: creation, seating, status, the lobby list, and refused bad input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from server.store import (
    DuplicateRecordError,
    Store,
    UnknownRoomError,
    hash_token,
    open_store,
)
from server.store.schema import room_players

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_hash_token_is_sha256_hex() -> None:
    # The FIPS 180-2 test vector for "abc".
    assert hash_token("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert hash_token("abd") != hash_token("abc")


async def test_ping_answers(store: Store) -> None:
    assert await store.ping() is True


async def test_ping_is_false_when_the_database_does_not_answer() -> None:
    # Nothing listens on port 9 (discard); the connection is refused at once.
    unreachable = await open_store("postgresql+asyncpg://nobody@127.0.0.1:9/nowhere")
    assert await unreachable.ping() is False
    await unreachable.close()


async def test_created_room_is_listed_waiting_with_its_players(store: Store) -> None:
    await store.create_room("r1", "hk", {"turn_seconds": 40}, T0)
    await store.add_player("r1", 0, "Ana", hash_token("a"), False, T0)
    await store.add_player("r1", 1, "Bot 1", None, True, T0 + timedelta(seconds=1))

    [listed] = await store.list_rooms()
    assert listed == {
        "room_id": "r1",
        "variant": "hk",
        "status": "waiting",
        "settings": {"turn_seconds": 40},
        "created_at": T0.isoformat(),
        "players": [{"name": "Ana", "is_bot": False}, {"name": "Bot 1", "is_bot": True}],
    }


async def test_only_the_token_hash_is_stored(store: Store) -> None:
    await store.create_room("r1", "hk", {}, T0)
    await store.add_player("r1", 0, "Ana", hash_token("tok-123"), False, T0)
    async with store.engine.connect() as conn:
        stored = await conn.scalar(select(room_players.c.token_hash))
    assert stored == hash_token("tok-123")
    assert "tok-123" not in stored


async def test_list_rooms_filters_by_status_newest_first_and_limits(store: Store) -> None:
    for n in range(5):
        await store.create_room(f"r{n}", "kaki3", {}, T0 + timedelta(minutes=n))
    await store.set_room_status("r1", "playing")
    await store.set_room_status("r3", "playing")
    await store.set_room_status("r4", "closed")

    assert [r["room_id"] for r in await store.list_rooms()] == ["r4", "r3", "r2", "r1", "r0"]
    assert [r["room_id"] for r in await store.list_rooms(status="playing")] == ["r3", "r1"]
    assert [r["room_id"] for r in await store.list_rooms(limit=2)] == ["r4", "r3"]
    assert [r["status"] for r in await store.list_rooms(status="closed")] == ["closed"]


async def test_duplicate_room_id_is_refused(store: Store) -> None:
    await store.create_room("r1", "hk", {"a": 1}, T0)
    with pytest.raises(DuplicateRecordError):
        await store.create_room("r1", "kaki3", {"a": 2}, T0)
    [listed] = await store.list_rooms()
    assert listed["variant"] == "hk" and listed["settings"] == {"a": 1}


async def test_duplicate_seat_is_refused_and_the_first_player_kept(store: Store) -> None:
    await store.create_room("r1", "hk", {}, T0)
    await store.add_player("r1", 0, "Ana", None, False, T0)
    with pytest.raises(DuplicateRecordError):
        await store.add_player("r1", 0, "Bo", None, False, T0)
    [listed] = await store.list_rooms()
    assert listed["players"] == [{"name": "Ana", "is_bot": False}]


async def test_unknown_room_is_refused(store: Store) -> None:
    with pytest.raises(UnknownRoomError):
        await store.add_player("nope", 0, "Ana", None, False, T0)
    with pytest.raises(UnknownRoomError):
        await store.set_room_status("nope", "playing")
    assert await store.list_rooms() == []


async def test_bad_status_and_limit_are_refused(store: Store) -> None:
    await store.create_room("r1", "hk", {}, T0)
    with pytest.raises(ValueError, match="status"):
        await store.set_room_status("r1", "paused")
    with pytest.raises(ValueError, match="status"):
        await store.list_rooms(status="paused")
    with pytest.raises(ValueError, match="limit"):
        await store.list_rooms(limit=0)
    assert [r["status"] for r in await store.list_rooms()] == ["waiting"]


async def test_naive_datetimes_are_refused(store: Store) -> None:
    with pytest.raises(Exception, match="naive datetime"):
        await store.create_room("r1", "hk", {}, datetime(2026, 3, 1, 12, 0))
    assert await store.list_rooms() == []


async def test_datetimes_come_back_as_utc_whatever_zone_went_in(store: Store) -> None:
    plus_eight = timezone(timedelta(hours=8))
    await store.create_room("r1", "hk", {}, datetime(2026, 3, 1, 20, 0, tzinfo=plus_eight))
    [room] = await store.load_open_rooms()
    assert room.created_at == T0
    assert room.created_at.utcoffset() == timedelta(0)
