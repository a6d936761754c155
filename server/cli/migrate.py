"""`mahjong-hall migrate`: bring the database schema up to date, then exit."""

from __future__ import annotations

import argparse
import os
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy async URL (default: $DATABASE_URL, else a SQLite file "
        "mahjong-hall.sqlite3 in the working directory)",
    )


def run(args: argparse.Namespace) -> int:
    """Apply every pending migration; print a one-line error and return 1 on failure."""
    from server.settings import Settings
    from server.store import apply_migrations, resolve_database_url

    try:  # this command's one reading of the environment (`DATABASE_URL` among the rest)
        settings = Settings.from_environ(os.environ)
    except ValueError as error:
        print(f"migrate: {error}", file=sys.stderr)
        return 2
    url = resolve_database_url(args.database_url or settings.database_url)
    try:
        apply_migrations(url)
    except Exception as error:  # any failure is reported in one line, not a traceback
        print(f"migrate: failed on {_without_password(url)}: {error}", file=sys.stderr)
        return 1
    print(f"migrate: {_without_password(url)} is at the newest schema")
    return 0


def _without_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is shown as given
        return url
