"""The container's exact start command, run here against the local Postgres.

There is no Docker engine on this machine, so this is the next best thing: the CMD and
ENV of the Dockerfile, as parsed from it, run as a process with a throwaway database.
Only what compose sets differently is changed: DATABASE_URL (compose points it at its
`db` service) and the port (PORT; the container always listens on 8000, which may be
taken here), with the HEALTHCHECK aimed at that port. A broken entry point, a missing
migration or a healthcheck that cannot pass fails this test.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.docker.dockerfile import environment, healthcheck_command, start_command
from tests.live import free_port
from tests.pg import drop_database, postgres_url_or_skip
from tests.serve import ServerProcess

pytestmark = pytest.mark.postgres


def _container_environment(database_url: str, port: int) -> dict[str, str]:
    bin_directory = str(Path(sys.executable).parent)
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("MAHJONG_")},
        **environment(),
        "PATH": bin_directory + os.pathsep + os.environ.get("PATH", ""),
        "DATABASE_URL": database_url,
        "PORT": str(port),
        "MAHJONG_HEALTHCHECK_URL": f"http://127.0.0.1:{port}/healthz",
    }


@pytest.fixture
def database_url() -> Iterator[str]:
    url = postgres_url_or_skip()
    yield url
    drop_database(url)


def test_container_command_serves_health_and_readiness(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = _container_environment(database_url, port)
    log = tmp_path / "server.log"
    command = start_command()
    assert command[0] == "mahjong-hall"
    server = ServerProcess(command, env, log)
    try:
        health = server.wait_for(f"http://127.0.0.1:{port}/healthz")
        assert health.json() == {"status": "ok"}
        assert server.wait_for(f"http://127.0.0.1:{port}/readyz").json()["status"] == "ok"
        probe = healthcheck_command()
        # `python` in the image is the interpreter the package is installed into.
        probe = [sys.executable if probe[0] == "python" else probe[0], *probe[1:]]
        checked = subprocess.run(probe, env=env, capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        # The image's own /metrics works too (Prometheus scrapes the container).
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert "mahjong_deals_finished_total" in metrics.text
    finally:
        output = server.stop()
    # docker stop sends SIGTERM: the server must leave on its own, after a graceful
    # shutdown. uvicorn re-raises the signal once done, so the status is "killed by
    # SIGTERM" (Docker shows 143), never a crash status and never a SIGKILL.
    assert server.returncode in (0, -signal.SIGTERM), output
    assert "Application shutdown complete." in output
    # The image sets MAHJONG_LOG_FORMAT=json: every line the server wrote is one JSON object.
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines, "the server logged nothing"
    for line in lines:
        record = json.loads(line)
        assert {"time", "level", "message"} <= set(record)


def test_healthcheck_fails_when_nothing_listens() -> None:
    port = free_port()
    probe = healthcheck_command()
    probe = [sys.executable if probe[0] == "python" else probe[0], *probe[1:]]
    env = {**os.environ, "MAHJONG_HEALTHCHECK_URL": f"http://127.0.0.1:{port}/healthz"}
    checked = subprocess.run(probe, env=env, capture_output=True, text=True, timeout=30)
    assert checked.returncode == 1
    assert "unhealthy" in checked.stderr
