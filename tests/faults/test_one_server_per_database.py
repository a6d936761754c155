"""One server per database: a second `mahjong-hall serve` on a database another server
already serves refuses to start, with one clear line; once the first stops, it starts."""

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


def test_a_second_server_on_one_postgres_database_refuses(tmp_path: Path) -> None:
    url = postgres_url_or_skip()
    other = postgres_url_or_skip()
    first, port = start(url, tmp_path / "first.log")
    neighbour, neighbour_port = None, 0
    try:
        first.wait_for(f"http://127.0.0.1:{port}/readyz")
        output = refused(url, tmp_path / "second.log")
        assert "already serves the Postgres database" in output and "Traceback" not in output
        # The lock is per database: a server of another database on the same Postgres starts.
        neighbour, neighbour_port = start(other, tmp_path / "neighbour.log")
        neighbour.wait_for(f"http://127.0.0.1:{neighbour_port}/readyz")
    finally:
        first.stop()
        if neighbour is not None:
            neighbour.stop()
    again, port = start(url, tmp_path / "again.log")
    try:
        again.wait_for(f"http://127.0.0.1:{port}/readyz")
    finally:
        again.stop()
        drop_database(url)
        drop_database(other)
