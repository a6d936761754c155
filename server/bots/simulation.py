"""Bots-only deals played in-process: the engine behind `mahjong-hall simulate`.

Each deal is `new_deal(settings, seed)` played to the end by `choose_action`, with every
seat given only its own `view`. Levels are assigned to players, and the players rotate
one seat each deal, so over a run every level sits at every seat (the dealer's extra
tile and claims order favour some seats). Everything follows from the seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from server.bots import LEVELS, choose_action
from server.engine import DealSettings, apply, legal_actions, new_deal, pending_seats, view
from server.engine.deal_result import DealOutcome, DealResult
from server.engine.rules import TableRules
from server.engine.variants import get_variant

# No real deal comes near this many decisions; reaching it means something loops.
MAX_DECISIONS_PER_DEAL = 5_000


@dataclass
class PlayerTally:
    """One simulated player's totals over a run."""

    level: str
    wins: int = 0
    net_points: int = 0


@dataclass
class SimulationTally:
    """Counts gathered while a run plays, turned into the summary by `summary()`."""

    variant: str
    deals: int = 0
    wins: int = 0
    draws: int = 0
    timeouts: int = 0
    winning_fans: list[int] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)
    # CPU time of the same decisions: what the bot itself costs on a machine shared with
    # other work (wall-clock time also counts time spent waiting for a core).
    decision_cpu_seconds: list[float] = field(default_factory=list)
    players: list[PlayerTally] = field(default_factory=list)
    elapsed: float = 0.0

    def summary(self) -> dict[str, Any]:
        """The JSON summary of docs/cli.md, "mahjong-hall simulate"."""
        timings = sorted(self.decision_seconds)
        cpu_timings = sorted(self.decision_cpu_seconds)
        players = [
            {
                "player": index,
                "level": player.level,
                "wins": player.wins,
                "win_share": round(player.wins / self.wins, 4) if self.wins else 0.0,
                "net_points": player.net_points,
                "net_points_per_deal": round(player.net_points / self.deals, 4)
                if self.deals
                else 0.0,
            }
            for index, player in enumerate(self.players)
        ]
        by_level: dict[str, dict[str, int]] = {}
        for player in self.players:
            entry = by_level.setdefault(player.level, {"players": 0, "wins": 0, "net_points": 0})
            entry["players"] += 1
            entry["wins"] += player.wins
            entry["net_points"] += player.net_points
        return {
            "variant": self.variant,
            "deals": self.deals,
            "wins": self.wins,
            "draws": self.draws,
            "timeouts": self.timeouts,
            "win_rate": round(self.wins / self.deals, 4) if self.deals else 0.0,
            "mean_fan": round(sum(self.winning_fans) / len(self.winning_fans), 3)
            if self.winning_fans
            else 0.0,
            "deals_per_second": round(self.deals / self.elapsed, 2) if self.elapsed else 0.0,
            "decisions": len(timings),
            "decision_ms_p50": _percentile_ms(timings, 0.50),
            "decision_ms_p99": _percentile_ms(timings, 0.99),
            "decision_ms_max": round(timings[-1] * 1000, 3) if timings else 0.0,
            "decision_cpu_ms_p50": _percentile_ms(cpu_timings, 0.50),
            "decision_cpu_ms_p99": _percentile_ms(cpu_timings, 0.99),
            "players": players,
            "levels": by_level,
        }


def _percentile_ms(sorted_seconds: list[float], fraction: float) -> float:
    if not sorted_seconds:
        return 0.0
    index = min(len(sorted_seconds) - 1, int(fraction * len(sorted_seconds)))
    return round(sorted_seconds[index] * 1000, 3)


def parse_levels(text: str | None, variant: str) -> list[str]:
    """Levels per player from ``"full,baseline,..."``; one name means every seat.

    Raises `ValueError` naming the problem for an unknown level or a wrong count.
    """
    seats = get_variant(variant).player_count
    if not text:
        return ["full"] * seats
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in LEVELS:
            raise ValueError(f"unknown bot level {name!r}; expected one of {list(LEVELS)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ValueError(f"{variant} has {seats} seats, but {len(names)} levels were given")
    return names


def play_deal(
    variant: str,
    seed: str,
    level_of_seat: dict[str, str],
    timings: list[float],
    cpu_timings: list[float] | None = None,
    rules: TableRules | None = None,
) -> DealResult:
    """Play one bots-only deal to its end; returns the engine's result.

    Appends each decision's wall-clock time (seconds) to `timings`, and its CPU time to
    `cpu_timings` when given. Raises `RuntimeError` if the deal does not end within
    `MAX_DECISIONS_PER_DEAL` decisions.
    """
    state = new_deal(DealSettings(variant=variant, rules=rules), seed)
    for _ in range(MAX_DECISIONS_PER_DEAL):
        if state.is_over:
            assert state.result is not None
            return state.result
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        seat_view = view(state, seat)
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = choose_action(seat_view, legal, level_of_seat[seat], rules)
        timings.append(time.perf_counter() - started)
        if cpu_timings is not None:
            cpu_timings.append(time.thread_time() - started_cpu)
        state, _ = apply(state, action)
    raise RuntimeError(f"deal {seed!r} did not end within {MAX_DECISIONS_PER_DEAL} decisions")


def simulate(
    variant: str,
    deals: int,
    seed: int,
    levels: list[str],
    rules: TableRules | None = None,
) -> SimulationTally:
    """Play `deals` deals; player i sits at seat (i + deal) mod seats in deal number `deal`."""
    seats = get_variant(variant).seats
    if len(levels) != len(seats):
        raise ValueError(f"{variant} needs {len(seats)} levels, got {len(levels)}")
    tally = SimulationTally(variant=variant, players=[PlayerTally(level) for level in levels])
    started = time.perf_counter()
    for number in range(deals):
        player_at = {seats[(p + number) % len(seats)]: p for p in range(len(seats))}
        level_of_seat = {seat: levels[p] for seat, p in player_at.items()}
        result = play_deal(
            variant,
            f"{seed}:{number}",
            level_of_seat,
            tally.decision_seconds,
            tally.decision_cpu_seconds,
            rules,
        )
        tally.deals += 1
        if result.outcome == DealOutcome.WIN:
            tally.wins += 1
            for winner in result.winners:
                tally.winning_fans.append(winner.fan)
                tally.players[player_at[winner.seat]].wins += 1
        elif result.outcome == DealOutcome.TIMEOUT:
            tally.timeouts += 1
        else:
            tally.draws += 1
        for seat, points in result.scores.items():
            tally.players[player_at[seat]].net_points += points
    tally.elapsed = time.perf_counter() - started
    return tally


def mixed_levels(variant: str) -> list[str]:
    """One player of each level, weakest first; a fourth Hong Kong seat is a baseline.

    The baseline is the yardstick of docs/bots.md, so the extra seat changes the others'
    opposition least.
    """
    seats = get_variant(variant).player_count
    return [LEVELS[index] if index < len(LEVELS) else "baseline" for index in range(seats)]


def level_strength(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Each level's win share and net points per player per deal, strongest first."""
    deals = max(1, summary["deals"])
    wins = max(1, summary["wins"])
    rows = []
    for level, entry in summary["levels"].items():
        players = entry["players"]
        rows.append(
            {
                "level": level,
                "players": players,
                "win_share_per_player": round(entry["wins"] / wins / players, 4),
                "net_points_per_player_deal": round(entry["net_points"] / players / deals, 4),
            }
        )
    rows.sort(key=lambda row: (row["net_points_per_player_deal"], row["win_share_per_player"]))
    return rows[::-1]
