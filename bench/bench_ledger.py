"""Ledger changes: how long recording a hand takes as a night grows, through the real app.

Run: .venv/bin/python bench/bench_ledger.py [--hands N] [--database-url URL]

Every change of a ledger reckons the whole night again (docs/ledger.md, "Mistakes are
normal"), so a change costs more the more hands the night holds. This opens a 3 Kaki
ledger on a fresh SQLite file (or the given database), then records N hands one by one
through `POST /api/ledgers/{id}/hands` on the app (httpx over ASGI: the routes, the engine,
the store; no network), and prints the median milliseconds per hand at each tenth of the
night, then the time to read the whole ledger and to check a hand at its end. The hands
cycle through distinct winning hands (a different winner, discarder and bonus tiles each
time), so the engine's memo of scored hands serves later reckonings as it does at a table.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from itertools import cycle
from pathlib import Path
from typing import Any

import httpx

from server.app import create_app
from server.store import apply_migrations

# 111p 345p 567p 789p 22p is a full flush (3 fan); two bonus tiles scoring at every seat
# make it 5 fan, a win wherever its winner sits.
BONUS = ["1a 2a", "1c 2c", "3a 4a", "1a 3c", "2a 4c", "3c 4c", "4f 4n", "1a 4f"]
WINS = [
    (winner, discarder, bonus)
    for winner in range(3)
    for discarder in (None, *(p for p in range(3) if p != winner))
    for bonus in BONUS
]


def hand(winner: int, discarder: int | None, bonus: str) -> dict[str, Any]:
    return {
        "outcome": "win",
        "winner": winner,
        "discarder": discarder,
        "hand": {"concealed": "111p 345p 567p 789p 22p", "bonus": bonus, "winning_tile": "2p"},
    }


async def run(hands: int, database_url: str) -> None:
    apply_migrations(database_url)
    app = create_app(database_url)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            opened = (
                await client.post(
                    "/api/ledgers", json={"variant": "kaki3", "players": ["Ana", "Bo", "Cy"]}
                )
            ).json()
            base = f"/api/ledgers/{opened['ledger_id']}"
            timings: list[float] = []
            wins = cycle(WINS)
            for _ in range(hands):
                body = {**hand(*next(wins)), "invite": opened["invite"]}
                started = time.perf_counter()
                answer = await client.post(f"{base}/hands", json=body)
                timings.append(time.perf_counter() - started)
                assert answer.status_code == 201, answer.text
            step = max(1, hands // 10)
            print(f"{'hands':>6} {'median ms per new hand':>24}")
            for end in range(step, hands + 1, step):
                window = timings[end - step : end]
                print(f"{end:>6} {statistics.median(window) * 1000:>24.1f}")
            started = time.perf_counter()
            await client.get(base, params={"invite": opened["invite"]})
            read = time.perf_counter() - started
            started = time.perf_counter()
            body = {**hand(*next(wins)), "invite": opened["invite"]}
            await client.post(f"{base}/hands/check", json=body)
            checked = time.perf_counter() - started
            print(f"read the ledger of {hands} hands: {read * 1000:.1f} ms")
            print(f"check a hand at its end: {checked * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(folder) / 'bench.sqlite3'}"
        asyncio.run(run(args.hands, url))


if __name__ == "__main__":
    main()
