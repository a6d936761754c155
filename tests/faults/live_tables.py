"""Tables played over a real `mahjong-hall serve` while its database fails: one scripted
WebSocket player per table (the bots take the other seats), and what each one saw."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.live_server import TableClient, add_bots, create_room, join
from tests.live import free_port
from tests.serve import ServerProcess, serve_command, server_environment

VARIANTS = ("hk", "kaki3", "hk", "kaki3")
# A short turn clock, shorter than the outages: a clock that ran through an outage would
# hand the player's turn to their bot as a `timeout`.
TURN_SECONDS = 2


def start_server(database_url: str, log: Path, **settings: str) -> tuple[ServerProcess, str]:
    """A real server on `database_url`, bots quick; returns it and its base URL."""
    port = free_port()
    env = server_environment(
        MAHJONG_BOT_DELAY="0.03",
        MAHJONG_BOT_LEVEL="baseline",
        MAHJONG_NEXT_DEAL_SECONDS="3600",
        MAHJONG_WS_RATE_PER_SECOND="200",
        MAHJONG_WS_RATE_BURST="400",
        **settings,
    )
    command = serve_command("--port", str(port), "--database-url", database_url)
    server = ServerProcess(command, env, log)
    base = f"http://127.0.0.1:{port}"
    server.wait_for(f"{base}/readyz")
    return server, base


def codes(client: TableClient, kind: str) -> list[str]:
    """The codes of the `notice` (or `error`) messages the client got, in order."""
    return [m["code"] for m in client.messages if m["type"] == kind]


async def play_through(client: TableClient, timeout: float = 90) -> dict[str, Any]:
    """Play the seat until the deal's `result`, as a patient human would: an action the
    server could not save is sent again once the table offers it again."""
    deadline = time.monotonic() + timeout
    while True:
        message = await client.receive(timeout=max(0.1, deadline - time.monotonic()))
        if message["type"] == "result":
            return message
        if message["type"] == "state":
            await client.act_if_due(message)
        elif message["type"] == "error" and message["code"] in (
            "store_unavailable",
            "rate_limited",
        ):
            client.forget_answer()  # offered again by the state that follows the outage
        elif message["type"] == "error" and message["code"] == "not_legal":
            pass  # lost a race with a bot's claim: the next state is the truth


class Tables:
    """Several rooms on one server, each with one scripted player already playing."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.room_ids: list[str] = []
        self.variants: list[str] = []
        self.clients: list[TableClient] = []
        self.playing: list[asyncio.Task[dict[str, Any]]] = []

    async def open(self, variants: tuple[str, ...] = VARIANTS) -> Tables:
        for variant in variants:
            await self._open_table(variant)
        return self

    async def _open_table(self, variant: str) -> None:
        number = len(self.room_ids)
        async with httpx.AsyncClient(base_url=self.base, timeout=10) as http:
            room_id = await create_room(http, variant, turn_seconds=TURN_SECONDS)
            seated = await join(http, room_id, f"Player {number}")
            ws = self.base.replace("http", "ws", 1)
            client = await TableClient.open(
                f"{ws}/ws/rooms/{room_id}?token={seated['token']}", f"Player {number}"
            )
            answer = await add_bots(http, room_id)
            assert answer.status_code == 200, answer.text
        self.room_ids.append(room_id)
        self.variants.append(variant)
        self.clients.append(client)
        self.playing.append(asyncio.create_task(play_through(client)))

    async def until_each_has_played(self, moves: int, timeout: float = 30) -> None:
        """Wait until every table has moved `moves` times (states seen), still mid-deal.

        A deal can end before that (an earthly hand on the dealer's first discard, about
        one deal in a few hundred): such a table did not reach the fault, so it leaves the
        test and a new table of the same kind takes its place."""
        deadline = time.monotonic() + timeout
        while any(len(client.states) < moves for client in self.clients):
            assert time.monotonic() < deadline, "the tables did not get going"
            for index, task in enumerate(self.playing):
                if task.done():
                    ended = task.exception() or task.result()
                    assert isinstance(ended, dict) and ended.get("type") == "result", (
                        f"a table stopped before the fault: {ended!r}"
                    )
                    variant = self.variants[index]
                    await self._drop(index)
                    await self._open_table(variant)
                    break
            await asyncio.sleep(0.02)

    async def _drop(self, index: int) -> None:
        self.room_ids.pop(index)
        self.variants.pop(index)
        self.playing.pop(index)
        await self.clients.pop(index).close()

    async def until_every_table_noticed(self, code: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not all(code in codes(client, "notice") for client in self.clients):
            missing = [c.name for c in self.clients if code not in codes(c, "notice")]
            assert time.monotonic() < deadline, f"no {code} notice for {missing}"
            await asyncio.sleep(0.02)

    async def results(self, timeout: float = 90) -> list[dict[str, Any]]:
        done = await asyncio.wait_for(asyncio.gather(*self.playing), timeout)
        return list(done)

    async def close(self) -> None:
        for task in self.playing:
            task.cancel()
        for client in self.clients:
            await client.close()
