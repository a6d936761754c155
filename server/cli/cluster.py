"""`mahjong-hall cluster`: several `serve` processes on one Postgres behind HAProxy."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of `cluster`."""
    parser.add_argument("--processes", type=int, default=3, help="server processes (default 3)")
    parser.add_argument("--host", default="127.0.0.1", help="the proxy's address")
    parser.add_argument("--port", type=int, default=8000, help="the proxy's port (default 8000)")
    parser.add_argument(
        "--first-port",
        type=int,
        default=None,
        help="the first server's port on 127.0.0.1 (default: the proxy's port + 1)",
    )
    parser.add_argument(
        "--database-url", required=True, help="the Postgres database every process serves"
    )
    parser.add_argument(
        "--check-interval",
        default="1s",
        help="the proxy's health-check pace (HAProxy time, e.g. 500ms); two misses take a"
        " server out",
    )


def run(args: argparse.Namespace) -> int:
    """Start the servers and the proxy; run until SIGTERM or Ctrl-C."""
    from sqlalchemy.engine import make_url

    from server.scaling.launcher import Cluster, ClusterError
    from server.store import resolve_database_url

    url = resolve_database_url(args.database_url)
    if make_url(url).get_backend_name() != "postgresql":
        print(
            "cluster: several processes need Postgres (DATABASE_URL=postgresql+asyncpg://...);"
            " a SQLite file serves one process: use `mahjong-hall serve`",
            file=sys.stderr,
        )
        return 2
    if args.processes < 1:
        print("cluster: --processes must be at least 1", file=sys.stderr)
        return 2
    cluster = Cluster(
        database_url=url,
        processes=args.processes,
        host=args.host,
        port=args.port,
        first_port=args.first_port if args.first_port is not None else args.port + 1,
        check_interval=args.check_interval,
    )
    try:
        return cluster.run()
    except ClusterError as error:
        print(f"cluster: {error}", file=sys.stderr)
        return 1
