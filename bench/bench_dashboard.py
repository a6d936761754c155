"""Dashboard benchmark: 100,000 stored deals in Postgres, then every page and API call timed.

    .venv/bin/python bench/bench_dashboard.py                # generate (once) and measure
    .venv/bin/python bench/bench_dashboard.py --deals 20000  # a smaller history
    .venv/bin/python bench/bench_dashboard.py --regenerate   # drop and rebuild the history

The history goes into its own database, `mahjong_bench_dashboard` on the server of
`MAHJONG_TEST_POSTGRES` (default postgresql+asyncpg://postgres@127.0.0.1:5432/postgres),
and is kept for the next run (upgraded to the newest migration first). It is built at
schema 0001 with the store's own rule for per-player rows
(`server.store.deal_outcome.player_deal_rows`), written with COPY for speed: rooms,
players, deals with results, 60 logged actions a deal and the per-player rows. Then the
remaining migrations run, so the dashboard's summaries come from migration 0002's
backfill, as on a host upgrading a long-running server. The seed is fixed, so every run
builds the same history.

Then `mahjong-hall serve` starts on that database in a subprocess (as in production), the
first call of each figures endpoint after the start is timed, and then each call is timed
over HTTP, 20 times after one warm-up, as is and with a deal finished (through
`Store.finish_deal`) before each call. Figures: p50 and p95 in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
import httpx
from alembic import command
from sqlalchemy.engine import make_url

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from server.store import apply_migrations, open_store  # noqa: E402
from server.store.deal_outcome import player_deal_rows, winners_fan, winners_patterns  # noqa: E402
from server.store.migrating import alembic_config  # noqa: E402

DATABASE_NAME = "mahjong_bench_dashboard"
ADMIN_URL = (
    os.environ.get("MAHJONG_TEST_POSTGRES")
    or "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)
SEATS = {"hk": ["E", "S", "W", "N"], "kaki3": ["E", "S", "W"]}
HUMAN_NAMES = [
    f"{first}{suffix}"
    for first in ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
    for suffix in ("", " L", " K", " M", " T", " W")
]
HK_PATTERNS = [
    ("dragon_set", 1),
    ("seat_wind_set", 1),
    ("round_wind_set", 1),
    ("self_draw", 1),
    ("all_pungs", 3),
    ("half_flush", 3),
    ("full_flush", 6),
    ("seven_pairs", 4),
]
KAKI3_PATTERNS = [
    ("dragon_set", 1),
    ("east_set", 1),
    ("north_set", 1),
    ("seat_wind_set", 1),
    ("animal", 1),
    ("face", 1),
    ("seat_flower", 1),
    ("seat_season", 1),
    ("flower_4", 1),
    ("season_4", 1),
    ("sunk_fei", 1),
    ("all_chow", 1),
]
HK_POINTS = {3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64}
KAKI3_POINTS = {5: 8, 6: 10, 7: 12, 8: 14, 9: 16, 10: 24}


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def bench_url() -> str:
    """The SQLAlchemy URL of the benchmark's own database."""
    return make_url(ADMIN_URL).set(database=DATABASE_NAME).render_as_string(hide_password=False)


def _winning_hand(rng: random.Random, variant: str) -> tuple[int, list[dict[str, Any]]]:
    """A plausible (fan, patterns) for a winner of the variant."""
    table, minimum, cap = (HK_PATTERNS, 3, 8) if variant == "hk" else (KAKI3_PATTERNS, 5, 10)
    patterns: list[dict[str, Any]] = []
    fan = 0
    while fan < minimum:
        pattern, worth = rng.choice(table)
        patterns.append({"id": pattern, "fan": worth})
        fan += worth
    if rng.random() < 0.3:
        pattern, worth = rng.choice(table)
        patterns.append({"id": pattern, "fan": worth})
        fan += worth
    return min(fan, cap), patterns


def make_result(rng: random.Random, variant: str) -> dict[str, Any]:
    """An engine-shaped result: outcome, winners with fan and patterns, payments, scores."""
    seats = SEATS[variant]
    roll = rng.random()
    scores = dict.fromkeys(seats, 0)
    payments: list[dict[str, Any]] = []
    if roll > 0.72:
        outcome = "draw" if roll < 0.9 else "timeout"
        return {
            "outcome": outcome,
            "winners": [],
            "payments": [],
            "scores": scores,
            "next_dealer": "E",
        }
    winner = rng.choice(seats)
    fan, patterns = _winning_hand(rng, variant)
    points = (HK_POINTS if variant == "hk" else KAKI3_POINTS)[fan]
    self_drawn = rng.random() < 0.35
    others = [seat for seat in seats if seat != winner]
    shooter = None if self_drawn else rng.choice(others)
    for payer in others:
        paid = points if (self_drawn or payer == shooter or variant == "hk") else points // 2
        if variant == "hk" and not self_drawn and payer != shooter:
            continue
        payments.append({"from": payer, "to": winner, "points": paid, "reason": "win"})
        scores[payer] -= paid
        scores[winner] += paid
    hand = {
        "self_drawn": self_drawn,
        "from": shooter,
        "winning_tile": "5p",
        "concealed": [],
        "melds": [],
        "bonus": [],
    }
    return {
        "outcome": "win",
        "winners": [
            {
                "seat": winner,
                "fan": fan,
                "limit": False,
                "points": points,
                "patterns": patterns,
                "hand": hand,
            }
        ],
        "payments": payments,
        "scores": scores,
        "next_dealer": winner,
    }


async def generate(deal_count: int, actions_per_deal: int, seed: int) -> None:
    """Fill the benchmark database with `deal_count` finished deals (COPY, in batches)."""
    rng = random.Random(seed)
    connection = await asyncpg.connect(_dsn(bench_url()))
    try:
        end_of_history = datetime(2026, 11, 1, tzinfo=UTC)
        deals_per_room = 20
        room_count = max(1, deal_count // deals_per_room)
        rooms, room_players, deals, deal_players, deal_actions = [], [], [], [], []
        deal_id = 0
        started_clock = time.perf_counter()
        for room_no in range(room_count):
            variant = "hk" if room_no % 2 == 0 else "kaki3"
            room_id = f"bench-{room_no:06d}"
            created = end_of_history - timedelta(days=365 * (room_count - room_no) / room_count)
            rooms.append((room_id, variant, "finished", json.dumps({"rounds": 1}), created))
            seats = SEATS[variant]
            humans = rng.sample(HUMAN_NAMES, rng.randint(1, len(seats)))
            roster: dict[int, Any] = {}
            for index in range(len(seats)):
                is_bot = index >= len(humans)
                name = f"Bot {index + 1}" if is_bot else humans[index]
                roster[index] = SimpleNamespace(name=name, is_bot=is_bot)
                room_players.append(
                    (
                        room_id,
                        index,
                        name,
                        None if is_bot else f"{rng.getrandbits(128):032x}",
                        is_bot,
                        created,
                        0,
                    )
                )
            moment = created
            for deal_no in range(1, deals_per_room + 1):
                deal_id += 1
                result = make_result(rng, variant)
                duration = 300.0 if result["outcome"] == "timeout" else rng.uniform(40, 295)
                started = moment + timedelta(seconds=rng.uniform(5, 60))
                ended = started + timedelta(seconds=duration)
                moment = ended
                order = list(range(len(seats)))
                shift = deal_no % len(seats)
                seat_players = {
                    seat: order[(i + shift) % len(seats)] for i, seat in enumerate(seats)
                }
                deals.append(
                    (
                        deal_id,
                        room_id,
                        1,
                        deal_no,
                        variant,
                        json.dumps({"round_wind": "E"}),
                        rng.getrandbits(62),
                        json.dumps(seat_players),
                        started,
                        300.0,
                        ended,
                        result["outcome"],
                        json.dumps(result["winners"]),
                        winners_fan(result),
                        json.dumps(winners_patterns(result)),
                        json.dumps(result["payments"]),
                        json.dumps(result),
                    )
                )
                for row in player_deal_rows(result, seat_players, roster):
                    deal_players.append(
                        (
                            deal_id,
                            row["player_index"],
                            room_id,
                            row["player_name"],
                            row["seat"],
                            variant,
                            result["outcome"],
                            ended,
                            row["net_points"],
                            row["won"],
                            row["self_drawn"],
                            row["dealt_in"],
                            row["is_bot"],
                        )
                    )
                step = duration / actions_per_deal
                for seq in range(1, actions_per_deal + 1):
                    seat = seats[seq % len(seats)]
                    player = roster[seat_players[seat]]
                    reason_roll = rng.random()
                    if player.is_bot:
                        by_bot, reason = True, "bot_seat"
                    elif reason_roll < 0.02:
                        by_bot, reason = True, "timeout"
                    elif reason_roll < 0.04:
                        by_bot, reason = True, "disconnected"
                    else:
                        by_bot, reason = False, None
                    deal_actions.append(
                        (
                            deal_id,
                            seq,
                            seat,
                            json.dumps(
                                {"type": "discard", "seat": seat, "tile": f"{1 + seq % 9}p"}
                            ),
                            started + timedelta(seconds=step * seq),
                            by_bot,
                            reason,
                            max(0.0, 300.0 - step * seq),
                        )
                    )
            if len(deal_actions) > 200_000 or room_no == room_count - 1:
                await _copy(connection, rooms, room_players, deals, deal_players, deal_actions)
                rooms, room_players, deals, deal_players, deal_actions = [], [], [], [], []
                print(
                    f"  {deal_id:>7} deals written ({time.perf_counter() - started_clock:.0f} s)",
                    flush=True,
                )
        await connection.execute(
            "SELECT setval(pg_get_serial_sequence('deals', 'deal_id'), (SELECT max(deal_id) FROM deals))"
        )
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


async def _copy(connection: asyncpg.Connection, *batches: list[tuple[Any, ...]]) -> None:
    rooms, room_players, deals, deal_players, deal_actions = batches
    async with connection.transaction():
        await connection.copy_records_to_table(
            "rooms",
            records=rooms,
            columns=["room_id", "variant", "status", "settings", "created_at"],
        )
        await connection.copy_records_to_table(
            "room_players",
            records=room_players,
            columns=[
                "room_id",
                "player_index",
                "name",
                "token_hash",
                "is_bot",
                "joined_at",
                "score",
            ],
        )
        await connection.copy_records_to_table(
            "deals",
            records=deals,
            columns=[
                "deal_id",
                "room_id",
                "game_no",
                "deal_no",
                "variant",
                "settings",
                "seed",
                "seat_players",
                "started_at",
                "start_seconds_left",
                "ended_at",
                "outcome",
                "winners",
                "fan",
                "patterns",
                "payments",
                "result",
            ],
        )
        await connection.copy_records_to_table(
            "deal_players",
            records=deal_players,
            columns=[
                "deal_id",
                "player_index",
                "room_id",
                "player_name",
                "seat",
                "variant",
                "outcome",
                "ended_at",
                "net_points",
                "won",
                "self_drawn",
                "dealt_in",
                "is_bot",
            ],
        )
        await connection.copy_records_to_table(
            "deal_actions",
            records=deal_actions,
            columns=[
                "deal_id",
                "seq",
                "seat",
                "action",
                "at",
                "by_bot",
                "bot_reason",
                "deal_seconds_left",
            ],
        )


async def prepare(deal_count: int, actions_per_deal: int, regenerate: bool) -> None:
    """Create (or reuse) the benchmark database holding exactly `deal_count` finished deals."""
    admin = await asyncpg.connect(_dsn(ADMIN_URL))
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", DATABASE_NAME)
        if exists and not regenerate:
            check = await asyncpg.connect(_dsn(bench_url()))
            try:
                have = await check.fetchval("SELECT count(*) FROM deals WHERE ended_at IS NOT NULL")
            except asyncpg.UndefinedTableError:
                have = -1
            finally:
                await check.close()
            if have == deal_count:
                print(f"reusing {DATABASE_NAME}: {have} finished deals; migrating")
                started = time.perf_counter()
                apply_migrations(bench_url())
                print(f"  at the newest schema ({time.perf_counter() - started:.1f} s)")
                return
        await admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    finally:
        await admin.close()
    # The COPY below writes the 0001 tables; the later migrations then fill in what they
    # add from those rows (the summaries' backfill), as on an upgraded server.
    command.upgrade(alembic_config(bench_url()), "0001")
    print(
        f"generating {deal_count} deals with {actions_per_deal} actions each into {DATABASE_NAME}"
    )
    await generate(deal_count, actions_per_deal, seed=20261129)
    started = time.perf_counter()
    apply_migrations(bench_url())
    print(f"  migrated to the newest schema ({time.perf_counter() - started:.1f} s)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _timed(
    client: httpx.Client, path: str, params: dict[str, Any], repeats: int, before: Any
) -> tuple[float, float]:
    """(p50, p95) in ms of ``repeats`` calls; ``before()`` runs untimed before each."""
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        started = time.perf_counter()
        client.get(path, params=params).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]


SUMMARY_TABLES = ("player_totals", "chart_counts")


async def add_one_deal() -> None:
    """Finish one more deal through the store (as a table does): a copy of a random stored
    deal in its room, as a new game, ending after every other deal."""
    connection = await asyncpg.connect(_dsn(bench_url()))
    try:
        source = await connection.fetchrow(
            """SELECT room_id, variant, settings, seed, seat_players, result,
                      ended_at - started_at AS length,
                      (SELECT max(ended_at) FROM deals) + interval '1 second' AS ended
               FROM deals WHERE deal_id = $1""",
            random.randint(1, 100_000),
        )
        game_no = await connection.fetchval(
            "SELECT max(game_no) + 1 FROM deals WHERE room_id = $1", source["room_id"]
        )
    finally:
        await connection.close()
    store = await open_store(bench_url())
    try:
        ended = source["ended"]
        deal_id = await store.start_deal(
            source["room_id"],
            game_no,
            1,
            source["variant"],
            json.loads(source["settings"]),
            source["seed"],
            json.loads(source["seat_players"]),
            ended - source["length"],
            300.0,
        )
        # No running scores: the bench rooms' totals stay as generated.
        await store.finish_deal(deal_id, json.loads(source["result"]), ended, {})
    finally:
        await store.close()


async def save_summaries() -> None:
    """Copy the summary tables aside, so the deals added while measuring can be undone."""
    connection = await asyncpg.connect(_dsn(bench_url()))
    try:
        for table in SUMMARY_TABLES:
            await connection.execute(f"DROP TABLE IF EXISTS bench_saved_{table}")
            await connection.execute(f"CREATE TABLE bench_saved_{table} AS TABLE {table}")
    finally:
        await connection.close()


async def remove_added_deals(deal_count: int) -> None:
    """Put the history back to exactly ``deal_count`` deals (and their summaries)."""
    connection = await asyncpg.connect(_dsn(bench_url()))
    try:
        async with connection.transaction():
            await connection.execute("DELETE FROM deals WHERE deal_id > $1", deal_count)
            for table in SUMMARY_TABLES:
                await connection.execute(f"DELETE FROM {table}")
                await connection.execute(f"INSERT INTO {table} TABLE bench_saved_{table}")
                await connection.execute(f"DROP TABLE bench_saved_{table}")
    finally:
        await connection.close()


def measure(
    repeats: int,
) -> tuple[list[tuple[str, float, float, float, float]], list[tuple[str, float]]]:
    """Start `mahjong-hall serve` on the history and time each call; returns the figures."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": bench_url(),
        "PORT": str(port),
        "MAHJONG_LOG_LEVEL": "WARNING",
    }
    env.pop("MAHJONG_ADMIN_TOKEN", None)
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "mahjong-hall"), "serve"],
        cwd=REPOSITORY,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if client.get("/readyz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            # The first call of each figures endpoint after the start: nothing is loaded
            # or cached in the process, so this is what a host sees after a restart.
            cold = []
            for path in ("standings", "charts", "operations"):
                started = time.perf_counter()
                client.get(f"/api/dashboard/{path}", timeout=600).raise_for_status()
                cold.append((path, (time.perf_counter() - started) * 1000))
            newest = client.get("/api/dashboard/deals", params={"limit": 1}).json()["deals"][0]
            player = next(p["name"] for p in newest["players"] if not p["is_bot"])
            calls = [
                ("page /dashboard", "/dashboard", {}),
                ("page script", "/dashboard/assets/dashboard.js", {}),
                ("deals (latest 25)", "/api/dashboard/deals", {"limit": 25}),
                ("deals, page 40", "/api/dashboard/deals", {"limit": 25, "offset": 1000}),
                ("deals ?player", "/api/dashboard/deals", {"player": player, "limit": 25}),
                (
                    "deals ?variant&since",
                    "/api/dashboard/deals",
                    {"variant": "kaki3", "since": "2026-06-01", "limit": 25},
                ),
                ("deals ?room", "/api/dashboard/deals", {"room": newest["room_id"]}),
                ("deal breakdown", f"/api/dashboard/deals/{newest['deal_id']}", {}),
                ("standings (all)", "/api/dashboard/standings", {}),
                ("standings ?variant", "/api/dashboard/standings", {"variant": "hk"}),
                ("standings ?since (30 d)", "/api/dashboard/standings", {"since": "2026-10-02"}),
                ("standings ?player", "/api/dashboard/standings", {"player": player}),
                ("standings ?room", "/api/dashboard/standings", {"room": newest["room_id"]}),
                ("charts (all)", "/api/dashboard/charts", {}),
                ("charts ?player", "/api/dashboard/charts", {"player": player}),
                ("charts ?since (30 d)", "/api/dashboard/charts", {"since": "2026-10-02"}),
                ("operations (all)", "/api/dashboard/operations", {}),
                ("operations ?since (30 d)", "/api/dashboard/operations", {"since": "2026-10-02"}),
                ("operations ?player", "/api/dashboard/operations", {"player": player}),
                (
                    "standings, SQL path",
                    "/api/dashboard/standings",
                    {"since": "2026-10-02T12:00:00Z"},
                ),
                (
                    "charts, SQL path",
                    "/api/dashboard/charts",
                    {"outcome": "timeout", "since": "2026-10-02"},
                ),
            ]
            figures = []
            for label, path, params in calls:
                answer = client.get(path, params=params)
                assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
                steady = _timed(client, path, params, repeats, None)
                # The same call when a deal has finished since the previous one (the server
                # catches up and recomputes): one more finished deal before each call.
                fresh = _timed(client, path, params, repeats, lambda: asyncio.run(add_one_deal()))
                figures.append((label, *steady, *fresh))
            return figures, cold
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> int:
    """Generate the history if needed, then print the timing table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--actions-per-deal", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--regenerate", action="store_true")
    args = parser.parse_args()
    asyncio.run(prepare(args.deals, args.actions_per_deal, args.regenerate))
    asyncio.run(save_summaries())
    try:
        figures, cold = measure(args.repeats)
    finally:
        asyncio.run(remove_added_deals(args.deals))
    load = os.getloadavg()[0]
    print(f"\n{args.deals} finished deals in Postgres; {args.repeats} timed calls each, in ms")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores at the end)")
    print(f"{'call':<28}{'steady p50':>12}{'p95':>8}{'new deal p50':>14}{'p95':>8}")
    for label, p50, p95, fresh50, fresh95 in figures:
        print(f"{label:<28}{p50:>12.1f}{p95:>8.1f}{fresh50:>14.1f}{fresh95:>8.1f}")
    print("\nfirst call after a fresh start: " + ", ".join(f"{p} {ms:.1f} ms" for p, ms in cold))
    slowest = max(max(max(figure[2], figure[4]) for figure in figures), max(ms for _, ms in cold))
    print(f"slowest p95: {slowest:.1f} ms (target: under 300 ms)")
    return 0 if slowest < 300 else 1


if __name__ == "__main__":
    sys.exit(main())
