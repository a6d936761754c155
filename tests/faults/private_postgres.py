"""A Postgres server the test owns, to stop and start mid-deal (the shared one stays up).

`initdb` and `pg_ctl` come from Debian's `/usr/lib/postgresql/<version>/bin`, found at run
time. The cluster lives in a temporary directory, listens on a free loopback port, and
runs as the `postgres` OS user when the tests run as root (initdb refuses root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.live import free_port
from tests.pg import postgres_required


def postgres_bin() -> Path | None:
    """The newest installed Postgres's bin directory, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    return Path(found[-1]).parent if found else None


def _version(path: str) -> float:
    try:
        return float(Path(path).parts[-3])
    except ValueError:
        return 0.0


class PrivatePostgres:
    """One throwaway cluster: `start`, `stop` (fast: connections are cut), `remove`."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="mahjong-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        )

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of its `postgres` database."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *arguments: str) -> None:
        command = [str(self.bin_dir / program), *arguments]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, f"{program} failed: {done.stdout}{done.stderr}"

    def start(self) -> None:
        """Start and wait until it accepts connections."""
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Stop at once (`-m fast`): every session is cut, as in an outage."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop if running, and delete the cluster."""
        subprocess.run(
            [
                *(["runuser", "-u", "postgres", "--"] if self._as_postgres else []),
                str(self.bin_dir / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def private_postgres_or_skip() -> PrivatePostgres:
    """A fresh started cluster, or skip (fail under MAHJONG_REQUIRE_POSTGRES=1) without
    Postgres's server programs."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        if postgres_required():
            pytest.fail("MAHJONG_REQUIRE_POSTGRES=1 but no /usr/lib/postgresql/*/bin/pg_ctl")
        pytest.skip("no Postgres server programs installed")
    cluster = PrivatePostgres(bin_dir)
    cluster.start()
    return cluster


def _process_tree(root: int) -> list[int]:
    """`root` and every process descended from it (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    tree, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        tree.append(pid)
        waiting.extend(parents.get(pid, []))
    return tree


def freeze(cluster: PrivatePostgres, frozen: bool) -> None:
    """SIGSTOP (or SIGCONT) the cluster's every process: connections stay open and answer
    nothing, as a hung database server or a network that drops packets does."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    for pid in _process_tree(postmaster):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP if frozen else signal.SIGCONT)
