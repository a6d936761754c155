"""A reckoned night as the JSON of docs/protocol.md, "Ledgers".

Players appear by number in what is entered and paid (`winner`, `from`, `to`), and by
name in the scores, as a table's results give them.
"""

from __future__ import annotations

from typing import Any

from server.engine.scoring import ScoreResult
from server.engine.settle_up import PointValue, render_text, settle_up
from server.ledger.night import LedgerSetup, Night, ReckonedHand
from server.ledger.reckoning import NotAWinError, Seating


def score_view(score: ScoreResult) -> dict[str, Any]:
    """The engine's score as `mahjong-hall score` prints it (with its layout of sets)."""
    return score.to_json()


def seating_view(setup: LedgerSetup, seating: Seating) -> dict[str, Any]:
    """Who sits where, the dealer and the round wind."""
    return {
        "seats": {seat: seating.player_at(seat) for seat in setup.variant.seats},
        "dealer": seating.dealer,
        "round_wind": seating.round_wind(setup.variant),
    }


def hand_view(setup: LedgerSetup, hand: ReckonedHand) -> dict[str, Any]:
    """One reckoned hand: its entry, seating, score(s), payments, net and running scores."""
    reckoning = hand.reckoning
    winners = [
        {"player": win.player, "seat": win.seat, **score_view(win.score)}
        for win in reckoning.winners
    ]
    first = winners[0] if winners else None
    return {
        "hand_no": hand.hand_no,
        "entry": hand.entry.to_json(),
        "outcome": hand.entry.outcome,
        "valid": True,
        "fan": first["fan"] if first else None,
        "limit": first["limit"] if first else None,
        "patterns": first["patterns"] if first else [],
        "points": first["points"] if first else None,
        "winners": winners,
        **seating_view(setup, hand.seating),
        "min_fan": setup.table_rules.min_fan,
        "payments": [paid.to_json() for paid in reckoning.payments],
        "net": dict(zip(setup.players, hand.net, strict=True)),
        "scores": dict(zip(setup.players, hand.totals, strict=True)),
        "next_dealer": reckoning.next_dealer,
    }


def not_a_win_view(setup: LedgerSetup, error: NotAWinError) -> dict[str, Any]:
    """Why a winner's hand does not win, with the engine's best reading of it."""
    return {
        "hand_no": error.hand_no,
        "valid": False,
        "player": error.player,
        "reason": error.score.reason,
        "min_fan": setup.table_rules.min_fan,
        **{key: value for key, value in score_view(error.score).items() if key != "valid"},
    }


def night_view(night: Night) -> dict[str, Any]:
    """Every hand, the running scores and the coming hand's seating."""
    setup = night.setup
    return {
        "variant": setup.variant.name,
        "players": list(setup.players),
        "rules": setup.table_rules.to_json(),
        "first_round_wind": setup.round_wind,
        "hands": [hand_view(setup, hand) for hand in night.hands],
        "scores": night.balances,
        "next": {"hand_no": len(night.hands) + 1, **seating_view(setup, night.coming)},
    }


def settle_up_view(night: Night, value: PointValue) -> dict[str, Any]:
    """The fewest transfers that square the night, and the English text for a chat."""
    settlement = settle_up(night.balances, value)
    return {**settlement.to_json(), "text": render_text(settlement)}
