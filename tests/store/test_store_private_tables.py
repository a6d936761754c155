"""Private tables in the store: a room stored before the migration becomes a public table
with no invite (its link carried no secret), new rooms keep their flag, invite hash and
host, and `room_access` answers for rooms open or not."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from server.store import Store, apply_migrations, hash_token, open_store
from server.store.migrating import alembic_config

T0 = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)


async def test_a_room_from_before_the_migration_becomes_public(database_url: str) -> None:
    await asyncio.to_thread(command.upgrade, alembic_config(database_url), "0003")
    engine = create_async_engine(database_url, poolclass=NullPool)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO rooms (room_id, variant, status, settings, created_at)"
                    " VALUES ('old', 'hk', 'waiting', '{}', :at)"
                ),
                {"at": T0},
            )
            await conn.execute(
                text(
                    "INSERT INTO room_players (room_id, player_index, name, token_hash, is_bot,"
                    " joined_at, score) VALUES ('old', 0, 'Ana', 'h0', false, :at, 0)"
                ),
                {"at": T0},
            )
    finally:
        await engine.dispose()
    apply_migrations(database_url)
    store = await open_store(database_url)
    try:
        (record,) = await store.load_open_rooms()
        assert (record.public, record.invite_hash, record.host_index) == (True, None, None)
        access = await store.room_access("old")
        assert access is not None and access.public and access.token_hashes == {"h0"}
    finally:
        await store.close()


async def test_a_private_room_keeps_its_invite_hash_and_host(store: Store) -> None:
    invite_hash = hash_token("the-secret")
    await store.create_room("r1", "kaki3", {}, T0, public=False, invite_hash=invite_hash)
    await store.add_player("r1", 0, "Ana", hash_token("ana-token"), False, T0)
    await store.add_player("r1", 1, "Bot 2", None, True, T0)
    await store.set_host("r1", 0)
    (record,) = await store.load_open_rooms()
    assert (record.public, record.invite_hash, record.host_index) == (False, invite_hash, 0)
    access = await store.room_access("r1")
    assert access is not None and not access.public
    assert access.invite_hash == invite_hash and access.token_hashes == {hash_token("ana-token")}
    await store.set_room_status("r1", "closed")
    assert await store.load_open_rooms() == []
    closed = await store.room_access("r1")
    assert closed == access, "a closed room answers from the store alike"
    assert await store.room_access("nope") is None
