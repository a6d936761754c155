"""Bot decision latency: time `choose_action` on positions from real bots-only deals.

    .venv/bin/python bench/bench_bots.py --deals 30

Plays seeded deals with full bots, keeps every decision position (the seat's view and its
legal actions), then times each level deciding each position, cold caches first. Prints
p50 / p99 / max per table and level, in wall-clock and CPU milliseconds: on a shared
machine the wall clock also counts time spent waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from server.bots import choose_action
from server.bots.efficiency import _sorted_shanten
from server.bots.quick_shanten import _combined, _suit_readings
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats, view


def positions(variant: str, deals: int) -> list[tuple[dict[str, Any], list[Any]]]:
    """Every decision of `deals` full-bot deals, as (view, legal)."""
    found = []
    for number in range(deals):
        state = new_deal(DealSettings(variant=variant), f"bench-bots:{number}")
        while not state.is_over:
            seat = pending_seats(state)[0]
            legal = legal_actions(state, seat)
            seat_view = view(state, seat)
            found.append((seat_view, legal))
            state, _ = apply(state, choose_action(seat_view, legal, "full"))
    return found


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    args = parser.parse_args()
    report = {}
    for variant in ("hk", "kaki3"):
        cases = positions(variant, args.deals)
        for level in ("baseline", "full"):
            for cache in (_sorted_shanten, _suit_readings, _combined):
                cache.cache_clear()
            wall, cpu = [], []
            for seat_view, legal in cases:
                started, started_cpu = time.perf_counter(), time.thread_time()
                choose_action(seat_view, legal, level)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.thread_time() - started_cpu) * 1000)
            wall.sort()
            cpu.sort()
            report[f"{variant}/{level}"] = {
                "decisions": len(cases),
                "wall_ms_p50": round(percentile(wall, 0.5), 2),
                "wall_ms_p99": round(percentile(wall, 0.99), 2),
                "wall_ms_max": round(wall[-1], 2),
                "cpu_ms_p50": round(percentile(cpu, 0.5), 2),
                "cpu_ms_p99": round(percentile(cpu, 0.99), 2),
                "cpu_ms_max": round(cpu[-1], 2),
            }
    started = time.perf_counter()
    sum(range(1000))
    report["reference_sum_range_1000_us"] = round((time.perf_counter() - started) * 1e6, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
