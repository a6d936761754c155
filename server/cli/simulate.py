"""`mahjong-hall simulate`: play bots-only deals in-process and print a summary.

    mahjong-hall simulate --variant kaki3 --deals 1000 --seed 7 --levels full,baseline,baseline --json

Prints one JSON object (CONTRACTS.md §3) with `--json`, a short readable report without.
The same arguments always give the same deals and results (timings aside).
"""

from __future__ import annotations

import argparse
import json
import sys

from server.bots.simulation import parse_levels, simulate


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the simulate options to `parser`."""
    parser.add_argument("--variant", choices=("hk", "kaki3"), default="hk", help="table rules")
    parser.add_argument("--deals", type=int, default=100, help="number of deals to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal's shuffle")
    parser.add_argument(
        "--levels",
        default=None,
        help="bot level per player, comma-separated (e.g. full,baseline,baseline); "
        "one name for every seat; default full everywhere. Players rotate seats each deal.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run the simulation; exit status 2 for bad arguments."""
    if args.deals < 0:
        print("error: --deals must be zero or more", file=sys.stderr)
        return 2
    try:
        levels = parse_levels(args.levels, args.variant)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    summary = simulate(args.variant, args.deals, args.seed, levels).summary()
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{summary['deals']} {args.variant} deals: {summary['wins']} wins, "
        f"{summary['draws']} draws, {summary['timeouts']} timeouts; "
        f"mean fan {summary['mean_fan']}"
    )
    for player in summary["players"]:
        print(
            f"  player {player['player']} ({player['level']}): {player['wins']} wins, "
            f"net {player['net_points']} points"
        )
    print(
        f"{summary['deals_per_second']} deals/s; decision p50 {summary['decision_ms_p50']} ms, "
        f"p99 {summary['decision_ms_p99']} ms"
    )
    return 0
