"""Loading the hand-made history in ``data/history.json`` into a store, through the store's
own API (create_room, add_player, start_deal, append_action, finish_deal), exactly as
the rooms write it."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from server.store import Store

HISTORY_FILE = Path(__file__).parent / "data" / "history.json"


def load_history() -> dict[str, Any]:
    """The history file as a dict."""
    return json.loads(HISTORY_FILE.read_text())


async def write_history(store: Store, history: dict[str, Any]) -> dict[str, int]:
    """Write every room, player, deal and action; return the deal ids by their ``key``.

    A deal without a ``result`` is left in progress."""
    for room in history["rooms"]:
        created = datetime.fromisoformat(room["created_at"])
        await store.create_room(room["room_id"], room["variant"], {"rounds": 1}, created)
        for player in room["players"]:
            await store.add_player(
                room["room_id"],
                player["index"],
                player["name"],
                None if player["is_bot"] else f"hash-of-{player['name']}",
                player["is_bot"],
                created,
            )
        await store.set_room_status(room["room_id"], "finished")
    variants = {room["room_id"]: room["variant"] for room in history["rooms"]}
    deal_ids: dict[str, int] = {}
    for deal in history["deals"]:
        started = datetime.fromisoformat(deal["started_at"])
        deal_id = await store.start_deal(
            deal["room_id"],
            1,
            deal["deal_no"],
            variants[deal["room_id"]],
            {"round_wind": "E"},
            deal["seed"],
            deal["seat_players"],
            started,
            300.0,
        )
        for seq, logged in enumerate(deal["actions"], start=1):
            await store.append_action(
                deal_id,
                seq,
                logged["seat"],
                logged["action"],
                started + timedelta(seconds=seq),
                logged["by_bot"],
                logged["bot_reason"],
                300.0 - seq,
            )
        deal_ids[deal["key"]] = deal_id
        if "result" not in deal:
            continue  # a deal still in progress
        nets = {
            int(index): int(deal["result"]["scores"][seat])
            for seat, index in deal["seat_players"].items()
        }
        await store.finish_deal(
            deal_id, deal["result"], datetime.fromisoformat(deal["ended_at"]), nets
        )
    return deal_ids
