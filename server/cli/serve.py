"""`mahjong-hall serve`: apply database migrations, then run the server with uvicorn."""

from __future__ import annotations

import argparse
import os
import sys

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


def ws_compression() -> bool:
    """Whether sockets may negotiate permessage-deflate (`MAHJONG_WS_COMPRESSION`, off by
    default). Browsers ask for it. A state message is ~1.7 KB and a player gets a few a
    second; compressing them cost the server ~100 µs of CPU per action (four messages),
    about a quarter more in all (docs/benchmarks.md), and a compressed socket cannot take
    the direct frame writes (api/socket_protocol.py)."""
    text = os.environ.get("MAHJONG_WS_COMPRESSION", "").strip().lower()
    if text in ("", "0", "off", "false", "no"):
        return False
    if text in ("1", "on", "true", "yes"):
        return True
    raise ValueError(f"MAHJONG_WS_COMPRESSION must be on or off, not {text!r}")


def run(args: argparse.Namespace) -> int:
    """Migrate, then serve until interrupted."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from server.api.http_protocol import uvicorn_http_options
    from server.api.limits import LimitSettings
    from server.api.socket_protocol import TableSocketProtocol
    from server.app import WS_MAX_SIZE, WS_PING_INTERVAL, WS_PING_TIMEOUT, create_app
    from server.observability.collector import CollectorSettings, configure_collector
    from server.store import apply_migrations, resolve_database_url
    from server.store.server_lock import DatabaseInUseError, hold_server_lock

    collector = CollectorSettings.from_environ(os.environ)  # a bad setting stops us here
    limits = LimitSettings.from_environ(os.environ, bound_host=args.host)
    compression = ws_compression()
    database_url = resolve_database_url(args.database_url)
    try:  # before the migrations: two servers must not even migrate together
        server_lock = hold_server_lock(database_url)
    except DatabaseInUseError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # unreachable: one line, not a traceback
        where = make_url(database_url).render_as_string(hide_password=True)
        print(f"serve: cannot reach the database {where}: {error}", file=sys.stderr)
        return 1
    apply_migrations(database_url)
    log_config = None
    try:
        from server.observability import uvicorn_log_config

        log_config = uvicorn_log_config()
    except ImportError:
        pass
    configure_collector(collector)
    uvicorn.run(
        create_app(database_url, limits=limits),
        host=args.host,
        port=args.port,
        ws_ping_interval=WS_PING_INTERVAL,
        ws_ping_timeout=WS_PING_TIMEOUT,
        ws_max_size=WS_MAX_SIZE,
        log_config=log_config,
        # uvicorn's implementations (docs/benchmarks.md, "Server load", compares them).
        loop=os.environ.get("MAHJONG_UVICORN_LOOP", "auto"),
        **uvicorn_http_options(os.environ.get("MAHJONG_UVICORN_HTTP", "auto"), limits),
        ws=os.environ.get("MAHJONG_UVICORN_WS") or TableSocketProtocol,
        ws_per_message_deflate=compression,
    )
    server_lock.release()
    return 0
