"""A disk that fills up and frees again, for the tests of a SQLite store on a full disk.

As root (CI), a small tmpfs the test mounts itself: filled with a file until the kernel
answers ENOSPC, freed by deleting it, unmounted at the end. Where mounting is impossible,
the same effect through the file-size limit (RLIMIT_FSIZE) of the process that writes:
Python ignores SIGXFSZ, so a write past the limit fails with EFBIG, which SQLite reports
as a failed write, exactly as it reports a full disk.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import subprocess
from collections.abc import Iterator
from pathlib import Path

CHUNK = 64 * 1024


class TmpfsDisk:
    """A tmpfs of `size_mb` mounted at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._filler = path / "filler.bin"

    def fill(self) -> None:
        """Write until the disk is full."""
        with self._filler.open("ab", buffering=0) as sink:
            # Big blocks, then small ones for what is left: the disk must be truly full.
            for size in (CHUNK, 512):
                block = b"\0" * size
                while True:
                    try:
                        sink.write(block)
                    except OSError as error:
                        assert error.errno == errno.ENOSPC, error
                        break

    def free(self) -> None:
        """Give the space back."""
        self._filler.unlink(missing_ok=True)


class FileSizeLimit:
    """The fallback: the writing process may not grow a file past the size of the
    database's write-ahead log now, so the log's next commit fails."""

    def __init__(self, path: Path, pid: int = 0) -> None:
        self.path = path
        self.pid = pid  # 0: this process
        self._before = resource.prlimit(self.pid or os.getpid(), resource.RLIMIT_FSIZE)

    def fill(self) -> None:
        """Forbid the write-ahead log to grow."""
        logs = [entry.stat().st_size for entry in self.path.glob("*-wal")]
        assert logs, f"no write-ahead log in {self.path}"
        _, hard = self._before
        resource.prlimit(self.pid or os.getpid(), resource.RLIMIT_FSIZE, (max(logs), hard))

    def free(self) -> None:
        """Lift the limit again."""
        resource.prlimit(self.pid or os.getpid(), resource.RLIMIT_FSIZE, self._before)


def try_mount_tmpfs(path: Path, size_mb: int) -> bool:
    """Mount a tmpfs at `path`; False if that is not possible here (no privilege)."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or os.environ.get("MAHJONG_TEST_NO_MOUNT") == "1":
        return False
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return mounted.returncode == 0


@contextlib.contextmanager
def small_disk(path: Path, size_mb: int = 16) -> Iterator[TmpfsDisk | None]:
    """A tmpfs at `path` for the test's database (None where it cannot be mounted: then
    the caller falls back to `FileSizeLimit`); unmounted afterwards."""
    if not try_mount_tmpfs(path, size_mb):
        yield None
        return
    try:
        yield TmpfsDisk(path)
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)
