"""The proxy's configuration: what `mahjong-hall cluster` writes and the compose profile's
file both come from one template, and the installed HAProxy accepts it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from server.scaling.proxy import Backend, haproxy_config

REPOSITORY = Path(__file__).resolve().parents[2]
COMPOSE_BACKENDS = [Backend(name, f"{name}:8000") for name in ("app", "app2", "app3")]


def test_the_compose_profile_uses_the_template_as_rendered() -> None:
    rendered = haproxy_config("*:8080", COMPOSE_BACKENDS, check_interval="2s", docker_dns=True)
    assert (REPOSITORY / "deploy" / "haproxy.cfg").read_text() == rendered


def test_haproxy_accepts_the_configuration(tmp_path: Path) -> None:
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        pytest.fail("HAProxy is missing: .ci/run installs it (apt-get install haproxy)")
    backends = [Backend(f"hall{n}", f"127.0.0.1:{18000 + n}") for n in (1, 2, 3)]
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config("127.0.0.1:18000", backends, check_interval="300ms"))
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(config)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # Every path that names a room is hashed by its id; nothing else is.
    text = config.read_text()
    assert "path,field(3,/) if { path_beg /rooms/ }" in text
    assert "path,field(4,/) if { path_beg /api/rooms/ /ws/rooms/ }" in text
    assert "balance hash var(txn.room)" in text and "hash-type consistent" in text


def test_a_cluster_on_sqlite_is_refused_with_a_pointer_to_postgres(tmp_path: Path) -> None:
    from tests.serve import MAHJONG_HALL

    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}"
    refused = subprocess.run(
        [MAHJONG_HALL, "cluster", "--processes", "2", "--database-url", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "need Postgres" in refused.stderr and "mahjong-hall serve" in refused.stderr
    assert not (tmp_path / "hall.sqlite3").exists(), "nothing was started or written"
