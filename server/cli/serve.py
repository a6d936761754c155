"""`mahjong-hall serve`: apply database migrations, then run the server with uvicorn."""

from __future__ import annotations

import argparse
import gc
import os

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


def run(args: argparse.Namespace) -> int:
    """Migrate, then serve until interrupted."""
    import uvicorn

    from server.app import WS_MAX_SIZE, WS_PING_INTERVAL, WS_PING_TIMEOUT, create_app
    from server.store import apply_migrations, resolve_database_url

    gc.set_threshold(*gc_thresholds())
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
