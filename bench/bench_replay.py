"""Replay speed: whole deals replayed per second by `mahjong-hall replay`'s code, single process.

Run: .venv/bin/python bench/bench_replay.py [--deals N]

For each table, N seeded deals are first played to their end with random legal choices
(not timed), and their inputs written as `mahjong-hall replay` reads them: the seed's hands
and wall and every action, passes included. Then the JSON text of each is replayed
(parsing, dealing, applying and the result, as the command does) and timed. A second run
replays the same logs with the passes left out, so the implied passes are timed too.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from server.cli.replay import replay_document
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats
from server.engine.tiles import format_tiles
from server.engine.variants import get_variant
from server.engine.wall import shuffled_deal


def played_deal(variant: str, seed: int) -> tuple[str, str]:
    """The replay input of one randomly played deal: (with every pass, without passes)."""
    hands, wall = shuffled_deal(get_variant(variant), seed)
    chooser = random.Random(seed)
    state = new_deal(DealSettings(variant=variant), seed)
    logged: list[dict[str, Any]] = []
    while state.result is None:
        options = legal_actions(state, pending_seats(state)[0])
        wins = [option for option in options if option.type == "win"]
        action = wins[0] if wins and chooser.random() < 0.5 else chooser.choice(options)
        state, _events = apply(state, action)
        logged.append(action.to_json())
    document = {
        "variant": variant,
        "hands": {seat: format_tiles(tiles) for seat, tiles in hands.items()},
        "wall": format_tiles(wall),
    }
    # A pass stays when the same seat's next decision is a win (see docs/scenarios.md).
    decisions = []
    for index, action in enumerate(logged):
        if action["type"] == "pass":
            later = next((a for a in logged[index + 1 :] if a["type"] != "pass"), None)
            if not (later and later["type"] == "win" and later.get("seat") == action["seat"]):
                continue
        decisions.append(action)
    return json.dumps({**document, "actions": logged}), json.dumps(
        {**document, "actions": decisions}
    )


def time_replays(texts: list[str]) -> tuple[float, int]:
    """(seconds, actions replayed) for replaying every text once."""
    actions = sum(len(json.loads(text)["actions"]) for text in texts)
    start = time.perf_counter()
    for text in texts:
        replay_document(text)
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per table (default 200)")
    args = parser.parse_args()
    for variant in ("kaki3", "hk"):
        inputs = [played_deal(variant, seed) for seed in range(args.deals)]
        for label, texts in (
            ("all passes", [a for a, _ in inputs]),
            ("implied passes", [b for _, b in inputs]),
        ):
            seconds, actions = time_replays(texts)
            print(
                f"{variant:5} {label:14} {len(texts)} deals, {actions} actions: "
                f"{len(texts) / seconds:7.1f} deals/s, {actions / seconds:8.0f} actions/s, "
                f"{1000 * seconds / len(texts):6.2f} ms/deal"
            )


if __name__ == "__main__":
    main()
