"""A real server process (`mahjong-hall serve`, or the container's start command) for the
tests that need the actual process: signals, a crash and a restart, the image's entry point.

The process writes its output (stdout and stderr together) to a file rather than a pipe,
so a chatty server can never stall on a full pipe that nobody reads until the end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
MAHJONG_HALL = str(Path(sys.executable).parent / "mahjong-hall")


def serve_command(*arguments: str) -> list[str]:
    """`mahjong-hall serve ARGUMENTS...` from this interpreter's environment."""
    return [MAHJONG_HALL, "serve", *arguments]


class ServerProcess:
    """One server process, started at once in the repository, its output kept in `log`."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("w") as sink:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen(
                command,
                cwd=REPOSITORY,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
                text=True,
            )
        self.killed = False

    @property
    def output(self) -> str:
        """Everything the server has written so far."""
        return self.log.read_text(errors="replace")

    @property
    def returncode(self) -> int | None:
        """The exit status, or None while the process runs."""
        return self.process.poll()

    def wait_for(self, url: str, seconds: float = 60) -> httpx.Response:
        """Poll `url` until it answers 200; fails if the server exits or the time runs out."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(
                    f"the server exited with {self.process.returncode}:\n{self.output}"
                )
            try:
                answer = httpx.get(url, timeout=2)
                if answer.status_code == 200:
                    return answer
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise AssertionError(f"{url} did not answer 200 within {seconds} s:\n{self.output}")

    def send_signal(self, number: int) -> None:
        """Send a signal to the server."""
        self.process.send_signal(number)

    def kill(self) -> None:
        """SIGKILL, as a crash would, and wait for the process to be gone."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)

    def stop(self, seconds: float = 30) -> str:
        """SIGTERM (as `docker stop` sends), wait for the exit, return the output.

        A server still running after `seconds` is killed and `killed` set, for the tests
        that require a clean exit to say so.
        """
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.killed = True
            self.kill()
        return self.output


def server_environment(**settings: str) -> dict[str, str]:
    """This process's environment with `settings` added (e.g. MAHJONG_BOT_DELAY="5")."""
    return {**os.environ, **settings}
