"""`mahjong-hall cluster`: N `serve` processes on loopback and HAProxy in front of them.

For one host with several cores, and for the tests: every process serves the same
Postgres database, the proxy hashes each room to one of them (server/scaling/proxy.py).
The launcher prints one line per process it starts (`cluster: server 2 pid 4242 on
127.0.0.1:8002`, `cluster: proxy pid 4250 on http://127.0.0.1:8000`, then `cluster:
ready`), watches them, and on SIGTERM or Ctrl-C stops the servers (each hands its rooms'
leases over) and then the proxy. A server that dies is reported, not restarted: its rooms
move to the others, which is the point; run the launcher under a supervisor that restarts
it, or the servers under one each (docker-compose.yml's `scaled` profile does).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from server.scaling.proxy import Backend, haproxy_config

READY_SECONDS = 120.0
STOP_SECONDS = 30.0


class ClusterError(RuntimeError):
    """The cluster cannot start (the message says why and what to do)."""


@dataclass
class Cluster:
    """What `run` starts: `processes` servers on `host`, ports `first_port`..., and the
    proxy on `host:port`."""

    database_url: str
    processes: int
    host: str
    port: int
    first_port: int
    check_interval: str = "1s"
    servers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    proxy: subprocess.Popen[bytes] | None = None
    stopping: threading.Event = field(default_factory=threading.Event)

    def backends(self) -> list[Backend]:
        """The servers as the proxy reaches them."""
        return [
            Backend(f"hall{number}", f"127.0.0.1:{self.first_port + number - 1}")
            for number in range(1, self.processes + 1)
        ]

    def run(self) -> int:
        """Start everything, watch it until a signal, then stop it. Returns the exit status."""
        haproxy = shutil.which("haproxy") or next(
            (path for path in ("/usr/sbin/haproxy",) if Path(path).exists()), None
        )
        if haproxy is None:
            raise ClusterError("HAProxy is not installed: apt-get install haproxy")
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, self._on_signal)
        with tempfile.TemporaryDirectory(prefix="mahjong-cluster-") as folder:
            config = Path(folder) / "haproxy.cfg"
            config.write_text(
                haproxy_config(
                    f"{self.host}:{self.port}", self.backends(), check_interval=self.check_interval
                )
            )
            try:
                self._start_servers()
                # The proxy once they answer, so its first checks find them up.
                self._wait_until_ready([backend.address for backend in self.backends()])
                self.proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
                _say(f"proxy pid {self.proxy.pid} on http://{self.host}:{self.port}")
                self._wait_until_ready([f"{self.host}:{self.port}"])
                _say("ready")
                return self._watch()
            finally:
                self._stop()

    def _start_servers(self) -> None:
        for backend in self.backends():
            port = backend.address.rsplit(":", 1)[1]
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server.cli.main",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    port,
                    "--database-url",
                    self.database_url,
                ]
            )
            self.servers.append(server)
            _say(f"server {len(self.servers)} pid {server.pid} on {backend.address}")

    def _wait_until_ready(self, addresses: list[str]) -> None:
        deadline = time.monotonic() + READY_SECONDS
        waiting = set(addresses)
        while waiting:
            if self.stopping.is_set():
                return
            if time.monotonic() > deadline:
                raise ClusterError(f"servers {sorted(waiting)} did not answer /healthz")
            for server in self.servers:
                if server.poll() is not None:
                    raise ClusterError(f"server pid {server.pid} exited with {server.returncode}")
            waiting = {address for address in waiting if not _healthy(address)}
            time.sleep(0.2)

    def _watch(self) -> int:
        reported: set[int] = set()
        while not self.stopping.wait(0.5):
            assert self.proxy is not None
            if self.proxy.poll() is not None:
                _say(f"the proxy exited with {self.proxy.returncode}; stopping")
                return 1
            for number, server in enumerate(self.servers, start=1):
                if server.poll() is not None and server.pid not in reported:
                    reported.add(server.pid)
                    _say(
                        f"server {number} (pid {server.pid}) exited with {server.returncode};"
                        " the proxy routes its rooms to the others"
                    )
            if len(reported) == len(self.servers):
                _say("every server exited; stopping")
                return 1
        return 0

    def _on_signal(self, _number: int, _frame: FrameType | None) -> None:
        self.stopping.set()

    def _stop(self) -> None:
        """The servers first (each hands its leases over), then the proxy."""
        for server in self.servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for server in self.servers:
            try:
                server.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                server.kill()
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.terminate()
            try:
                self.proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proxy.kill()


def _healthy(address: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://{address}/healthz", timeout=2) as answer:
            return int(answer.status) == 200
    except OSError:
        return False


def _say(line: str) -> None:
    print(f"cluster: {line}", flush=True)
