"""The room core alone: CPU per action of `Room.handle`, with no sockets, store or loop.

Four human seats, each connected, play whole deals: every decision is answered at once
with the load benchmark's scripted choice (`quick_choice`), every store write is answered
"saved" straight away, and timers that come due are delivered by moving the clock on.
What is timed is everything the server's core does for an action: checking it, the
engine, the effects, each seat's own `state` text (with its hand analysis), in-process.
The socket layer, the store and the event loop are measured by `bench_load.py`.

    .venv/bin/python bench/bench_room_core.py --variant hk --deals 40
    .venv/bin/python bench/bench_room_core.py --profile 25    # the top 25 functions
"""

from __future__ import annotations

import argparse
import cProfile
import heapq
import itertools
import pstats
import random
import sys
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_clients import quick_choice  # noqa: E402
from server.engine import pending_seats  # noqa: E402
from server.observability.metrics import HallMetrics  # noqa: E402
from server.rooms import commands as cmd  # noqa: E402
from server.rooms.effects import (  # noqa: E402
    Effect,
    FinishDeal,
    Persist,
    Schedule,
    Send,
    StartDeal,
)
from server.rooms.room import Chance, Room  # noqa: E402
from server.rooms.settings import RoomSettings, TableSettings  # noqa: E402

START = 1_800_000_000.0


@dataclass(eq=False)
class Seat:
    """A connected player as the core sees one: the texts it was sent are only counted."""

    player_index: int
    texts: int = 0
    chars: int = 0

    def push(self, text: str) -> None:  # pragma: no cover - the core returns Send effects
        raise AssertionError("the core must not push")

    def close(self, code: int, reason: str) -> None:  # pragma: no cover
        raise AssertionError("the core must not close")


class Driver:
    """One room, played by four scripted humans until `deals` deals are over."""

    def __init__(self, variant: str, seed: int) -> None:
        seeds = random.Random(seed)
        tokens = itertools.count()
        self.now = START
        self.room = Room(
            room_id="bench",
            settings=RoomSettings(variant=variant, turn_seconds=40, deal_seconds=300),
            table_settings=TableSettings(
                bot_delay=0, next_deal_seconds=0, hold_deals_without_humans=False
            ),
            created_at=START,
            registry=HallMetrics(),
            chance=Chance(
                deal_seed=lambda: seeds.getrandbits(62), player_token=lambda: f"t{next(tokens)}"
            ),
        )
        self.timers: list[tuple[float, int, cmd.Command]] = []
        self.deal_ids = itertools.count(1)
        self.actions = 0
        self.deals_ended = 0
        self.seats: list[Seat] = []
        self.handle(self.room.opening())
        players = 3 if variant == "kaki3" else 4
        for index in range(players):
            self.ask(cmd.Join(name=f"P{index}", reply=Future()))
            seat = Seat(index)
            self.seats.append(seat)
            # Tokens are counted out in join order (`player_token` above).
            self.handle(self.room.handle(cmd.Connect(seat, f"t{index}"), self.now))

    def ask(self, command: cmd.Join) -> None:
        self.handle(self.room.handle(command, self.now))

    def handle(self, effects: list[Effect]) -> None:
        """Carry out `effects`: writes saved at once, timers kept, texts counted."""
        while effects:
            for effect in effects:
                if isinstance(effect, Send):
                    for to in effect.to:
                        if isinstance(to, Seat):
                            to.texts += 1
                            to.chars += len(effect.text)
                elif isinstance(effect, Schedule):
                    heapq.heappush(self.timers, (effect.moment, effect.key, effect.command))
            last = effects[-1]
            if not isinstance(last, Persist):
                return
            value = next(self.deal_ids) if isinstance(last.write, StartDeal) else None
            self.deals_ended += isinstance(last.write, FinishDeal)
            effects = self.room.handle(cmd.Persisted(value), self.now)

    def step(self) -> bool:
        """Answer one pending decision (or deliver the next timer); False when idle."""
        room = self.room
        deal = room.deal
        if deal is not None and not deal.ended:
            pending = pending_seats(deal.state)
            if pending:
                seat = pending[0]
                legal = [action.to_json() for action in room.legal_now(seat)]
                choice = quick_choice(legal, deal.state.players[seat].drawn)
                connection = self.seats[deal.seat_players[seat]]
                self.actions += 1
                self.handle(room.handle(cmd.PlayerAction(connection, choice), self.now))
                return True
        if not self.timers:
            return False
        moment, _, command = heapq.heappop(self.timers)
        self.now = max(self.now, moment)
        self.handle(room.handle(command, self.now))
        return True


def play(variant: str, deals: int, seed: int) -> tuple[int, float, Driver]:
    """Play `deals` deals (a new game where one ends); (actions, CPU seconds, last driver)."""
    driver = Driver(variant, seed)
    actions = ended = 0
    started = time.process_time()
    while ended + driver.deals_ended < deals:
        if driver.step():
            continue
        if not driver.room.status.is_over:
            raise RuntimeError("the table stands still with its game not over")
        actions += driver.actions
        ended += driver.deals_ended
        driver = Driver(variant, seed + ended)
    return actions + driver.actions, time.process_time() - started, driver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hk", choices=("hk", "kaki3"))
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs, each with its own deals; the best is reported"
    )
    parser.add_argument("--profile", type=int, metavar="N", help="print the top N functions")
    options = parser.parse_args()
    if options.profile:
        profile = cProfile.Profile()
        profile.runcall(play, options.variant, options.deals, options.seed)
        pstats.Stats(profile).sort_stats("tottime").print_stats(options.profile)
        return
    best: float | None = None
    for run in range(options.repeat):
        # Fresh deals each run: the engine memoises hands, so a replayed deal would be cheap.
        seed = options.seed + 1000 * run
        actions, seconds, driver = play(options.variant, options.deals, seed)
        per_action = 1e6 * seconds / max(1, actions)
        best = per_action if best is None else min(best, per_action)
        texts = sum(seat.texts for seat in driver.seats)
        print(
            f"{options.variant}: {actions} actions in {seconds:.2f} s CPU, "
            f"{per_action:.1f} µs per action ({texts} texts to the last game's seats)"
        )
    print(f"best: {best:.1f} µs of core CPU per action")


if __name__ == "__main__":
    main()
