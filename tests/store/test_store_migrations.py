"""Migrations: upgrade from empty, down and up again, models matching the migrations, and
`mahjong-hall migrate` / `alembic` run as real subprocesses from another directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from server.store import apply_migrations, downgrade_migrations
from server.store.migrating import alembic_config
from server.store.schema import metadata

REPO = Path(__file__).resolve().parents[2]
TABLES = {
    "rooms",
    "room_players",
    "deals",
    "deal_actions",
    "deal_players",
    "player_totals",
    "chart_counts",
    "store_heartbeat",
    "room_leases",
    "host_events",
    "ledgers",
    "ledger_hands",
    "ledger_changes",
    "ledger_figures",
}


async def schema_state(url: str) -> tuple[set[str], str | None, list[object]]:
    """(tables, current revision, pending autogenerate diff) of the database at `url`."""
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:

            def read(sync_conn) -> tuple[set[str], str | None, list[object]]:
                context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                tables = set(inspect(sync_conn).get_table_names()) - {"alembic_version"}
                return tables, context.get_current_revision(), compare_metadata(context, metadata)

            return await conn.run_sync(read)
    finally:
        await engine.dispose()


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def test_upgrade_from_empty_matches_the_models(database_url: str) -> None:
    tables, revision, _ = await schema_state(database_url)
    assert tables == set() and revision is None

    apply_migrations(database_url)
    tables, revision, diff = await schema_state(database_url)
    assert tables == TABLES
    assert revision == head_revision()
    assert diff == [], f"models and migrations differ: {diff}"


async def test_downgrade_to_base_and_upgrade_again(database_url: str) -> None:
    apply_migrations(database_url)
    downgrade_migrations(database_url, "base")
    tables, revision, _ = await schema_state(database_url)
    assert tables == set() and revision is None

    apply_migrations(database_url)
    apply_migrations(database_url)  # a second run is a no-op
    tables, revision, diff = await schema_state(database_url)
    assert tables == TABLES and revision == head_revision() and diff == []


def mahjong_hall_command() -> list[str]:
    installed = Path(sys.executable).parent / "mahjong-hall"
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "server.cli.main"]


def clean_environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    return env


async def test_migrate_command_as_a_subprocess(database_url: str, tmp_path: Path) -> None:
    finished = subprocess.run(
        [*mahjong_hall_command(), "migrate", "--database-url", database_url],
        cwd=tmp_path,  # not the repository: the migrations must be found anyway
        env=clean_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert "newest schema" in finished.stdout
    tables, revision, diff = await schema_state(database_url)
    assert tables == TABLES and revision == head_revision() and diff == []


def test_migrate_defaults_to_a_sqlite_file_in_the_working_directory(tmp_path: Path) -> None:
    finished = subprocess.run(
        [*mahjong_hall_command(), "migrate"],
        cwd=tmp_path,
        env=clean_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert (tmp_path / "mahjong-hall.sqlite3").stat().st_size > 0


def test_migrate_reads_database_url_from_the_environment(tmp_path: Path) -> None:
    target = tmp_path / "from-env.sqlite3"
    finished = subprocess.run(
        [*mahjong_hall_command(), "migrate"],
        cwd=tmp_path,
        env={**clean_environment(), "DATABASE_URL": f"sqlite+aiosqlite:///{target}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert target.exists()
    assert not (tmp_path / "mahjong-hall.sqlite3").exists()


def test_migrate_reports_an_unreachable_database_in_one_line(tmp_path: Path) -> None:
    finished = subprocess.run(
        [
            *mahjong_hall_command(),
            "migrate",
            "--database-url",
            "postgresql+asyncpg://nobody:hunter2@127.0.0.1:9/nowhere",
        ],
        cwd=tmp_path,
        env=clean_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 1
    assert finished.stderr.startswith("migrate: failed on postgresql+asyncpg://nobody:***@")
    assert "hunter2" not in finished.stderr
    assert "Traceback" not in finished.stderr


def test_alembic_ini_works_from_another_directory(tmp_path: Path) -> None:
    target = tmp_path / "by-hand.sqlite3"
    alembic = Path(sys.executable).parent / "alembic"
    finished = subprocess.run(
        [str(alembic), "-c", str(REPO / "alembic.ini"), "upgrade", "head"],
        cwd=tmp_path,
        env={**clean_environment(), "DATABASE_URL": f"sqlite+aiosqlite:///{target}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert target.exists()


def test_migrations_run_from_an_installed_copy(tmp_path: Path) -> None:
    """Laid out as an install puts it (`server/` and `migrations/` side by side in
    site-packages, no alembic.ini, no repository), `migrate` still finds its scripts."""
    import shutil

    site = tmp_path / "site-packages"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "server", site / "server", ignore=ignore)
    shutil.copytree(REPO / "migrations", site / "migrations", ignore=ignore)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "installed.sqlite3"
    script = (
        "import sys; from server.store.migrating import migrations_directory; "
        "print(migrations_directory()); "
        "from server.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    finished = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            "migrate",
            "--database-url",
            f"sqlite+aiosqlite:///{target}",
        ],
        cwd=elsewhere,
        env={**clean_environment(), "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.splitlines()[0] == str(site / "migrations")
    assert target.stat().st_size > 0
