"""The lobby and the dashboard's live view list the rooms of every process, whichever
process answers (through the proxy, round robin, or each process directly)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.api.live_server import INVITES, create_room, join
from tests.pg import drop_database, postgres_url_or_skip
from tests.scaling.cluster import Cluster, lease_owners, owned_by

ROOMS = 8


def test_every_process_lists_the_rooms_of_every_process(tmp_path: Path) -> None:
    url = postgres_url_or_skip()
    cluster = Cluster(url, tmp_path / "cluster.log")
    try:
        asyncio.run(list_everywhere(cluster, url))
    finally:
        cluster.stop()
        drop_database(url)


async def list_everywhere(cluster: Cluster, url: str) -> None:
    async with httpx.AsyncClient(base_url=cluster.base, timeout=20) as http:
        room_ids = [
            await create_room(http, "hk", public=True, name=f"Table {n}") for n in range(ROOMS)
        ]
        for number, room_id in enumerate(room_ids):  # each joins on the room's owner
            await join(http, room_id, f"Player {number}")
        unlisted = await create_room(http, "hk")  # a private table is never listed
        owners = await lease_owners(url)
        assert len(set(owners.values())) >= 2, "the rooms are spread over the processes"

        addresses = [cluster.base] * 3 + [
            f"http://127.0.0.1:{member.port}" for member in cluster.members
        ]
        for address in addresses:
            listed = (await http.get(f"{address}/api/rooms")).json()
            assert {room["room_id"] for room in listed["rooms"]} == set(room_ids), address
            assert unlisted not in {room["room_id"] for room in listed["rooms"]}
            for room in listed["rooms"]:
                number = room_ids.index(room["room_id"])
                assert room["players"] == [f"Player {number}"]
                assert room["name"] == f"Table {number}"
                assert room["free_seats"] == 3 and room["status"] == "waiting"

        # The live view: each owner renews its leases with its rooms' snapshots.
        for member in cluster.members:
            address = f"http://127.0.0.1:{member.port}/api/dashboard/operations"
            deadline = time.monotonic() + 10
            while True:
                live = (await http.get(address)).json()["live"]
                shown = {room["room_id"] for room in live["rooms"]}
                if shown >= set(room_ids) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert set(room_ids) <= shown, address

        # A request at a process that does not own the room: "try again", and the owner
        # hands the room over, so the retry finds it there.
        room_id = room_ids[0]
        [owner] = [m for m in cluster.members if owned_by(owners, m) & {room_id}]
        other = next(member for member in cluster.members if member != owner)
        there = f"http://127.0.0.1:{other.port}/api/rooms/{room_id}"
        refused = await http.get(there, params={"invite": INVITES[room_id]})
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "room_moving"
        assert refused.headers["retry-after"] == "1"
        deadline = time.monotonic() + 10
        while (
            answer := await http.get(there, params={"invite": INVITES[room_id]})
        ).status_code != 200:
            assert answer.status_code == 503 and time.monotonic() < deadline, answer.text
            await asyncio.sleep(0.2)
        assert answer.json()["players"][0]["name"] == "Player 0"
        assert owned_by(await lease_owners(url), other) >= {room_id}
