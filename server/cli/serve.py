"""`mahjong-hall serve`: apply database migrations, then run the server with uvicorn."""

from __future__ import annotations

import argparse
import os
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of `serve`; each falls back on the settings (`HOST`, `PORT`,
    `DATABASE_URL`), read once in `run`."""
    parser.add_argument("--host", default=None, help="address to listen on (default: $HOST)")
    parser.add_argument("--port", type=int, default=None, help="port to listen on")
    parser.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL (default: $DATABASE_URL, else a SQLite file in the working directory)",
    )


def run(args: argparse.Namespace) -> int:
    """Migrate, then serve until interrupted."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from server.api.http_protocol import uvicorn_http_options
    from server.api.socket_protocol import uvicorn_socket_options
    from server.app import WS_MAX_SIZE, WS_PING_INTERVAL, WS_PING_TIMEOUT, create_app
    from server.observability.collector import configure_collector
    from server.settings import Settings
    from server.store import apply_migrations, resolve_database_url
    from server.store.server_lock import DatabaseInUseError, hold_server_lock, is_shared

    try:  # the one reading of the environment; a bad setting stops us here, in one line
        settings = Settings.from_environ(os.environ, host=args.host)
    except ValueError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 2
    port = args.port if args.port is not None else settings.port
    database_url = resolve_database_url(args.database_url or settings.database_url)
    try:  # before the migrations: two servers must never migrate together
        server_lock = hold_server_lock(database_url)
    except DatabaseInUseError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # unreachable: one line, not a traceback
        where = make_url(database_url).render_as_string(hide_password=True)
        print(f"serve: cannot reach the database {where}: {error}", file=sys.stderr)
        return 1
    apply_migrations(database_url)
    shared = is_shared(database_url)
    if shared:  # Postgres: the lock was for migrating; the rooms are leased one by one
        server_lock.release()
    log_config = None
    try:
        from server.observability import uvicorn_log_config

        log_config = uvicorn_log_config(settings.log_format, settings.log_level)
    except ImportError:
        pass
    configure_collector(settings.collector)
    uvicorn.run(
        create_app(database_url, settings=settings, leased=shared),
        host=settings.host,
        port=port,
        log_config=log_config,
        # The app writes its own access lines, without secrets (observability/access_log.py).
        access_log=False,
        # uvicorn's implementations (docs/benchmarks.md, "Server load", compares them).
        loop=settings.uvicorn_loop,
        **uvicorn_http_options(settings.uvicorn_http, settings.limits),
        **uvicorn_socket_options(
            settings.uvicorn_ws,
            compression=settings.ws_compression,
            max_size=WS_MAX_SIZE,
            ping_interval=WS_PING_INTERVAL,
            ping_timeout=WS_PING_TIMEOUT,
        ),
    )
    server_lock.release()
    return 0
