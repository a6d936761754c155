"""Alembic environment: runs migrations through the async drivers (aiosqlite, asyncpg).

`server.store.migrating` builds the configuration in code; the `alembic` command uses
`alembic.ini`. Either way the URL comes from the configuration, else the settings'
`DATABASE_URL` (this file is the `alembic` command's entry point, so it builds the
settings from the environment itself), else the default SQLite file.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from server.settings import Settings
from server.store.database import resolve_database_url
from server.store.schema import metadata

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name)

database_url = resolve_database_url(
    config.get_main_option("sqlalchemy.url") or Settings.from_environ(os.environ).database_url
)


def run_migrations_offline() -> None:
    """Print the SQL instead of running it (`alembic upgrade head --sql`)."""
    context.configure(
        url=database_url,
        target_metadata=metadata,
        literal_binds=True,
        render_as_batch=database_url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_with_connection(connection: Connection) -> None:
    """Run the pending migrations on an open connection."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    """Open an async engine just for the migration run, and close it afterwards."""
    engine = create_async_engine(database_url, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_with_connection)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
elif config.attributes.get("connection") is not None:
    # A caller (a test) handed over its own synchronous connection.
    run_with_connection(config.attributes["connection"])
else:
    asyncio.run(run_async_migrations())
