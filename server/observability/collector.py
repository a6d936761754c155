"""How `serve` runs Python's garbage collector: a frozen heap, collected in full when it grows.

Python 3.11's collector is generational, and it counts allocations minus deallocations to
decide when to look at the young objects. A table server defeats that count: every action
replaces a table's state, so the old state (long since promoted) is freed as the new one is
made. The count hardly moves while the young generation fills with every state made since
the last collection. At a thousand tables a young collection then took 60-400 ms, and the
whole server stood still for it (docs/benchmarks.md, "Server load").

So `serve` moves every surviving object to the permanent generation once a second
(`gc.freeze()`: a list merge, and the young count starts again). Young collections then
rarely run; reference counting still frees whatever is not in a cycle, and table play makes
practically no cycles (connections and HTTP requests leave some). Cycles among frozen
objects are only found by a full collection, so `FrozenHeap` runs one, as Python's own rule
for its oldest generation does, once the heap has grown by a quarter since the last:
cyclic garbage never holds more than that share of memory, and the full pauses come as
rarely as the heap grows (not at all in steady play). While the heap fills with live data
(a thousand rooms opening, their first deals growing together) those pauses find almost
nothing, and one of up to a second at a thousand tables stood every table still; so each
full collection that freed little of the growth doubles the next bound, up to the whole
heap, and one that found mostly garbage brings it back to a quarter.

Settings (docs/operations.md): `MAHJONG_GC_FREEZE_SECONDS` (default 1; 0 turns freezing
off), `MAHJONG_GC_FULL_GROWTH` (default 0.25), `MAHJONG_GC_THRESHOLDS` (the automatic
collector, still on as a safety net for bursts) and `MAHJONG_GC_LOG_MS`.
"""

from __future__ import annotations

import gc
import logging
import math
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger("mahjong.gc")

# Python's default (700, 10, 10) suits short scripts: a table state that lives a second
# would reach the oldest generation and soon set off full collections of every table.
DEFAULT_THRESHOLDS = (100_000, 50, 1_000)
DEFAULT_FREEZE_SECONDS = 1.0
DEFAULT_FULL_GROWTH = 0.25
# The most the heap may grow before a full collection, however little the last ones found.
MAX_GROWTH = 1.0
# A full collection that freed less than this share of the growth found mostly live data.
LIVE_GROWTH_SHARE = 0.25
# Below this many new memory blocks a full collection is not worth a pause (a fresh
# server's heap is small, and a quarter of it is a few megabytes).
MIN_GROWTH_BLOCKS = 50_000


@dataclass(frozen=True)
class CollectorSettings:
    """What `serve` does with the collector; `from_environ` reads the operator's settings."""

    thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS
    freeze_seconds: float | None = DEFAULT_FREEZE_SECONDS  # None: never freeze
    full_growth: float = DEFAULT_FULL_GROWTH
    slow_log_ms: float | None = None  # None: log no collection

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> CollectorSettings:
        """The settings in `environ`; a malformed one raises ValueError naming it."""
        return cls(
            thresholds=_thresholds(environ.get("MAHJONG_GC_THRESHOLDS")),
            freeze_seconds=_freeze_seconds(environ.get("MAHJONG_GC_FREEZE_SECONDS")),
            full_growth=_positive(
                "MAHJONG_GC_FULL_GROWTH", environ.get("MAHJONG_GC_FULL_GROWTH"), DEFAULT_FULL_GROWTH
            ),
            slow_log_ms=_slow_log_ms(environ.get("MAHJONG_GC_LOG_MS")),
        )


def _thresholds(text: str | None) -> tuple[int, int, int]:
    if not text:
        return DEFAULT_THRESHOLDS
    parts = text.split(",")
    if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
        raise ValueError(
            f"MAHJONG_GC_THRESHOLDS must be three whole numbers like 100000,50,1000, not {text!r}"
        )
    first, second, third = (int(part) for part in parts)
    return first, second, third


def _number(text: str) -> float:
    """`text` as a float; NaN (which every check refuses) when it is not a number."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def _positive(name: str, text: str | None, default: float) -> float:
    if not text:
        return default
    value = _number(text)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{name} must be a positive number, not {text!r}")
    return value


def _freeze_seconds(text: str | None) -> float | None:
    if text is not None and text.strip() in ("0", "off"):
        return None
    return _positive("MAHJONG_GC_FREEZE_SECONDS", text, DEFAULT_FREEZE_SECONDS)


def _slow_log_ms(text: str | None) -> float | None:
    if not text:
        return None
    value = _number(text)
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(f"MAHJONG_GC_LOG_MS must be a number of milliseconds, not {text!r}")
    return value


class FrozenHeap:
    """The freeze-and-grow policy. `tick()` is one period's step; `start()` runs it in a
    daemon thread (a thread, so a busy event loop cannot hold it back).

    The growth a full collection waits for adapts to what the last one found. When most of
    the growth was garbage, the bound stays at `full_growth`. When most of it was live data
    (rooms being opened, caches filling, every table's deal growing at once), a pause of
    hundreds of milliseconds freed next to nothing, so the next bound doubles, up to the
    whole heap (`MAX_GROWTH`, Go's default rule): cyclic garbage is still bounded, and a
    filling heap no longer stops every table again and again.
    """

    def __init__(self, full_growth: float = DEFAULT_FULL_GROWTH) -> None:
        self.full_growth = full_growth
        self.growth = full_growth  # the share of the heap the next full collection waits for
        self.baseline = sys.getallocatedblocks()  # the heap after the last full collection
        self.full_collections = 0

    def tick(self) -> bool:
        """Freeze what survives; if the heap outgrew its bound, collect it in full.
        Returns whether a full collection ran."""
        gc.freeze()
        # The heap's size in pymalloc blocks (every object, cyclic garbage included) is
        # cheap to read; `gc.get_freeze_count()` walks the whole frozen list (120 ms at a
        # thousand tables), and the young count is clamped at zero, so it over-counts.
        before = sys.getallocatedblocks()
        grown = before - self.baseline
        if grown <= max(MIN_GROWTH_BLOCKS, self.growth * self.baseline):
            return False
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.baseline = sys.getallocatedblocks()
        self.full_collections += 1
        garbage_share = (before - self.baseline) / grown
        self.growth = next_growth(self.growth, garbage_share, self.full_growth)
        log.info(
            "full collection: %d blocks after, %d objects freed (%.0f%% of the growth), "
            "%.1f ms; the next waits for %.0f%% growth",
            self.baseline,
            freed,
            100 * garbage_share,
            1000 * (time.perf_counter() - started),
            100 * self.growth,
        )
        return True

    def start(self, period: float) -> threading.Thread:
        """Call `tick` every `period` seconds for the life of the process."""

        def run() -> None:
            while True:
                time.sleep(period)
                try:
                    self.tick()
                except Exception:  # the collector must never take the server down
                    log.exception("collector tick failed")

        thread = threading.Thread(target=run, name="gc-frozen-heap", daemon=True)
        thread.start()
        return thread


def next_growth(growth: float, garbage_share: float, full_growth: float) -> float:
    """The growth the next full collection waits for, after one that found `garbage_share`
    of the heap's growth to be garbage: doubled (up to `MAX_GROWTH`) when the growth was
    mostly live data, back to `full_growth` when it was mostly garbage."""
    if garbage_share < LIVE_GROWTH_SHARE:
        return max(full_growth, min(MAX_GROWTH, 2 * growth))
    return full_growth


def log_slow_collections(limit_ms: float) -> None:
    """Log every collection that takes at least `limit_ms` (generation, duration, objects
    freed): to tell the collector's pauses from the rest when a latency tail appears."""
    limit = limit_ms / 1000
    started = [0.0]

    def timing(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        if took >= limit:
            log.warning(
                "gc generation %d took %.1f ms, freed %d",
                info["generation"],
                took * 1000,
                info["collected"],
            )

    gc.callbacks.append(timing)


def configure_collector(settings: CollectorSettings) -> FrozenHeap | None:
    """Apply `settings` to this process: thresholds, the slow-collection log, and (unless
    freezing is off) a first freeze of everything loaded so far plus the periodic ticks."""
    gc.set_threshold(*settings.thresholds)
    if settings.slow_log_ms is not None:
        log_slow_collections(settings.slow_log_ms)
    gc.freeze()  # what is loaded now lives as long as the process
    if settings.freeze_seconds is None:
        return None
    heap = FrozenHeap(settings.full_growth)
    heap.start(settings.freeze_seconds)
    return heap
