"""A scripted player who keeps their seat through a failover: when the link drops (its
server died, or the table moved), they reconnect through the proxy with the same token, as
the browser client does, until the table answers again; every connection's messages kept."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.api.live_server import TableClient, add_bots, create_room, join

# The browser client's reconnection schedule (web/connection.js, without its jitter): the
# first retry at once, then 0.5 s, 1 s, 2 s... (capped lower here: a test's minutes).
CLIENT_RETRIES = (0.0, 0.5, 1.0, 2.0)


@dataclass
class Link:
    """One connection of a seat: when it opened, its messages, and how it ended."""

    opened_at: float
    messages: list[dict[str, Any]] = field(default_factory=list)
    first_state_at: float | None = None
    close_code: int | None = None

    def state_seqs(self) -> list[int]:
        """The `seq` of each `state` this connection got, in order."""
        return [int(m["seq"]) for m in self.messages if m["type"] == "state"]


class Seat:
    """One human seat at one table, played by a script until the deal's result."""

    def __init__(
        self,
        ws_base: str,
        room_id: str,
        token: str,
        name: str,
        retries: tuple[float, ...] = CLIENT_RETRIES,
    ) -> None:
        self.url = f"{ws_base}/ws/rooms/{room_id}?token={token}"
        self.retries = retries  # the waits before each retry, the last one repeated
        self.attempt = 0  # retries since the last link that got a state
        self.room_id = room_id
        self.name = name
        self.links: list[Link] = []
        self.refusals: list[int] = []  # close codes of attempts that got no state
        self.playing: asyncio.Task[dict[str, Any]] | None = None

    @property
    def states(self) -> int:
        """States seen over every connection."""
        return sum(len(link.state_seqs()) for link in self.links)

    async def play(self, timeout: float = 150) -> dict[str, Any]:
        """Play until the deal's `result`, reconnecting whenever the link drops."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                client = await TableClient.open(self.url, self.name)
            except (OSError, InvalidStatus, TimeoutError):
                await self._back_off()
                continue
            link = Link(opened_at=time.monotonic())
            client.messages = link.messages
            self.links.append(link)
            try:
                return await self._play_link(client, link, deadline)
            except ConnectionClosed as closed:
                link.close_code = closed.rcvd.code if closed.rcvd else None
                if not link.messages:  # refused (e.g. 1013: the table is moving)
                    self.links.remove(link)
                    self.refusals.append(link.close_code or 0)
                await self._back_off()
            finally:
                await client.close()
        raise AssertionError(f"{self.name} got no result in {timeout} s")

    async def _back_off(self) -> None:
        await asyncio.sleep(self.retries[min(self.attempt, len(self.retries) - 1)])
        self.attempt += 1

    async def _play_link(self, client: TableClient, link: Link, deadline: float) -> dict[str, Any]:
        while True:
            message = await client.receive(timeout=max(0.1, deadline - time.monotonic()))
            if message["type"] == "result":
                return message
            if message["type"] == "state":
                if link.first_state_at is None:
                    link.first_state_at = time.monotonic()
                    self.attempt = 0  # as the client, which resets at a first state
                await client.act_if_due(message)
            elif message["type"] == "error":
                client.forget_answer()  # refused (raced a bot's claim, or moving): the next state says


async def open_tables(
    base: str,
    ws_base: str,
    count: int,
    variants: tuple[str, ...] = ("hk", "kaki3"),
    retries: tuple[float, ...] = CLIENT_RETRIES,
) -> list[Seat]:
    """`count` public tables through the proxy, each with one scripted player seated and
    playing (`Seat.playing`) and bots in the other seats (the deal starts as they sit)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def open_one(number: int) -> Seat:
            variant = variants[number % len(variants)]
            room_id = await create_room(http, variant, turn_seconds=5, public=True)
            seated = await join(http, room_id, f"Player {number}")
            seat = Seat(ws_base, room_id, seated["token"], f"Player {number}", retries)
            seat.playing = asyncio.create_task(seat.play())
            answer = await add_bots(http, room_id)
            assert answer.status_code == 200, answer.text
            return seat

        return list(await asyncio.gather(*(open_one(number) for number in range(count))))
