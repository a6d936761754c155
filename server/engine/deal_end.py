"""Winning and ending a deal: the win check, the result, the settlement and the next dealer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.deal_result import (
    DealOutcome,
    DealResult,
    DealWinner,
    ResultSet,
    WinnerHand,
)
from server.engine.deal_state import ENDED, DealState, Event
from server.engine.dealership import next_dealer as dealer_after
from server.engine.hand import is_complete
from server.engine.scoring import score_hand
from server.engine.scoring.types import ReadingSet, ScoreResult, WinFlags, WinningHand
from server.engine.settlement import Win, net_scores
from server.engine.tiles import DRAGONS, FEI, Tile, sorted_tiles
from server.engine.variants import KAKI3
from server.engine.win_settlement import SeatShowing, win_settlement


def score_win(
    state: DealState, seat: str, concealed: Sequence[Tile], winning_tile: Tile, flags: WinFlags
) -> tuple[ScoreResult, WinningHand] | None:
    """The score of `seat` winning with `concealed` (winning tile included), if it is a win.

    The shape check runs first so the full scoring runs only for complete hands (callers
    filter with `deal_filters` before this). A win must also reach the minimum fan of the
    table's house rules (`ScoreResult.valid`).
    """
    scored = scored_hand(state, seat, concealed, winning_tile, flags)
    return scored if scored is not None and scored[0].valid else None


def scored_hand(
    state: DealState, seat: str, concealed: Sequence[Tile], winning_tile: Tile, flags: WinFlags
) -> tuple[ScoreResult, WinningHand] | None:
    """The score of `seat`'s hand completed so, whether or not it reaches the table's
    minimum (None when the tiles make no winning shape)."""
    if not is_complete(concealed, state.variant.name):
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
    result: ScoreResult = score_hand(hand, state.settings.rules)
    return result, hand


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
    wins = [
        Win(winner.seat, winner.score.points, winner.shooter, _liable_seat(state, winner))
        for winner in winners
    ]
    settlement = win_settlement(variant, wins, _showing(state), state.settings.rules)
    winner_seats = [winner.seat for winner in winners]
    for winner in winners:
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
        events.append({"type": "payment", **paid.to_json(), "visible_to": None})
    next_dealer = dealer_after(variant, winner_seats, state.last_drawer)
    _end(state, DealOutcome.WIN, [_deal_winner(winner) for winner in winners], next_dealer, events)


def finish_without_winner(state: DealState, events: list[Event], outcome: DealOutcome) -> None:
    """End the deal drawn (wall) or timed out. Payments already made stand."""
    next_dealer = dealer_after(state.variant, (), state.last_drawer)
    _end(state, outcome, [], next_dealer, events)


def _end(
    state: DealState,
    outcome: DealOutcome,
    winners: list[DealWinner],
    next_dealer: str,
    events: list[Event],
) -> None:
    state.phase = ENDED
    state.options = {}
    state.decisions = {}
    state.result = DealResult(
        outcome=outcome,
        winners=tuple(winners),
        payments=tuple(state.payments),
        scores=net_scores(state.seats, state.payments),
        next_dealer=next_dealer,
    )
    events.append(
        {"type": "end", "outcome": outcome, "next_dealer": next_dealer, "visible_to": None}
    )


def _liable_seat(state: DealState, winner: Winner) -> str | None:
    """3 Kaki dragon liability: who threw this winner the third dragon, if anyone."""
    if state.variant.name != KAKI3:
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


def _showing(state: DealState) -> dict[str, SeatShowing]:
    """What each seat shows, as the 3 Kaki settlement after a win counts it."""
    if state.variant.name != KAKI3:
        return {}
    return {
        seat: SeatShowing(tuple(player.bonus), tuple(player.melds), player.fei_count())
        for seat, player in state.players.items()
    }


def _deal_winner(winner: Winner) -> DealWinner:
    hand = winner.hand
    score = winner.score
    return DealWinner(
        seat=winner.seat,
        fan=score.fan,
        limit=score.limit,
        points=score.points,
        patterns=tuple((pattern.id, pattern.fan) for pattern in score.patterns),
        hand=WinnerHand(
            concealed=tuple(sorted_tiles(hand.concealed)),
            sets=tuple(_result_set(reading_set) for reading_set in score.sets),
            melds=tuple(hand.melds),
            bonus=tuple(hand.bonus),
            winning_tile=hand.winning_tile,
            self_drawn=hand.flags.self_drawn,
            shooter=winner.shooter,
        ),
    )


def _result_set(reading_set: ReadingSet) -> ResultSet:
    """One concealed set of the winning reading, shaped like a shown meld.

    `fei_as` is what a Fei in the set stands for (a set's Fei all stand for one tile: a
    chow holds at most one, a pong's or pair's stand for its own tile), else None.
    """
    real = list(reading_set.stands_for)
    for tile in reading_set.tiles:
        if tile != FEI:
            real.remove(tile)
    return ResultSet(reading_set.kind, tuple(reading_set.tiles), real[0] if real else None)
