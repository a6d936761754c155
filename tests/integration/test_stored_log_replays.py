"""Finished deals stored by the server replay to the stored result exactly.

Bots-only rooms of both tables play several deals through the real room manager into a
real SQLite store (a hand-driven clock moves them from one deal to the next). Each finished
deal is then read back from the database, seed, settings and logged actions, and:

- `engine.replay` from the seed and the log gives the stored result object, exactly;
- `mahjong-hall replay`, fed the same seed's hands and wall and the log unchanged, prints
  the same outcome, winners, payments, scores and next dealer.

This is what crash recovery stands on: a deal is its seed plus its log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from server.cli.replay import replay_document
from server.engine import Action, DealSettings, replay
from server.engine.tiles import format_tiles
from server.engine.variants import get_variant
from server.engine.wall import shuffled_deal
from server.replays.review import export_document
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings, TableSettings
from server.store import Store, apply_migrations, open_store
from server.store.schema import deal_actions, deals

DEALS_PER_VARIANT = 3


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'replays.sqlite3'}"
    apply_migrations(url)
    opened = await open_store(url)
    yield opened
    await opened.close()


@pytest.fixture
async def manager(store: Store) -> AsyncIterator[RoomManager]:
    rooms = RoomManager(
        store,
        ManualClock(),
        TableSettings(
            bot_delay=0,
            next_deal_seconds=5,
            bot_level="baseline",
            # Bots-only deals, one after another, with nobody connected.
            hold_deals_without_humans=False,
        ),
    )
    yield rooms
    await rooms.shutdown()


async def play_bot_deals(manager: RoomManager, variant: str, count: int) -> str:
    """A bots-only room of `variant` that has finished at least `count` deals; its id.

    Bots act at once (no delay), so only the pause between deals needs the clock: it is
    moved to the next deal's start whenever the table waits for it.
    """
    room_id = await manager.create_room(RoomSettings(variant=variant, rounds=4))
    actor = manager.get(room_id)
    await manager.add_bots(room_id)
    clock = manager.clock
    assert isinstance(clock, ManualClock)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 120
    while len((await manager.store.room_results(room_id) or {}).get("deals", [])) < count:
        assert loop.time() < give_up, "the bots did not finish their deals in time"
        if actor.next_deal_at is not None and not actor.has_mail:
            clock.set(actor.next_deal_at)
        await asyncio.sleep(0.01)
    return room_id


async def stored_deals(store: Store, room_id: str) -> list[dict[str, Any]]:
    """Every finished deal of the room as stored: variant, settings, seed, log and result."""
    async with store.engine.connect() as conn:
        rows = list(
            await conn.execute(
                select(deals)
                .where(deals.c.room_id == room_id, deals.c.ended_at.is_not(None))
                .order_by(deals.c.deal_id)
            )
        )
        finished = []
        for row in rows:
            log = await conn.execute(
                select(deal_actions.c.action)
                .where(deal_actions.c.deal_id == row.deal_id)
                .order_by(deal_actions.c.seq)
            )
            finished.append(
                {
                    "variant": row.variant,
                    "round_wind": row.settings.get("round_wind", "E"),
                    "seed": int(row.seed),
                    "actions": [entry.action for entry in log],
                    "result": row.result,
                }
            )
    return finished


@pytest.fixture(params=["kaki3", "hk"])
async def finished_deals(request: Any, manager: RoomManager, store: Store) -> list[dict[str, Any]]:
    """Several finished bot deals of one table, read back from the store."""
    room_id = await play_bot_deals(manager, request.param, DEALS_PER_VARIANT)
    finished = await stored_deals(store, room_id)
    assert len(finished) >= DEALS_PER_VARIANT
    return finished


async def test_stored_bot_deals_replay_to_the_stored_result(
    finished_deals: list[dict[str, Any]],
) -> None:
    for deal in finished_deals:
        settings = DealSettings(variant=deal["variant"], round_wind=deal["round_wind"])
        state = replay(settings, deal["seed"], [Action.from_json(a) for a in deal["actions"]])
        # The stored result went through JSON; so does the replayed one before comparing.
        assert state.result is not None
        assert json.loads(json.dumps(state.result.to_json())) == deal["result"]
        # The same log fed to `mahjong-hall replay` unchanged, with the seed's hands and wall.
        hands, wall = shuffled_deal(get_variant(deal["variant"]), deal["seed"])
        printed = replay_document(
            json.dumps(
                {
                    "variant": deal["variant"],
                    "round_wind": deal["round_wind"],
                    "hands": {seat: format_tiles(tiles) for seat, tiles in hands.items()},
                    "wall": format_tiles(wall),
                    "actions": deal["actions"],
                }
            )
        )
        stored = deal["result"]
        assert printed["outcome"] == stored["outcome"]
        assert printed["scores"] == stored["scores"]
        assert printed["next_dealer"] == stored["next_dealer"]
        assert printed["payments"] == [p for p in stored["payments"] if p["points"]]
        assert [(w["seat"], w["fan"], w["patterns"]) for w in printed["winners"]] == [
            (w["seat"], w["fan"], w["patterns"]) for w in stored["winners"]
        ]


async def test_each_exported_deal_replays_to_exactly_its_stored_result(
    finished_deals: list[dict[str, Any]],
) -> None:
    for number, deal in enumerate(finished_deals, start=1):
        stored = {
            "room_id": "sample",
            "deal_no": number,
            "variant": deal["variant"],
            "settings": {"round_wind": deal["round_wind"]},
            "seed": deal["seed"],
            "actions": [{"action": action} for action in deal["actions"]],
            "result": deal["result"],
        }
        exported = json.loads(json.dumps(export_document(stored)))
        printed = replay_document(json.dumps(exported))
        assert printed == exported["expect"]
        assert exported["expect"]["scores"] == deal["result"]["scores"]
        assert exported["expect"]["outcome"] == deal["result"]["outcome"]
