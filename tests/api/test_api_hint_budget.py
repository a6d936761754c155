"""A hint flood from one address meets a budget across all its sockets (issue 25, point 2),
over real uvicorn and real WebSockets.

Each socket may send 20 messages a second, but a hint runs the full bot: sixteen sockets of
one address at 19 hints a second stalled every table of the server. So an address has one
budget of hints across all its sockets (a burst, then one a second); past it a hint is
refused with `rate_limited`, and another address is not affected.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from server.api.ws import HINTS_PER_ADDRESS_PER_MINUTE
from tests.api.live_server import LiveServer, add_bots, create_room, join

SOCKETS = 4
RATE = 19.0  # under the 20 messages a second one socket may send
SECONDS = 2.0


async def _seated_socket(
    live: LiveServer, http: httpx.AsyncClient, address: str
) -> ClientConnection:
    room_id = await create_room(http, "hk", turn_seconds=600, hints=True)
    seat = await join(http, room_id, "Ana")
    assert (await add_bots(http, room_id)).status_code == 200
    return await connect(live.ws_url(room_id, seat["token"]), local_addr=(address, 0))


async def _ask(socket_: ClientConnection, count: int, prefix: str) -> list[dict[str, Any]]:
    """Send `count` hints at `RATE`; every answer to them (a hint, or an error with its id)."""
    answers: list[dict[str, Any]] = []

    async def read() -> None:
        async for text in socket_:
            message = json.loads(text)
            if str(message.get("id", "")).startswith(prefix):
                answers.append(message)

    reader = asyncio.create_task(read())
    for number in range(count):
        await socket_.send(json.dumps({"type": "hint", "id": f"{prefix}{number}"}))
        await asyncio.sleep(1 / RATE)
    for _ in range(100):
        if len(answers) == count:
            break
        await asyncio.sleep(0.05)
    reader.cancel()
    return answers


async def test_one_addresses_hints_share_one_budget_and_another_address_keeps_its_own(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    flood = [await _seated_socket(live, http, "127.0.0.1") for _ in range(SOCKETS)]
    other = await _seated_socket(live, http, "127.0.0.2")
    per_socket = int(RATE * SECONDS)
    try:
        answered = await asyncio.gather(
            *(_ask(socket_, per_socket, f"s{n}-") for n, socket_ in enumerate(flood))
        )
        late = await _ask(other, 1, "other-")
    finally:
        for socket_ in (*flood, other):
            await socket_.close()

    answers = [answer for socket_answers in answered for answer in socket_answers]
    assert len(answers) == SOCKETS * per_socket, "every hint is answered, one way or another"
    refused = [a for a in answers if a["type"] == "error" and a["code"] == "rate_limited"]
    served = len(answers) - len(refused)
    # The burst, and what it refilled at one a second while the flood lasted.
    budget = HINTS_PER_ADDRESS_PER_MINUTE + (SECONDS + 1) * HINTS_PER_ADDRESS_PER_MINUTE / 60
    assert 0 < served <= budget, (served, budget)
    assert len(refused) >= SOCKETS * per_socket - budget
    assert all("hints" in a["message"] for a in refused)
    (answer,) = late
    assert answer["type"] == "hint" or answer["code"] != "rate_limited", answer
