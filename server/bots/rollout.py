"""3 Kaki: judge close discards by playing the deal out a few times (Monte Carlo rollouts).

A 3 Kaki deal is a race of five or six draws each, so which discard is best depends less
on the hand's shape than on who completes first. For each candidate discard the bot
samples the tiles it cannot see (the opponents' hands and the wall, drawn from exactly
the unseen tiles its own `view` counts), plays the deal to its end with a fast greedy
policy for every seat, and counts how often it wins. All candidates share the same samples
(common random numbers), so their differences are not drowned by the luck of the samples.

The play-out is a simplified deal: draws, bonus tiles and their replacements, wins by
self-draw or on a discard (checked by the engine's scorer, so the fan minimum holds) and
pongs that lower a seat's shanten. Chows, kongs and Fei sinking are left out: they are
rarer, and a rollout is an estimate that only has to rank the candidates.
"""

from __future__ import annotations

import random
import zlib
from bisect import insort
from dataclasses import dataclass

from server.bots.efficiency import hand_shanten
from server.bots.evaluation import _win_fan
from server.bots.seat_view import SeatView
from server.engine.melds import Meld
from server.engine.scoring.types import WinFlags, WinningHand
from server.engine.tiles import FEI, Tile

# Every bonus tile of the 3 Kaki set; each exists once.
BONUS_TILES: tuple[Tile, ...] = tuple(f"{r}{s}" for s in ("f", "n", "a", "c") for r in range(1, 5))
KAKI3_DEAD_WALL = 7


@dataclass
class SimSeat:
    """One seat in a play-out: sorted concealed tiles, shown sets and bonus tiles."""

    hand: list[Tile]
    melds: tuple[Meld, ...]
    bonus: list[Tile]


def _removed(hand: list[Tile], tile: Tile, copies: int = 1) -> list[Tile]:
    kept = list(hand)
    for _ in range(copies):
        kept.remove(tile)
    return kept


def _wins(seat: str, sim: SimSeat, tile: Tile, self_drawn: bool, last: bool) -> bool:
    """True when `sim`'s hand (plus `tile` unless self-drawn) wins with at least the minimum."""
    tiles = sim.hand if self_drawn else sorted([*sim.hand, tile])
    if hand_shanten(tuple(tiles), "kaki3") != -1:
        return False
    flags = WinFlags(
        self_drawn=self_drawn, last_tile=last and self_drawn, last_discard=last and not self_drawn
    )
    hand = WinningHand(
        variant="kaki3",
        seat_wind=seat,
        concealed=tuple(tiles),
        winning_tile=tile,
        melds=sim.melds,
        bonus=tuple(sim.bonus),
        round_wind="E",
        flags=flags,
    )
    return _win_fan(hand) > 0


def _connection(hand: list[Tile], tile: Tile) -> int:
    """How much `tile` is tied to the rest of the hand (lower is thrown first)."""
    if tile[-1] == "z":
        return 3 * (hand.count(tile) - 1)
    rank = int(tile[0])
    ties = 0
    for other in hand:
        if other != FEI and other[-1] == "p":
            gap = abs(int(other[0]) - rank)
            ties += (3, 2, 1)[gap] if gap <= 2 else 0
    return ties - 3 + (0 if rank in (1, 9) else 1)


def greedy_discard(hand: list[Tile], banned: frozenset[Tile] = frozenset()) -> Tile:
    """The rollout policy's throw: fewest steps to ready, then the loosest tile. Keeps Fei."""
    best: tuple[int, int, Tile] | None = None
    for tile in set(hand):
        if tile == FEI or tile in banned:
            continue
        key = (hand_shanten(tuple(_removed(hand, tile)), "kaki3"), _connection(hand, tile), tile)
        if best is None or key < best:
            best = key
    if best is None:
        return next(t for t in hand if t not in banned)
    return best[2]


class PlayOut:
    """One sampled deal played from a discard to its end. `run` returns the winner or None."""

    def __init__(
        self, seats: tuple[str, ...], sims: dict[str, SimSeat], wall: list[Tile], live: int
    ) -> None:
        self.seats = seats
        self.sims = sims
        self.wall = wall
        self.live = live

    def _next(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def _draw(self, replacement: bool = False) -> Tile | None:
        """The next tile from the wall's front, or a replacement from its back."""
        if self.live <= 0 or not self.wall:
            return None
        self.live -= 1
        return self.wall.pop(0) if replacement else self.wall.pop()

    def _pong(self, seat: str, tile: Tile) -> Tile | None:
        """The throw after ponging `tile`, when a pong lowers `seat`'s shanten; else None."""
        sim = self.sims[seat]
        if sim.hand.count(tile) < 2:
            return None
        now = hand_shanten(tuple(sim.hand), "kaki3")
        rest = _removed(sim.hand, tile, 2)
        throw = greedy_discard(rest, frozenset((tile,)))
        if hand_shanten(tuple(_removed(rest, throw)), "kaki3") >= now:
            return None
        sim.hand = _removed(rest, throw)
        sim.melds = (*sim.melds, Meld("pong", (tile, tile, tile)))
        return throw

    def run(self, discarder: str, tile: Tile) -> tuple[str | None, str | None]:
        """Play on from `discarder` throwing `tile`: (winner, the seat that dealt in)."""
        for _ in range(200):
            last = self.live <= 0
            seat = self._next(discarder)
            for _ in range(len(self.seats) - 1):
                if _wins(seat, self.sims[seat], tile, False, last):
                    return seat, discarder
                seat = self._next(seat)
            seat = self._next(discarder)
            ponged = False
            for _ in range(len(self.seats) - 1):
                throw = self._pong(seat, tile)
                if throw is not None:
                    discarder, tile, ponged = seat, throw, True
                    break
                seat = self._next(seat)
            if ponged:
                continue
            seat = self._next(discarder)
            drawn = self._draw()
            sim = self.sims[seat]
            while drawn is not None and drawn[-1] in "fnac":
                sim.bonus.append(drawn)
                drawn = self._draw(replacement=True)
            if drawn is None:
                return None, None
            insort(sim.hand, drawn)
            if _wins(seat, sim, drawn, True, self.live <= 0):
                return seat, None
            discarder, tile = seat, greedy_discard(sim.hand)
            sim.hand = _removed(sim.hand, tile)
        return None, None


def _pools(view: SeatView) -> tuple[list[Tile], list[Tile]]:
    """The unseen suit, honour and Fei tiles, and the unseen bonus tiles (all in the wall)."""
    hidden = [kind for kind, count in sorted(view.unseen.items()) for _ in range(count)]
    laid = set(view.bonus)
    for opponent in view.opponents:
        laid.update(opponent.bonus)
    return hidden, [tile for tile in BONUS_TILES if tile not in laid]


def rollout_seed(view: SeatView) -> int:
    """A seed fixed by what the seat sees, so the same decision is always made the same way."""
    parts = [view.me, ",".join(view.concealed), str(view.wall_remaining)]
    parts += [",".join(o.discards) for o in view.opponents]
    return zlib.crc32("|".join(parts).encode())


def sample(view: SeatView, rng: random.Random) -> tuple[dict[str, SimSeat], list[Tile]]:
    """Opponents' hands and the wall, drawn at random from what this seat has not seen."""
    hidden, bonus = _pools(view)
    rng.shuffle(hidden)
    sims: dict[str, SimSeat] = {}
    for opponent in view.opponents:
        size = min(opponent.hand_count, len(hidden))
        hand, hidden = hidden[:size], hidden[size:]
        sims[opponent.seat] = SimSeat(sorted(hand), opponent.melds, list(opponent.bonus))
    wall = hidden + bonus
    rng.shuffle(wall)
    return sims, wall


def rollout_wins(
    view: SeatView, candidates: list[Tile], rounds: int
) -> dict[Tile, tuple[int, int]]:
    """For each candidate discard: (play-outs won by this seat, play-outs it dealt in)."""
    rng = random.Random(rollout_seed(view))
    tally = {tile: [0, 0] for tile in candidates}
    for _ in range(rounds):
        sims, wall = sample(view, rng)
        for tile in candidates:
            mine = SimSeat(_removed(sorted(view.concealed), tile), view.melds, list(view.bonus))
            copies = {s: SimSeat(list(x.hand), x.melds, list(x.bonus)) for s, x in sims.items()}
            copies[view.me] = mine
            play = PlayOut(view.seats, copies, list(wall), view.wall_remaining)
            winner, shooter = play.run(view.me, tile)
            if winner == view.me:
                tally[tile][0] += 1
            elif shooter == view.me:
                tally[tile][1] += 1
    return {tile: (won, fed) for tile, (won, fed) in tally.items()}
