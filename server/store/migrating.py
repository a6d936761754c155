"""Applying the Alembic migrations in `migrations/` from code (`serve`, `migrate`, tests).

The Alembic configuration is built here rather than read from `alembic.ini`, so it works
from any working directory and from an installed package. `alembic.ini` at the top of the
repository exists for developers running the `alembic` command by hand.
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config

from server.store.database import resolve_database_url


def migrations_directory() -> Path:
    """Where the migration scripts live: the source tree, or the installed `migrations` package."""
    in_source_tree = Path(__file__).resolve().parents[2] / "migrations"
    if (in_source_tree / "env.py").is_file():
        return in_source_tree
    spec = importlib.util.find_spec("migrations")
    if spec is not None and spec.origin is not None:
        installed = Path(spec.origin).parent
        if (installed / "env.py").is_file():
            return installed
    raise FileNotFoundError("cannot find the migrations directory (migrations/env.py)")


def alembic_config(database_url: str | None = None) -> Config:
    """An Alembic `Config` aimed at `database_url` (default as in `open_store`)."""
    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    # ConfigParser treats "%" as interpolation; passwords may contain it.
    config.set_main_option("sqlalchemy.url", resolve_database_url(database_url).replace("%", "%%"))
    # The server owns logging; Alembic must not reconfigure it from an ini file.
    config.attributes["configure_logging"] = False
    return config


def apply_migrations(database_url: str | None = None) -> None:
    """Bring the database to the newest schema (`alembic upgrade head`). Blocks until done.

    Alembic drives the async driver with its own event loop, so when called from inside a
    running loop the work moves to a separate thread.
    """
    _run_outside_event_loop(lambda: command.upgrade(alembic_config(database_url), "head"))


def downgrade_migrations(database_url: str | None = None, revision: str = "base") -> None:
    """Step the schema back to `revision` (default: empty). For tests and recovery by hand."""
    _run_outside_event_loop(lambda: command.downgrade(alembic_config(database_url), revision))


def _run_outside_event_loop(work: Callable[[], None]) -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        work()
        return
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=run, name="alembic-migrations")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
