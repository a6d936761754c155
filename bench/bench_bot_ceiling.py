"""How much better could a 3 Kaki bot do? One full bot against two baselines, with help.

    .venv/bin/python bench/bench_bot_ceiling.py --mode perfect-defence --deals 3000
    .venv/bin/python bench/bench_bot_ceiling.py --mode perfect-foresight --deals 100
    .venv/bin/python bench/bench_bot_ceiling.py --mode rollouts --rollouts 16 --deals 200

A measurement, never a bot: most modes read the hidden state on purpose, to bound what
any honest improvement of the full bot could reach (docs/bots.md, "3 Kaki: how far").
Players rotate seats as in `mahjong-hall simulate`, and deal `k` uses seed `"S:k"`, so a
mode's figures compare with `simulate --levels full,baseline,baseline` deal for deal.

Modes (the player under test is player 0; players 1 and 2 are baseline bots):
- ``full`` / ``baseline``: that level as it is (the reference, and the fair share).
- ``perfect-defence``: the full bot, but on its own turn it never throws a tile that
  completes an opponent's winning hand when another discard is safe. It sees the hands.
- ``perfect-foresight``: at each decision the full bot tries every legal action on the
  true state and plays each one out with the real bots; it keeps its own choice unless
  that loses and another action wins. It sees the hands and the wall order.
- ``rollouts``: honest Monte Carlo. For its discards the full bot samples the hidden
  tiles (opponents' hands and wall) from what its own view has not seen, plays each of
  its best `--candidates` discards out `--rollouts` times with the real bots on the same
  samples, and throws the one that won most (ties: its own choice). No time budget.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zlib
from collections.abc import Callable
from typing import Any

from server.bots import choose_action
from server.bots.evaluation import evaluate_hand
from server.bots.own_turn import discard_score, without
from server.bots.seat_view import SeatView, read_view
from server.engine import Action, DealSettings, apply, legal_actions, new_deal, pending_seats, view
from server.engine.deal_end import score_win
from server.engine.deal_state import DealState
from server.engine.scoring.types import WinFlags
from server.engine.tiles import FEI

BONUS_TILES = tuple(f"{r}{s}" for s in ("f", "n", "a", "c") for r in range(1, 5))
Chooser = Callable[[DealState, str, dict[str, str]], Action]


def play_out(state: DealState, levels: dict[str, str]) -> DealState:
    """The deal played to its end by the real bots."""
    while not state.is_over:
        seat = pending_seats(state)[0]
        action = choose_action(view(state, seat), legal_actions(state, seat), levels[seat])
        state, _ = apply(state, action)
    return state


def won(state: DealState, seat: str) -> bool:
    result = state.result or {}
    return result.get("outcome") == "win" and any(w["seat"] == seat for w in result["winners"])


def perfect_defence(state: DealState, seat: str, levels: dict[str, str]) -> Action:
    legal = legal_actions(state, seat)
    action = choose_action(view(state, seat), legal, levels[seat])
    if action.type != "discard" or not _feeds(state, seat, action.tile):
        return action
    safe = [a for a in legal if a.type == "discard" and not _feeds(state, seat, a.tile)]
    if not safe:
        return action
    seat_view = read_view(view(state, seat))
    return max(safe, key=lambda a: _discard_value(seat_view, a))


def _feeds(state: DealState, seat: str, tile: str | None) -> bool:
    """True when `tile` thrown by `seat` would let another seat win at once."""
    if tile is None:
        return False
    return any(
        score_win(state, other, [*player.hand, tile], tile, WinFlags()) is not None
        for other, player in state.players.items()
        if other != seat
    )


def _discard_value(seat_view: SeatView, action: Action) -> float:
    assert action.tile is not None
    hand = evaluate_hand(
        without(seat_view.concealed, [action.tile]),
        seat_view.melds,
        seat_view.bonus,
        seat_view,
        "full",
    )
    return discard_score(hand, action.tile, seat_view, "full")


def perfect_foresight(state: DealState, seat: str, levels: dict[str, str]) -> Action:
    legal = legal_actions(state, seat)
    own = choose_action(view(state, seat), legal, levels[seat])
    if len(legal) < 2 or won(play_out(apply(state, own)[0], levels), seat):
        return own
    for action in legal:
        if action != own and won(play_out(apply(state, action)[0], levels), seat):
            return action
    return own


def sample_hidden(state: DealState, seat_view: SeatView, rng: random.Random) -> DealState:
    """`state` with the tiles `seat_view` cannot see dealt again at random.

    Only the seat's view decides which tiles are hidden; the true state gives the shape
    (hand sizes, where the wall starts and ends), which every player knows anyway.
    """
    hidden = [kind for kind, count in sorted(seat_view.unseen.items()) for _ in range(count)]
    laid = set(seat_view.bonus)
    for opponent in seat_view.opponents:
        laid.update(opponent.bonus)
    rng.shuffle(hidden)
    sampled = state.copy()
    for opponent in seat_view.opponents:
        size = opponent.hand_count
        player = sampled.own(opponent.seat)
        player.hand, player.drawn, hidden = hidden[:size], None, hidden[size:]
    wall = hidden + [tile for tile in BONUS_TILES if tile not in laid]
    rng.shuffle(wall)
    if len(wall) != state.back - state.front:
        raise RuntimeError("the unseen tiles do not fill the hidden places")
    sampled.wall = state.wall[: state.front] + tuple(wall) + state.wall[state.back :]
    return sampled


def rollouts(rounds: int, candidates: int) -> Chooser:
    def choose(state: DealState, seat: str, levels: dict[str, str]) -> Action:
        legal = legal_actions(state, seat)
        seat_json = view(state, seat)
        own = choose_action(seat_json, legal, levels[seat])
        if own.type != "discard":
            return own
        seat_view = read_view(seat_json)
        others = {a.tile: a for a in legal if a.type == "discard" and a.tile not in (FEI, own.tile)}
        ranked = sorted(others.values(), key=lambda a: -_discard_value(seat_view, a))
        top = [own, *ranked[: candidates - 1]]
        if len(top) < 2:
            return own
        rng = random.Random(zlib.crc32(json.dumps(seat_json, sort_keys=True).encode()))
        wins = dict.fromkeys(range(len(top)), 0)
        for _ in range(rounds):
            sampled = sample_hidden(state, seat_view, rng)
            for index, action in enumerate(top):
                wins[index] += won(play_out(apply(sampled, action)[0], levels), seat)
        best = max(wins, key=lambda i: (wins[i], i == 0))
        return top[best]

    return choose


def run(mode: str, deals: int, seed: int, chooser: Chooser | None) -> dict[str, Any]:
    tested = "baseline" if mode == "baseline" else "full"
    levels_by_player = [tested, "baseline", "baseline"]
    seats = ("E", "S", "W")
    wins = [0, 0, 0]
    net = [0, 0, 0]
    all_wins = changed = decisions = 0
    cpu: list[float] = []
    for number in range(deals):
        player_at = {seats[(p + number) % 3]: p for p in range(3)}
        levels = {seat: levels_by_player[p] for seat, p in player_at.items()}
        state = new_deal(DealSettings(variant="kaki3"), f"{seed}:{number}")
        while not state.is_over:
            seat = pending_seats(state)[0]
            legal = legal_actions(state, seat)
            if player_at[seat] == 0 and chooser is not None:
                started = time.thread_time()
                action = chooser(state, seat, levels)
                cpu.append(time.thread_time() - started)
                decisions += 1
                changed += action != choose_action(view(state, seat), legal, levels[seat])
            else:
                action = choose_action(view(state, seat), legal, levels[seat])
            state, _ = apply(state, action)
        assert state.result is not None
        for winner in state.result["winners"]:
            all_wins += 1
            wins[player_at[winner["seat"]]] += 1
        for seat, points in state.result["scores"].items():
            net[player_at[seat]] += int(points)
    cpu.sort()
    return {
        "mode": mode,
        "deals": deals,
        "seed": seed,
        "wins": all_wins,
        "tested_wins": wins[0],
        "tested_share": round(wins[0] / all_wins, 4) if all_wins else 0.0,
        "baseline_shares": [round(w / all_wins, 4) if all_wins else 0.0 for w in wins[1:]],
        "tested_net_per_deal": round(net[0] / deals, 2),
        "decisions_changed": f"{changed} of {decisions}",
        "helped_decision_cpu_ms_p99": round(cpu[int(0.99 * len(cpu))] * 1000, 1) if cpu else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--mode",
        choices=["full", "baseline", "perfect-defence", "perfect-foresight", "rollouts"],
        default="full",
    )
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--candidates", type=int, default=3)
    args = parser.parse_args()
    chooser = {
        "perfect-defence": perfect_defence,
        "perfect-foresight": perfect_foresight,
        "rollouts": rollouts(args.rollouts, args.candidates),
    }.get(args.mode)
    report = run(args.mode, args.deals, args.seed, chooser)
    started = time.perf_counter()
    for _ in range(10_000):
        sum(range(1000))
    report["reference_sum_range_1000_us"] = round((time.perf_counter() - started) * 100, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
