"""`mahjong-hall bench`: the server load benchmark (bench/bench_load.py in a source checkout).

The benchmark starts its own servers and client processes, so it runs as a separate
program; this command only finds it and passes the options on.

    mahjong-hall bench --tables 10,50 --seconds 10

"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import server


def bench_script() -> Path:
    """Where the load benchmark lives: `bench/` next to the `server` package."""
    return Path(server.__file__).resolve().parent.parent / "bench" / "bench_load.py"


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options (bench/bench_load.py documents them)."""
    parser.add_argument("--tables", default="10,50,100", help="comma-separated table counts")
    parser.add_argument("--seconds", default="15", help="measured seconds per run")
    parser.add_argument(
        "--pace", default="0", help="seconds between a table's actions (0: flat out)"
    )
    parser.add_argument("--workers", default="2", help="client processes")
    parser.add_argument("--modes", default="hall,bare", help="hall, bare or both")
    parser.add_argument("--database-dir", default=None, help="where the SQLite file goes")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; 2 when this install has no source checkout with `bench/`."""
    script = bench_script()
    if not script.is_file():
        print(
            f"mahjong-hall bench: {script} not found (it ships with the source checkout)",
            file=sys.stderr,
        )
        return 2
    options = ["--tables", args.tables, "--seconds", args.seconds, "--pace", args.pace]
    options += ["--workers", args.workers, "--modes", args.modes]
    if args.database_dir:
        options += ["--database-dir", args.database_dir]
    return subprocess.call([sys.executable, str(script), *options])
