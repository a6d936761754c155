"""One server per SQLite database: a second `mahjong-hall serve` on a file another server
already serves refuses to start, with one clear line pointing to Postgres; once the first
stops, it starts. On Postgres several servers share the database (docs/scaling.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.live import free_port
from tests.pg import drop_database, postgres_url_or_skip
from tests.serve import ServerProcess, serve_command, server_environment


def start(database_url: str, log: Path) -> tuple[ServerProcess, int]:
    port = free_port()
    command = serve_command("--port", str(port), "--database-url", database_url)
    return ServerProcess(command, server_environment(), log), port


def refused(database_url: str, log: Path) -> str:
    """Run a second server on `database_url`: it must exit 1 at once; returns its output."""
    second, _ = start(database_url, log)
    try:
        second.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        second.kill()
        raise AssertionError(f"the second server kept running:\n{second.output}") from None
    assert second.returncode == 1, second.output
    return second.output


def test_a_second_server_on_one_sqlite_file_refuses_and_points_to_postgres(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"
    first, port = start(url, tmp_path / "first.log")
    try:
        first.wait_for(f"http://127.0.0.1:{port}/readyz")
        output = refused(url, tmp_path / "second.log")
        assert "already serves the SQLite database" in output
        assert f"pid {first.process.pid}" in output and "Postgres" in output
        assert "Traceback" not in output
        assert first.returncode is None, "the first server goes on serving"
    finally:
        first.stop()
    again, port = start(url, tmp_path / "again.log")
    try:
        again.wait_for(f"http://127.0.0.1:{port}/readyz")  # the lock went with the first
    finally:
        again.stop()


def test_several_servers_share_one_postgres_database(tmp_path: Path) -> None:
    """On Postgres the rooms are leased one by one (docs/scaling.md): a second server on
    the same database starts and serves, migrating after the first, not alongside it."""
    url = postgres_url_or_skip()
    first, port = start(url, tmp_path / "first.log")
    second, second_port = start(url, tmp_path / "second.log")
    try:
        first.wait_for(f"http://127.0.0.1:{port}/readyz")
        second.wait_for(f"http://127.0.0.1:{second_port}/readyz")
        for output in (first.output, second.output):
            assert "room leases held as" in output and "Traceback" not in output
    finally:
        first.stop()
        second.stop()
        drop_database(url)
