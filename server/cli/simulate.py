"""`mahjong-hall simulate`: play bots-only deals in-process and print a summary.

    mahjong-hall simulate --variant kaki3 --deals 1000 --seed 7 --levels full,baseline,baseline --json

    mahjong-hall simulate --variant hk --deals 1000 --compare-levels

Prints one JSON object (docs/cli.md) with `--json`, a short readable report without.
`--compare-levels` seats one bot of each level (easy, baseline, full; a second baseline at
Hong Kong's fourth seat) and adds a strength ordering (``"strength"``): each level's win
share and net points per player and deal, strongest first. `--rules` takes the table's
house rules as a JSON object (docs/cli.md). The same arguments always give the same deals
and results (timings aside).
"""

from __future__ import annotations

import argparse
import json
import sys

from server.bots.simulation import level_strength, mixed_levels, parse_levels, simulate
from server.engine.errors import EngineError
from server.engine.rules import TableRules
from server.engine.variants import HK, VariantName


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the simulate options to `parser`."""
    parser.add_argument("--variant", choices=tuple(VariantName), default=HK, help="table rules")
    parser.add_argument("--deals", type=int, default=100, help="number of deals to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal's shuffle")
    parser.add_argument(
        "--levels",
        default=None,
        help="bot level per player, comma-separated (e.g. full,baseline,baseline); "
        "one name for every seat; default full everywhere. Players rotate seats each deal.",
    )
    parser.add_argument(
        "--compare-levels",
        action="store_true",
        help="one bot of each level at the table; print their strength ordering",
    )
    parser.add_argument(
        "--rules", default=None, help="house rules as a JSON object, e.g. '{\"min_fan\": 1}'"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run the simulation; exit status 2 for bad arguments."""
    if args.deals < 0:
        print("error: --deals must be zero or more", file=sys.stderr)
        return 2
    if args.compare_levels and args.levels:
        print("error: --compare-levels chooses the levels; leave out --levels", file=sys.stderr)
        return 2
    try:
        levels = (
            mixed_levels(args.variant)
            if args.compare_levels
            else parse_levels(args.levels, args.variant)
        )
        rules = (
            None
            if args.rules is None
            else TableRules.from_json(json.loads(args.rules), args.variant)
        )
    except json.JSONDecodeError as error:
        print(f"error: --rules is not JSON: {error.msg}", file=sys.stderr)
        return 2
    except (ValueError, EngineError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    summary = simulate(args.variant, args.deals, args.seed, levels, rules).summary()
    if args.compare_levels:
        summary["strength"] = level_strength(summary)
    if rules is not None:
        summary["rules"] = rules.to_json()
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
    if "strength" in summary:
        print("strength, strongest first:")
        for rank, row in enumerate(summary["strength"], 1):
            print(
                f"  {rank}. {row['level']}: win share {row['win_share_per_player']:.1%} "
                f"per player, net {row['net_points_per_player_deal']:+.2f} points per deal"
            )
    print(
        f"{summary['deals_per_second']} deals/s; decision p50 {summary['decision_ms_p50']} ms, "
        f"p99 {summary['decision_ms_p99']} ms"
    )
    return 0
