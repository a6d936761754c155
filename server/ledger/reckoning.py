"""One hand reckoned: the engine scores the winning hand, then settles every payment.

Nothing here scores or settles by itself. The winning hand goes to the engine's
`score_hand` under the table's house rules, with the seat and round wind the ledger's
seating gives; the payments are the engine's own: `kong_payments` and
`family_payments` for what was paid at once during the hand, then `win_settlement` for
the win (docs/rules.md). This module turns what was entered into those inputs, and
checks first that it can be a hand at this table (`table_checks`).

Payments are listed in this order: kongs, then families, as entered; then the win's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.deal_result import Payment
from server.engine.dealership import next_dealer, seats_after
from server.engine.dealership import round_wind as wind_after_passes
from server.engine.errors import HandError
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring import ScoreResult, WinningHand, normalise_meld, score_hand
from server.engine.settlement import Win, family_payments, kong_payments
from server.engine.tiles import FEI, SEATS, Tile
from server.engine.variants import HK, KAKI3, Variant
from server.engine.win_settlement import SeatShowing, win_settlement
from server.ledger.entries import WIN, HandEntry, LedgerError, WinnerEntry
from server.ledger.table_checks import (
    check_families,
    check_kongs_shown,
    check_liability,
    check_tiles_fit,
    loser_sets,
)

DEALER = "E"


@dataclass(frozen=True)
class Seating:
    """Where each player sits for one hand (`seat_of[player]`), how often the deal has
    passed, and so the round wind."""

    seat_of: tuple[str, ...]
    passes: int

    def player_at(self, seat: str) -> int:
        """The player sitting at `seat`."""
        return self.seat_of.index(seat)

    @property
    def dealer(self) -> int:
        """The player dealing (East)."""
        return self.player_at(DEALER)

    def round_wind(self, variant: Variant) -> str:
        """The hand's round wind."""
        return wind_after_passes(variant, self.passes)

    def after(self, variant: Variant, dealer_seat: str) -> Seating:
        """The next hand's seating, when the player at `dealer_seat` deals it."""
        if dealer_seat == DEALER:
            return self
        return Seating(seats_after(variant, self.seat_of, dealer_seat), self.passes + 1)


@dataclass(frozen=True)
class PlayerPayment:
    """Player `payer` pays player `payee` `points` for `reason` (the engine's reasons)."""

    payer: int
    payee: int
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"from", "to", "points", "reason"}``, players by number."""
        return {"from": self.payer, "to": self.payee, "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class ScoredWin:
    """A winner, the seat they won from, and the engine's score of their hand."""

    player: int
    seat: str
    score: ScoreResult


@dataclass(frozen=True)
class HandReckoning:
    """What one hand comes to: the scored winners, every payment, and who deals next."""

    winners: tuple[ScoredWin, ...]
    payments: tuple[PlayerPayment, ...]
    next_dealer: int


class NotAWinError(LedgerError):
    """The engine scored a winner's hand and it does not win (a shape, or too few fan)."""

    def __init__(self, message: str, player: int, score: ScoreResult) -> None:
        super().__init__(message)
        self.player = player
        self.score = score


@dataclass(frozen=True)
class Table:
    """The ledger's table: its variant, house rules and players' names."""

    variant: Variant
    rules: TableRules | None
    players: tuple[str, ...]


def reckon_hand(table: Table, entry: HandEntry, seating: Seating) -> HandReckoning:
    """Score and settle `entry` at `seating`; `LedgerError` (or `NotAWinError`) when the
    entry cannot be a hand at this table, and nothing else is decided."""
    variant = table.variant
    seat_of = seating.seat_of
    kongs = [
        kong_payments(
            variant,
            seat_of[kong.player],
            kong.kind,
            None if kong.discarder is None else seat_of[kong.discarder],
        )
        for kong in entry.kongs
    ]
    families = [
        family_payments(variant, seat_of[family.player], family.in_deal)
        for family in entry.families
    ]
    during = [paid for group in (*kongs, *families) for paid in group]
    if entry.outcome != WIN:
        check_families(entry, {}, table.players)
        last = None if entry.last_to_draw is None else seat_of[entry.last_to_draw]
        dealer_seat = next_dealer(variant, (), last)
        return HandReckoning((), _by_player(during, seating), seating.player_at(dealer_seat))
    winners = tuple(_scored(table, entry, winner, seating) for winner in entry.winners)
    showing = _check_table(table, entry, seating)
    shooter = None if entry.discarder is None else seat_of[entry.discarder]
    liable = None if entry.liable is None else seat_of[entry.liable]
    wins = [Win(win.seat, win.score.points, shooter, liable) for win in winners]
    settled = win_settlement(variant, wins, showing, table.rules)
    dealer_seat = next_dealer(variant, [win.seat for win in winners], None)
    return HandReckoning(
        winners, _by_player([*during, *settled], seating), seating.player_at(dealer_seat)
    )


def winning_hand(table: Table, winner: WinnerEntry, seating: Seating) -> WinningHand:
    """The engine's input for `winner`'s hand at `seating`."""
    return WinningHand(
        variant=table.variant.name,
        seat_wind=seating.seat_of[winner.player],
        concealed=winner.concealed,
        winning_tile=winner.winning_tile,
        melds=winner.melds,
        bonus=winner.bonus,
        round_wind=seating.round_wind(table.variant),
        flags=winner.flags,
    )


def _scored(table: Table, entry: HandEntry, winner: WinnerEntry, seating: Seating) -> ScoredWin:
    name = table.players[winner.player]
    _check_circumstances(table, entry, winner, seating)
    try:
        score = score_hand(winning_hand(table, winner, seating), table.rules)
    except HandError as error:
        raise LedgerError(f"{name}'s hand: {error}") from None
    if not score.valid:
        raise NotAWinError(f"{name}'s hand is not a win: {score.reason}", winner.player, score)
    return ScoredWin(winner.player, seating.seat_of[winner.player], score)


def _check_circumstances(
    table: Table, entry: HandEntry, winner: WinnerEntry, seating: Seating
) -> None:
    """The plain questions' answers must fit how the hand was won."""
    flags = winner.flags
    name = table.players[winner.player]
    discard = entry.discarder is not None
    refusals = [
        (flags.replacement is not None and discard, "a win on a replacement tile is self-drawn"),
        (
            flags.replacement == "bonus" and table.variant.name == HK,
            "Hong Kong has no bonus tiles to replace",
        ),
        (flags.last_tile and discard, "the last tile of the wall is drawn: a self-draw"),
        (flags.last_discard and not discard, "a win on the last discard has a discarder"),
        (flags.robbing_kong and not discard, "robbing a kong names whose kong was robbed"),
        (
            flags.kong_upon_kong and flags.replacement != "kong",
            "kong upon kong is won on a kong's replacement",
        ),
        (
            flags.heavenly and (discard or seating.dealer != winner.player or winner.melds),
            "a heavenly hand is the dealer's own first fourteen tiles",
        ),
        (
            flags.earthly and (not discard or entry.discarder != seating.dealer),
            "an earthly hand is won on the dealer's first discard",
        ),
    ]
    for refused, why in refusals:
        if refused:
            raise LedgerError(f"{name}'s win: {why}")


def _check_table(table: Table, entry: HandEntry, seating: Seating) -> dict[str, SeatShowing]:
    """Check what the winners and losers entered fits one table; what each seat shows."""
    names = table.players
    winner_players = {winner.player for winner in entry.winners}
    hands: list[tuple[str, Sequence[Tile], Sequence[Tile]]] = []
    fei_held: list[tuple[str, int]] = []
    bonus_of: dict[int, tuple[Tile, ...]] = {}
    showing: dict[str, SeatShowing] = {}
    for winner in entry.winners:
        name = names[winner.player]
        tiles = [*winner.concealed, *(tile for meld in winner.melds for tile in meld.tiles)]
        fei = tiles.count(FEI) + winner.bonus.count(FEI)
        hands.append((name, [t for t in tiles if t != FEI], [t for t in winner.bonus if t != FEI]))
        fei_held.append((name, fei))
        bonus_of[winner.player] = winner.bonus
        check_kongs_shown(name, winner.player, winner.melds, entry.kongs, exact=True)
        showing[seating.seat_of[winner.player]] = SeatShowing(winner.bonus, winner.melds, fei)
    seen: set[int] = set()
    for loser in entry.losers:
        name = names[loser.player]
        if loser.player in winner_players:
            raise LedgerError(f"losers: {name} won this hand")
        if loser.player in seen:
            raise LedgerError(f"losers: {name} is entered twice")
        seen.add(loser.player)
        sets = loser_sets(loser, name)
        playing = [tile for meld in sets for tile in meld.tiles if tile != FEI]
        hands.append((name, playing, [tile for tile in loser.bonus if tile != FEI]))
        fei_held.append((name, loser.fei))
        bonus_of[loser.player] = loser.bonus
        check_kongs_shown(name, loser.player, sets, entry.kongs, exact=False)
        showing[seating.seat_of[loser.player]] = SeatShowing(loser.bonus, sets, loser.fei)
    shared = _shared_winning_tile(entry)
    check_tiles_fit(hands, fei_held, shared)
    check_families(entry, bonus_of, names)
    if entry.liable is not None:
        if entry.liable in winner_players:
            raise LedgerError("liable: a winner pays nobody's share")
        check_liability(names[entry.winners[0].player], _normalised(entry.winners[0].melds))
    if table.variant.name == KAKI3:
        for seat in table.variant.seats:
            showing.setdefault(seat, SeatShowing())
    return showing


def _normalised(melds: Sequence[Meld]) -> tuple[Meld, ...]:
    """Shown sets with each Fei's tile filled in (the engine has already checked them)."""
    return tuple(normalise_meld(meld, KAKI3) for meld in melds)


def _shared_winning_tile(entry: HandEntry) -> tuple[Tile, int] | None:
    """Several winners of one discard each hold it: the same tile, counted once."""
    if len(entry.winners) < 2:
        return None
    tiles = {winner.winning_tile for winner in entry.winners}
    if len(tiles) != 1:
        raise LedgerError("more_winners: every winner wins on the same discard")
    return tiles.pop(), len(entry.winners)


def _by_player(payments: Sequence[Payment], seating: Seating) -> tuple[PlayerPayment, ...]:
    return tuple(
        PlayerPayment(
            seating.player_at(paid.payer), seating.player_at(paid.payee), paid.points, paid.reason
        )
        for paid in payments
    )


def first_seating(variant: Variant, round_wind: str) -> Seating:
    """The first hand's seating: players in order from East, in the given round."""
    passes = SEATS.index(round_wind) * len(variant.seats) if variant.has_wind_rounds else 0
    return Seating(tuple(variant.seats), passes)
