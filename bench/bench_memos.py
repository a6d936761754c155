"""What the engine's memos hold after a stretch of play: entries and bytes, memo by memo.

The engine memoises hand readings (shanten, suit readings, waits, hand profiles) in
process-wide `lru_cache`s shared by every table. Nearly every hand a server meets is new,
so these memos grow with the actions played until each reaches its bound, and at a busy
server they are a large part of the memory the load benchmark counts per table. This
plays `--deals` deals through the room core (as `bench_room_core.py` does, four scripted
humans, no sockets), then empties the memos one at a time and reports what each freed
(tracemalloc), per memo and per 1,000 actions.

    .venv/bin/python bench/bench_memos.py --variant hk --deals 200
"""

from __future__ import annotations

import argparse
import gc
import importlib
import pkgutil
import sys
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import server.bots  # noqa: E402
import server.engine  # noqa: E402
from bench.bench_room_core import play  # noqa: E402


def memos() -> list[tuple[str, Any]]:
    """Every `lru_cache` at module level in the engine and the bots, by name."""
    found: dict[int, tuple[str, Any]] = {}
    for package in (server.engine, server.bots):
        for module_info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(module_info.name)
            for name, value in vars(module).items():
                memo = hasattr(value, "cache_info") and hasattr(value, "cache_clear")
                if memo and getattr(value, "__module__", None) == module.__name__:
                    found[id(value)] = (f"{module.__name__.removeprefix('server.')}.{name}", value)
    return sorted(found.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hk", choices=("hk", "kaki3"))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    every = memos()
    for _, memo in every:
        memo.cache_clear()
    tracemalloc.start()
    actions, _, _ = play(options.variant, options.deals, options.seed)
    gc.collect()
    print(f"{options.variant}: {actions} actions over {options.deals} deals")
    print(
        f"{'memo':44} {'entries':>8} {'bound':>8} {'hits':>5} {'MB':>7} {'B/entry':>8} "
        f"{'KB/1k actions':>14}"
    )
    total = 0
    for name, memo in every:
        info = memo.cache_info()
        if not info.currsize:
            continue
        before = tracemalloc.get_traced_memory()[0]
        memo.cache_clear()
        gc.collect()
        freed = before - tracemalloc.get_traced_memory()[0]
        total += freed
        hits = info.hits / max(1, info.hits + info.misses)
        print(
            f"{name:44} {info.currsize:8} {info.maxsize or 0:8} {hits:5.0%} {freed / 1e6:7.2f} "
            f"{freed / info.currsize:8.0f} {freed / actions:14.1f}"
        )
    print(f"all memos: {total / 1e6:.1f} MB, {total / actions:.0f} bytes per action played")


if __name__ == "__main__":
    main()
