"""Winning and ending a deal: the win check, the result, the settlement and the next dealer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from server.engine.deal_state import ENDED, DealState, Event, Payment
from server.engine.hand import is_complete
from server.engine.scoring import score_hand
from server.engine.scoring.kaki3 import complete_families, honour_set_fan, scoring_bonus_count
from server.engine.scoring.types import ScoreResult, WinFlags, WinningHand
from server.engine.settlement import (
    Win,
    extra_fei_payments,
    hk_win_payments,
    kaki3_win_payments,
    net_scores,
    square_up_payments,
)
from server.engine.tiles import DRAGONS, FEI, Tile, is_honour, is_terminal, sorted_tiles

_KINDS = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(f"{r}z" for r in range(1, 8))
_ORPHANS = frozenset(tile for tile in _KINDS if is_terminal(tile) or is_honour(tile))


# Each tile as a number: neighbours in a suit differ by 1, while different suits and
# different honours lie at least 4 apart, so "within two ranks" is "codes within 2".
_CODE: dict[Tile, int] = {
    tile: (20 * "mpsz".index(tile[1]) + (4 if tile[1] == "z" else 1) * int(tile[0]))
    for tile in _KINDS
}


def score_win(
    state: DealState, seat: str, concealed: Sequence[Tile], winning_tile: Tile, flags: WinFlags
) -> tuple[ScoreResult, WinningHand] | None:
    """The score of `seat` winning with `concealed` (winning tile included), if it is a win.

    The cheap shape check runs first so the full scoring runs only for complete hands.
    A win must also reach the table's minimum fan (`ScoreResult.valid`).
    """
    if not could_be_complete(concealed) or not is_complete(concealed, state.variant.name):
        return None
    player = state.players[seat]
    hand = WinningHand(
        variant=state.variant.name,
        seat_wind=seat,
        concealed=tuple(concealed),
        winning_tile=winning_tile,
        melds=tuple(player.melds),
        bonus=tuple(player.bonus),
        round_wind=state.settings.round_wind,
        flags=flags,
    )
    result: ScoreResult = score_hand(hand)
    return (result, hand) if result.valid else None


def isolated_count(concealed: Sequence[Tile]) -> tuple[int, int]:
    """(isolated tiles, Fei) of a hand, for the quick win filters below.

    A tile is isolated when held once with no tile of its suit within two ranks (an
    honour held once). In a winning shape each isolated tile needs a Fei of its own.
    """
    codes = sorted([_CODE[tile] for tile in concealed if tile != FEI])
    last = len(codes) - 1
    isolated = 0
    for index, code in enumerate(codes):
        if index > 0 and code - codes[index - 1] <= 2:
            continue
        if index < last and codes[index + 1] - code <= 2:
            continue
        isolated += 1
    return isolated, len(concealed) - len(codes)


# A thirteen orphans hand, or one tile short of it, has at least 11 isolated tiles.
_ORPHAN_HAND_ISOLATED = 11


def _orphans_only(concealed: Sequence[Tile]) -> bool:
    return all(tile in _ORPHANS for tile in concealed if tile != FEI)


def could_be_complete(concealed: Sequence[Tile]) -> bool:
    """A quick necessary condition for a winning shape, so most hands skip the full check.

    Thirteen orphans is all isolated tiles, so hands of only terminals and honours always
    go on to the full check.
    """
    isolated, fei = isolated_count(concealed)
    return isolated <= fei or (isolated >= _ORPHAN_HAND_ISOLATED and _orphans_only(concealed))


@lru_cache(maxsize=4096)
def cannot_win_on_any_tile(hand: tuple[Tile, ...]) -> bool:
    """True when no single added tile can complete `hand` (cached: hands repeat a lot).

    One added tile rescues at most two isolated tiles, one on each side of it.
    """
    isolated, fei = isolated_count(hand)
    return isolated - 2 > fei and not (isolated >= _ORPHAN_HAND_ISOLATED and _orphans_only(hand))


def self_draw_flags(state: DealState, seat: str) -> WinFlags:
    """How a self-drawn win of the player to act would be won, from what happened."""
    return WinFlags(
        self_drawn=True,
        replacement=state.replacement,
        last_tile=state.drew_last_tile,
        heavenly=seat == "E" and state.discard_count == 0 and state.replacement is None,
        kong_upon_kong=state.replacement == "kong" and state.kongs_this_turn >= 2,
    )


def discard_flags(state: DealState, discarder: str, robbing: bool) -> WinFlags:
    """How a win on the last discard (or on a robbed kong) would be won."""
    if robbing:
        return WinFlags(robbing_kong=True)
    return WinFlags(
        last_discard=state.wall_remaining <= 0,
        earthly=discarder == "E" and state.discard_count == 1,
    )


def shows_two_other_dragons(state: DealState, seat: str, dragon: Tile) -> bool:
    """True when `seat` shows sets of both dragons other than `dragon` (liability)."""
    shown = {meld.base_tile for meld in state.players[seat].melds if meld.kind != "chow"}
    return all(other in shown for other in DRAGONS if other != dragon)


@dataclass(frozen=True)
class Winner:
    """A seat that won, with its scored hand and who pays."""

    seat: str
    score: ScoreResult
    hand: WinningHand
    shooter: str | None


def finish_with_winners(state: DealState, winners: Sequence[Winner], events: list[Event]) -> None:
    """End the deal with these winners: settle, record the result, choose the next dealer."""
    variant = state.variant
    settlement: list[Payment] = []
    for winner in winners:
        win = Win(winner.seat, winner.score.points, winner.shooter, _liable_seat(state, winner))
        if variant.name == "kaki3":
            settlement += kaki3_win_payments(variant, win)
            settlement += _kaki3_after_win_payments(state, winner.seat)
        else:
            settlement += hk_win_payments(variant, win)
        events.append(
            {
                "type": "win",
                "seat": winner.seat,
                "from": winner.shooter,
                "tile": winner.hand.winning_tile,
                "fan": winner.score.fan,
                "visible_to": None,
            }
        )
    for paid in settlement:
        state.payments.append(paid)
        events.append({"type": "payment", **paid, "visible_to": None})
    winner_seats = [winner.seat for winner in winners]
    if variant.winner_deals_next:
        next_dealer = winner_seats[0]
    else:
        next_dealer = "E" if "E" in winner_seats else variant.next_seat("E")
    _end(state, "win", [_winner_json(winner) for winner in winners], next_dealer, events)


def finish_without_winner(state: DealState, events: list[Event], outcome: str) -> None:
    """End the deal drawn (wall) or timed out. Payments already made stand."""
    next_dealer = state.last_drawer if state.variant.winner_deals_next else "E"
    _end(state, outcome, [], next_dealer, events)


def _end(
    state: DealState,
    outcome: str,
    winners: list[dict[str, Any]],
    next_dealer: str,
    events: list[Event],
) -> None:
    state.phase = ENDED
    state.options = {}
    state.decisions = {}
    state.result = {
        "outcome": outcome,
        "winners": winners,
        "payments": list(state.payments),
        "scores": net_scores(state.seats, state.payments),
        "next_dealer": next_dealer,
    }
    events.append(
        {"type": "end", "outcome": outcome, "next_dealer": next_dealer, "visible_to": None}
    )


def _liable_seat(state: DealState, winner: Winner) -> str | None:
    """3 Kaki dragon liability: who threw this winner the third dragon, if anyone."""
    if state.variant.name != "kaki3":
        return None
    tile = winner.hand.winning_tile
    if (
        winner.shooter is not None
        and state.robbed_kong is None
        and tile in DRAGONS
        and shows_two_other_dragons(state, winner.seat, tile)
    ):
        return winner.shooter
    return state.liable_for.get(winner.seat)


def _kaki3_after_win_payments(state: DealState, winner: str) -> list[Payment]:
    """Extra Fei, then the two losers square up."""
    fei_counts = {seat: state.players[seat].fei_count() for seat in state.seats}
    payments = extra_fei_payments(winner, fei_counts)
    losers = [seat for seat in state.seats if seat != winner]
    counts: dict[str, int] = {}
    for loser in losers:
        player = state.players[loser]
        bonus = tuple(player.bonus)
        counts[loser] = (
            int(scoring_bonus_count(loser, bonus))
            + len(complete_families(bonus))
            + int(honour_set_fan(loser, tuple(player.melds)))
            + 2 * fei_counts[loser]
        )
    return payments + square_up_payments(losers, counts)


def _winner_json(winner: Winner) -> dict[str, Any]:
    hand = winner.hand
    return {
        "seat": winner.seat,
        "fan": winner.score.fan,
        "limit": winner.score.limit,
        "points": winner.score.points,
        "patterns": [{"id": pattern.id, "fan": pattern.fan} for pattern in winner.score.patterns],
        "hand": {
            "concealed": sorted_tiles(hand.concealed),
            "melds": [meld.to_json() for meld in hand.melds],
            "bonus": list(hand.bonus),
            "winning_tile": hand.winning_tile,
            "self_drawn": hand.flags.self_drawn,
            "from": winner.shooter,
        },
    }
