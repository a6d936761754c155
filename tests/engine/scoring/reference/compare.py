"""The reference scorer against the engine's, hand by hand, and the million-hand run.

`disagreement(hand)` scores one `mahjong-hall score` input object both ways and says how
they differ (None when they agree). Run as a script it compares many random hands
(`hand_maker.random_hand`, hand k of a run built from ``random.Random(f"{seed}:{k}")``)
over worker processes and prints the totals:

    python -m tests.engine.scoring.reference.compare --hands 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from server.cli.score import hand_from_json
from server.engine.scoring import score_hand
from tests.engine.scoring.reference.hand_maker import random_hand
from tests.engine.scoring.reference.scorer import reference_score

VARIANTS = ("hk", "kaki3")


def engine_result(hand: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer, as `mahjong-hall score` prints it."""
    result: dict[str, Any] = score_hand(hand_from_json(hand)).to_json()
    return result


def disagreement(hand: dict[str, Any]) -> str | None:
    """How the engine and the reference differ on `hand`, or None when they agree on
    validity, fan, limit, points and the pattern ids."""
    engine = engine_result(hand)
    reference = reference_score(hand)
    mine = (reference.valid, reference.fan, reference.limit, reference.points)
    theirs = (engine["valid"], engine["fan"], engine["limit"], engine["points"])
    patterns = tuple(sorted((p["id"], p["fan"]) for p in engine["patterns"]))
    allowed = reference.pattern_choices or frozenset({()})
    if mine == theirs and patterns in allowed:
        return None
    return (
        f"hand {json.dumps(hand)}\n"
        f"  engine    valid/fan/limit/points {theirs} patterns {list(patterns)}\n"
        f"  reference valid/fan/limit/points {mine} patterns "
        f"{[list(choice) for choice in sorted(allowed)]}"
    )


def hand_for(seed: str, number: int) -> dict[str, Any]:
    """Hand `number` of the run `seed`, the tables taking turns."""
    rng = random.Random(f"{seed}:{number}")
    return random_hand(rng, VARIANTS[number % 2])


def compare_range(seed: str, start: int, stop: int, keep: int = 5) -> tuple[int, int, list[str]]:
    """Compare hands `start` to `stop - 1`: (hands, disagreements, the first few)."""
    found = 0
    first: list[str] = []
    for number in range(start, stop):
        problem = disagreement(hand_for(seed, number))
        if problem is not None:
            found += 1
            if len(first) < keep:
                first.append(f"#{number}: {problem}")
    return stop - start, found, first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="reference")
    parser.add_argument("--chunk", type=int, default=5_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    hands = disagreements = 0
    first: list[str] = []
    chunks = [
        (args.seed, start, min(start + args.chunk, args.hands))
        for start in range(0, args.hands, args.chunk)
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(compare_range, *chunk) for chunk in chunks]
        for future in futures:
            done, found, examples = future.result()
            hands += done
            disagreements += found
            first += examples[: max(0, 5 - len(first))]
            elapsed = time.perf_counter() - started
            print(
                f"progress: {hands} hands, {disagreements} disagreements, "
                f"{hands / elapsed:.0f} hands/s",
                flush=True,
            )
    for example in first:
        print(example)
    elapsed = time.perf_counter() - started
    print(
        f"compared {hands} hands (seed {args.seed!r}, {args.workers} workers): "
        f"{disagreements} disagreements, {elapsed:.0f} s, {hands / elapsed:.0f} hands/s"
    )
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
