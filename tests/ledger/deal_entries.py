"""A deal played by the engine, told to the ledger as a player at a real table would.

`play_scenario` replays a golden deal of tests/scenarios/ (with the replay command's
implied passes), `play_bot_deal` plays a bots-only deal; both keep the deal's first
state (after the bonus tiles are laid out), the state just before it ended, the last
state, and every event. `entry_json` then writes the hand as the ledger takes it: the
winning hand and how it was won, the losers' tiles as they stood at the end, who was
liable, the kongs made and the families completed, each player named by the number
`player_at[seat]` gives them in the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.bots import choose_action
from server.engine import (
    Action,
    DealSettings,
    DealState,
    apply,
    deal_from_wall,
    format_tiles,
    legal_actions,
    new_deal,
    pending_seats,
    view,
)
from server.engine.deal_end import discard_flags, self_draw_flags, shows_two_other_dragons
from server.engine.deal_result import DealOutcome, DealResult
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring import WinFlags
from server.engine.scoring.kaki3 import complete_families
from server.engine.tiles import DRAGONS, is_honour
from server.engine.variants import KAKI3

QUESTIONS = ("last_tile", "last_discard", "robbing_kong", "heavenly", "earthly", "kong_upon_kong")


@dataclass
class PlayedDeal:
    """A finished deal: its first and last states, the state before its end, its events."""

    start: DealState
    before_end: DealState
    end: DealState
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def result(self) -> DealResult:
        assert self.end.result is not None
        return self.end.result


class _Recorder:
    def __init__(self, start: DealState) -> None:
        self.start = self.state = self.previous = start
        self.events: list[dict[str, Any]] = []

    def apply(self, action: Action) -> None:
        self.previous = self.state
        self.state, events = apply(self.state, action)
        self.events += events

    def played(self) -> PlayedDeal:
        return PlayedDeal(self.start, self.previous, self.state, self.events)


def settings_of(document: Mapping[str, Any]) -> DealSettings:
    rules = document.get("rules")
    variant = document["variant"]
    return DealSettings(
        variant=variant,
        round_wind=document.get("round_wind", "E"),
        rules=None if rules is None else TableRules.from_json(rules, variant),
    )


def play_scenario(document: Mapping[str, Any]) -> PlayedDeal | None:
    """Replay a scenario as `mahjong-hall replay` does; None when it does not end."""
    recorder = _Recorder(deal_from_wall(settings_of(document), document["hands"], document["wall"]))
    for raw in document["actions"]:
        action = Action.from_json(raw)
        state = recorder.state
        window = state.phase in ("claim", "rob")
        deciding = action.type in ("chow", "pong", "kong", "pass") or (
            action.type == "win" and action.seat in pending_seats(state)
        )
        if window and action.type != "timeout" and not deciding:
            _pass_window(recorder)
        recorder.apply(action)
    if recorder.state.result is None:
        _pass_window(recorder)
    return recorder.played() if recorder.state.result is not None else None


def _pass_window(recorder: _Recorder) -> None:
    while recorder.state.result is None and recorder.state.phase in ("claim", "rob"):
        recorder.apply(Action("pass", pending_seats(recorder.state)[0]))


def play_bot_deal(variant: str, seed: str, rules: TableRules | None = None) -> PlayedDeal:
    """A deal the full bots play to its end from `seed`'s shuffle."""
    recorder = _Recorder(new_deal(DealSettings(variant=variant, rules=rules), seed))
    while recorder.state.result is None:
        seat = pending_seats(recorder.state)[0]
        legal = legal_actions(recorder.state, seat)
        recorder.apply(choose_action(view(recorder.state, seat), legal, "full", rules))
    return recorder.played()


def meld_json(meld: Meld) -> dict[str, Any]:
    """A set as the ledger takes it: kind, tiles, concealed, and what a Fei stands for."""
    obj: dict[str, Any] = {"kind": meld.kind, "tiles": format_tiles(meld.tiles)}
    if meld.concealed:
        obj["concealed"] = True
    if meld.fei_as is not None:
        obj["fei_as"] = meld.fei_as
    return obj


def _flags_json(flags: WinFlags) -> dict[str, Any]:
    answers: dict[str, Any] = {name: True for name in QUESTIONS if getattr(flags, name)}
    if flags.replacement is not None:
        answers["replacement"] = flags.replacement
    return answers


def _winner_hand(deal: PlayedDeal, seat: str) -> dict[str, Any]:
    winner = next(w for w in deal.result.winners if w.seat == seat)
    hand = winner.hand
    before = deal.before_end
    if hand.shooter is None:
        flags = self_draw_flags(before, seat)
    else:
        flags = discard_flags(before, hand.shooter, robbing=before.phase == "rob")
    return {
        "concealed": format_tiles(hand.concealed),
        "melds": [meld_json(meld) for meld in hand.melds],
        "bonus": format_tiles(hand.bonus),
        "winning_tile": hand.winning_tile,
        "win": _flags_json(flags),
    }


def _liable(deal: PlayedDeal, seat: str) -> str | None:
    """Who threw the winner the third dragon: on the winning tile, or claimed before."""
    hand = next(w for w in deal.result.winners if w.seat == seat).hand
    robbed = deal.before_end.phase == "rob"
    tile = hand.winning_tile
    if (
        hand.shooter is not None
        and not robbed
        and tile in DRAGONS
        and shows_two_other_dragons(deal.end, seat, tile)
    ):
        return hand.shooter
    return deal.end.liable_for.get(seat)


def _kongs(deal: PlayedDeal, player_at: Mapping[str, int]) -> list[dict[str, Any]]:
    kongs = []
    for event in deal.events:
        if event["type"] == "claim" and event["meld"]["kind"] == "kong":
            kongs.append(
                {
                    "player": player_at[event["seat"]],
                    "kind": "exposed",
                    "from": player_at[event["from"]],
                }
            )
        elif event["type"] == "kong":
            kongs.append({"player": player_at[event["seat"]], "kind": event["kind"]})
    return kongs


def _families(deal: PlayedDeal, player_at: Mapping[str, int]) -> list[dict[str, Any]]:
    families = []
    for seat in deal.end.seats:
        in_deal = set(complete_families(deal.start.players[seat].bonus))
        for family in complete_families(deal.end.players[seat].bonus):
            families.append(
                {"player": player_at[seat], "family": family, "in_deal": family in in_deal}
            )
    return families


def entry_json(deal: PlayedDeal, player_at: Mapping[str, int]) -> dict[str, Any]:
    """The hand as the ledger takes it (docs/protocol.md, "Ledgers")."""
    result = deal.result
    kaki3 = deal.end.variant.name == KAKI3
    entry: dict[str, Any] = {}
    if result.outcome != DealOutcome.WIN:
        entry["outcome"] = "draw"
        if kaki3:
            entry["last_to_draw"] = player_at[deal.end.last_drawer]
    else:
        first, *more = result.winners
        shooter = first.hand.shooter
        entry["outcome"] = "win"
        entry["winner"] = player_at[first.seat]
        entry["discarder"] = None if shooter is None else player_at[shooter]
        entry["hand"] = _winner_hand(deal, first.seat)
        if more:
            entry["more_winners"] = [
                {"winner": player_at[w.seat], "hand": _winner_hand(deal, w.seat)} for w in more
            ]
        if kaki3:
            entry["losers"] = [
                {
                    "player": player_at[seat],
                    "bonus": format_tiles(deal.end.players[seat].bonus),
                    "sets": [
                        meld_json(meld)
                        for meld in deal.end.players[seat].melds
                        if meld.kind != "chow" and is_honour(meld.base_tile)
                    ],
                    "fei": deal.end.players[seat].fei_count(),
                }
                for seat in deal.end.seats
                if seat != first.seat
            ]
            liable = _liable(deal, first.seat)
            if liable is not None:
                entry["liable"] = player_at[liable]
    kongs = _kongs(deal, player_at)
    if kongs:
        entry["kongs"] = kongs
    families = _families(deal, player_at) if kaki3 else []
    if families:
        entry["families"] = families
    return entry


def seat_payments(result: DealResult) -> list[tuple[str, str, int, str]]:
    """The deal's payments, sorted, as (from, to, points, reason)."""
    return sorted((p.payer, p.payee, p.points, p.reason) for p in result.payments)
