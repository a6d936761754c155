"""Random play: complete deals per second, each decision a random legal action.

    .venv/bin/python bench/bench_random_play.py --deals 500

For each table, plays `--deals` seeded deals to the end with a seeded random chooser
(`legal_actions` then `apply` for every decision) and prints deals per second, by wall
clock and by process CPU time (the CPU figure is steadier on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats


def play_deals(variant: str, deals: int, seed: int) -> dict[str, float]:
    """Play `deals` deals of `variant`; return counts and rates."""
    chooser = random.Random(seed)
    decisions = wins = 0
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for deal_seed in range(seed, seed + deals):
        state = new_deal(DealSettings(variant), deal_seed)
        while not state.is_over:
            seat = chooser.choice(pending_seats(state))
            state, _ = apply(state, chooser.choice(legal_actions(state, seat)))
            decisions += 1
        wins += state.result is not None and state.result["outcome"] == "win"
    wall, cpu = time.perf_counter() - wall_start, time.process_time() - cpu_start
    return {
        "deals": deals,
        "wins": wins,
        "decisions": decisions,
        "deals_per_second": round(deals / wall, 1),
        "deals_per_cpu_second": round(deals / cpu, 1),
        "decisions_per_second": round(decisions / wall),
    }


def main() -> None:
    """Parse the options, run both tables, print one JSON line per table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["hk", "kaki3"], action="append")
    args = parser.parse_args()
    for variant in args.variant or ["hk", "kaki3"]:
        print(json.dumps({"variant": variant, **play_deals(variant, args.deals, args.seed)}))


if __name__ == "__main__":
    main()
