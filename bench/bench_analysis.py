"""Hand analysis cost: the `analysis` member of each seat's `state`, per state, both tables.

Run: .venv/bin/python bench/bench_analysis.py [--deals N] [--seed S]

Bots-only deals (baseline bots, seeded) are played first and every table version kept.
Then, for each version and each seat, the server's own path builds the seat's `analysis`
text (`server.rooms.hand_analysis.analysis_text`: the seat's view, the engine's `analyse`,
the JSON), in the order a room would. Two passes:

- cold: every memo of the analysis, the scorer and the hand functions cleared first, so a
  hand's waits are worked out the first time they are met, as on a fresh server;
- server: the same again with the per-seat kept texts, as one room's broadcasts meet them.

Printed per table: seat-states measured, mean, p50, p99 and max CPU microseconds per
seat-state (CPU time of the thread, so other processes on the machine weigh less).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import server.engine.scoring as scoring_module
from server.bots import choose_action
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats, view
from server.engine import analysis as analysis_module
from server.engine import hand as hand_module
from server.engine.deal_state import DealState
from server.rooms.hand_analysis import analysis_text
from server.rooms.messages import encode


def bot_deal_states(variant: str, seed: int) -> list[DealState]:
    """Every version of one baseline-bots deal, from the deal to its end."""
    state = new_deal(DealSettings(variant=variant), seed)
    states = [state]
    while not state.is_over:
        seat = pending_seats(state)[0]
        action = choose_action(view(state, seat), legal_actions(state, seat), "baseline")
        state, _ = apply(state, action)
        states.append(state)
    return states


def clear_memos() -> None:
    for function in (
        analysis_module.hand_waits,
        analysis_module.hand_steps,
        analysis_module.ready_discards,
        analysis_module.wait_tiles,
        hand_module._shanten,  # noqa: SLF001 - our own memo, cleared for a cold pass
        scoring_module._score_memo,  # noqa: SLF001
    ):
        function.cache_clear()


def timed_pass(deals: list[list[DealState]], keep_texts: bool) -> list[float]:
    timings: list[float] = []
    for states in deals:
        kept: dict[str, tuple[Any, str]] = {}
        for state in states:
            for seat in state.seats:
                if not keep_texts:
                    kept = {}
                started = time.thread_time()
                analysis_text(state, seat, kept, encode)
                timings.append(time.thread_time() - started)
    return timings


def summary(timings: list[float]) -> str:
    ordered = sorted(timings)
    micro = [t * 1e6 for t in ordered]
    mean = sum(micro) / len(micro)
    p50 = micro[len(micro) // 2]
    p99 = micro[min(len(micro) - 1, int(len(micro) * 0.99))]
    return f"{len(micro)} seat-states  mean {mean:.0f} us  p50 {p50:.0f} us  p99 {p99:.0f} us  max {micro[-1]:.0f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for variant in ("kaki3", "hk"):
        deals = [bot_deal_states(variant, rng.randrange(1 << 30)) for _ in range(args.deals)]
        clear_memos()
        cold = timed_pass(deals, keep_texts=False)
        clear_memos()
        served = timed_pass(deals, keep_texts=True)
        print(f"{variant:6} cold    {summary(cold)}")
        print(f"{variant:6} server  {summary(served)}")


if __name__ == "__main__":
    main()
