"""Two servers on one Postgres: a hand recorded through one reaches a phone watching the
ledger through the other (its socket asks Postgres for the revision every few seconds)."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
from websockets.asyncio.client import connect

from server.api.ledger_live import POLL_SECONDS
from tests.ledger.hands import full_flush
from tests.ledger.ledger_hall import LedgerHall, add, open_ledger
from tests.pg import drop_database, postgres_url_or_skip


async def test_a_change_through_one_process_reaches_a_socket_on_the_other() -> None:
    url = postgres_url_or_skip()
    first, second = LedgerHall(url).start(), LedgerHall(url).start()
    try:
        async with httpx.AsyncClient(base_url=first.http_url, timeout=20) as client:
            opened = await open_ledger(client)
            async with connect(second.ws_url(opened["ledger_id"], opened["invite"])) as phone:
                assert json.loads(await asyncio.wait_for(phone.recv(), 10))["revision"] == 0
                sent = time.monotonic()
                assert (await add(client, opened, full_flush(2, None, "1a 2a"))).status_code == 201
                update = json.loads(await asyncio.wait_for(phone.recv(), 10 * POLL_SECONDS))
                assert update["revision"] == 1
                assert update["scores"] == {"Ana": -8, "Bo": -8, "Cy": 16}
                assert time.monotonic() - sent < 5 * POLL_SECONDS
    finally:
        first.stop()
        second.stop()
        drop_database(url)
