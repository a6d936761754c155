"""`mahjong-hall serve`: apply database migrations, then run the server with uvicorn."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import threading
import time

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of CONTRACTS.md §3."""
    parser.add_argument(
        "--host", default=os.environ.get("HOST", DEFAULT_HOST), help="address to listen on"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT", DEFAULT_PORT)),
        help="port to listen on",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL (default: $DATABASE_URL, else a SQLite file in the working directory)",
    )


# Python's default (700, 10, 10) suits short scripts. A busy table server allocates
# hundreds of thousands of objects a second, and a table state that lives a second outlives
# a few young collections, reaches the oldest generation and soon sets off a full
# collection of every object of every table: pauses of hundreds of milliseconds, the
# server's worst latency at a thousand tables (docs/benchmarks.md, "Server load").
DEFAULT_GC_THRESHOLDS = (100_000, 50, 1_000)


def gc_thresholds() -> tuple[int, int, int]:
    """The collector's thresholds, from `MAHJONG_GC_THRESHOLDS` ("gen0,gen1,gen2")."""
    text = os.environ.get("MAHJONG_GC_THRESHOLDS")
    if not text:
        return DEFAULT_GC_THRESHOLDS
    parts = text.split(",")
    if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
        raise ValueError(
            f"MAHJONG_GC_THRESHOLDS must be three whole numbers like 100000,50,1000, not {text!r}"
        )
    first, second, third = (int(part) for part in parts)
    return first, second, third


def log_slow_collections() -> None:
    """With `MAHJONG_GC_LOG_MS` set, log every collection that takes longer than that many
    milliseconds (its generation, duration and objects freed): to tell the collector's
    pauses from the rest when a latency tail appears. Two clock reads per collection."""
    text = os.environ.get("MAHJONG_GC_LOG_MS")
    if not text:
        return
    limit = float(text) / 1000
    logger = logging.getLogger("mahjong.gc")
    started = [0.0]

    def timing(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        if took >= limit:
            logger.warning(
                "gc generation %d took %.1f ms, freed %d",
                info["generation"],
                took * 1000,
                info["collected"],
            )

    gc.callbacks.append(timing)


def gc_freeze_period() -> float | None:
    """Seconds between `gc.freeze()` calls, from `MAHJONG_GC_FREEZE_SECONDS` (unset: never)."""
    text = os.environ.get("MAHJONG_GC_FREEZE_SECONDS")
    if not text:
        return None
    try:
        period = float(text)
    except ValueError:
        period = 0.0
    if not period > 0 or period == float("inf"):
        raise ValueError(
            f"MAHJONG_GC_FREEZE_SECONDS must be a positive number of seconds, not {text!r}"
        )
    return period


def freeze_periodically(period: float | None) -> None:
    """Every `period` seconds move every object to the collector's permanent generation
    (cheap: list merges, and it resets the young count), so the young collections, which
    took 200-300 ms at a thousand tables, rarely or never run. Frozen objects are still
    freed by reference counting; only cyclic garbage among them stays (docs/operations.md)."""
    if period is None:
        return

    def loop() -> None:
        while True:
            time.sleep(period)
            gc.freeze()

    threading.Thread(target=loop, name="gc-freeze", daemon=True).start()


def run(args: argparse.Namespace) -> int:
    """Migrate, then serve until interrupted."""
    import uvicorn

    from server.app import WS_MAX_SIZE, WS_PING_INTERVAL, WS_PING_TIMEOUT, create_app
    from server.store import apply_migrations, resolve_database_url

    gc.set_threshold(*gc_thresholds())
    log_slow_collections()
    database_url = resolve_database_url(args.database_url)
    apply_migrations(database_url)
    log_config = None
    try:
        from server.observability import uvicorn_log_config

        log_config = uvicorn_log_config()
    except ImportError:
        pass
    # What is loaded now lives as long as the process: keep the collector from scanning it.
    gc.freeze()
    freeze_periodically(gc_freeze_period())
    uvicorn.run(
        create_app(database_url),
        host=args.host,
        port=args.port,
        ws_ping_interval=WS_PING_INTERVAL,
        ws_ping_timeout=WS_PING_TIMEOUT,
        ws_max_size=WS_MAX_SIZE,
        log_config=log_config,
        # uvicorn's implementations (docs/benchmarks.md, "Server load", compares them).
        loop=os.environ.get("MAHJONG_UVICORN_LOOP", "auto"),
        http=os.environ.get("MAHJONG_UVICORN_HTTP", "auto"),
        ws=os.environ.get("MAHJONG_UVICORN_WS", "auto"),
    )
    return 0
