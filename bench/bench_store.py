"""Benchmark the store's hot path: persisting actions from many tables at once.

For each database, 200 tables (rooms with a deal in progress) append actions in a loop:
- "saturated": every table appends back to back, as fast as the store accepts: the
  throughput ceiling (actions persisted per second).
- "paced": every table appends 5 actions per second (about 1,000 actions/s in all, the
  server's target load): the latency persistence adds to each action (p50, p99).

Usage (from the repository root):
    .venv/bin/python bench/bench_store.py [--tables 200] [--seconds 10]
        [--postgres-admin-url URL] [--only sqlite|postgres]

SQLite runs on a temporary file. Postgres runs in a throwaway database created through the
admin URL (default $MAHJONG_TEST_POSTGRES, else postgresql+asyncpg://postgres@127.0.0.1:5432/postgres)
and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
from sqlalchemy.engine import make_url

from server.store import Store, apply_migrations, open_store

DEFAULT_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
SEATS = {"E": 0, "S": 1, "W": 2, "N": 3}


async def seat_tables(store: Store, tables: int, label: str) -> list[int]:
    """Create `tables` rooms of four players, each with a deal started; return the deal ids."""
    now = datetime.now(UTC)

    async def seat(table: int) -> int:
        room_id = f"{label}-{table}"
        await store.create_room(room_id, "hk", {"turn_seconds": 40}, now)
        for index in range(4):
            await store.add_player(room_id, index, f"player {index}", None, index == 3, now)
        return await store.start_deal(
            room_id, 1, 1, "hk", {"variant": "hk"}, table, SEATS, now, 300.0
        )

    return list(await asyncio.gather(*(seat(table) for table in range(tables))))


async def run_tables(
    store: Store, deal_ids: list[int], seconds: float, pace_hz: float | None
) -> dict[str, float]:
    """Every table appends in a loop for `seconds`; returns throughput and latency figures."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def table_loop(deal_id: int, table: int) -> None:
        seq = 0
        interval = 1 / pace_hz if pace_hz else 0.0
        # Spread the paced tables over the first interval, as real tables are not in step.
        next_at = time.perf_counter() + (table / len(deal_ids)) * interval
        while time.perf_counter() < deadline:
            if interval:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at += interval
            action = {"type": "discard", "tile": "5p"}
            started = time.perf_counter()
            await store.append_action(
                deal_id, seq, "ESWN"[seq % 4], action, datetime.now(UTC), False, None, 250.0
            )
            latencies.append(time.perf_counter() - started)
            seq += 1

    started = time.perf_counter()
    await asyncio.gather(*(table_loop(deal_id, n) for n, deal_id in enumerate(deal_ids)))
    elapsed = time.perf_counter() - started
    persisted = sum([await store.count_actions(deal_id) for deal_id in deal_ids])
    assert persisted == len(latencies), f"{persisted} persisted but {len(latencies)} appended"
    ordered = sorted(latencies)
    return {
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / elapsed, 1),
        "latency_ms_p50": round(statistics.median(ordered) * 1000, 2),
        "latency_ms_p99": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 2),
    }


async def bench_database(url: str, tables: int, seconds: float) -> dict[str, dict[str, float]]:
    """Both workloads on one (migrated, empty) database."""
    apply_migrations(url)
    store = await open_store(url)
    try:
        figures = {}
        for workload, pace in [("saturated", None), ("paced", 5.0)]:
            deal_ids = await seat_tables(store, tables, workload)
            figures[workload] = await run_tables(store, deal_ids, seconds, pace)
        return figures
    finally:
        await store.close()


async def _admin(admin_url: str, sql: str) -> None:
    dsn = make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def with_postgres(
    admin_url: str, work: Callable[[str], Awaitable[dict[str, dict[str, float]]]]
) -> dict[str, dict[str, float]]:
    """Run `work` on a throwaway Postgres database, dropped afterwards."""
    name = f"mahjong_bench_{secrets.token_hex(4)}"
    await _admin(admin_url, f'CREATE DATABASE "{name}"')
    try:
        return await work(
            make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        )
    finally:
        await _admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument(
        "--postgres-admin-url", default=os.environ.get("MAHJONG_TEST_POSTGRES") or DEFAULT_ADMIN_URL
    )
    args = parser.parse_args()
    results = {}
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite+aiosqlite:///{Path(directory) / 'bench.sqlite3'}"
            results["sqlite"] = await bench_database(url, args.tables, args.seconds)
    if args.only in (None, "postgres"):
        results["postgres"] = await with_postgres(
            args.postgres_admin_url, lambda url: bench_database(url, args.tables, args.seconds)
        )
    print(json.dumps({"tables": args.tables, "seconds": args.seconds, **results}, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
