"""A finished deal, step by step with every hand open, and the moments that decided it.

`replay_steps(deal)` takes the stored deal (the dashboard's `deal_breakdown`: variant,
settings, seed, logged actions with who played them and why) and rebuilds it with the
engine, action by action. Every hand is shown: the deal is over. `export_document(deal)`
is the same deal as `mahjong-hall replay` input (docs/learning.md).
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, DealSettings, apply, deal_from_wall, legal_actions, view
from server.engine.deal_state import DealState
from server.engine.hand import shanten
from server.engine.variants import HK, get_variant
from server.engine.wall import shuffled_deal


def dealt(deal: dict[str, Any]) -> tuple[DealSettings, dict[str, list[str]], list[str]]:
    """The deal's settings and its hands and wall, from its seed."""
    settings = DealSettings(
        variant=deal["variant"], round_wind=(deal.get("settings") or {}).get("round_wind", "E")
    )
    if "hands" in deal:  # a fixed deal (a scenario), not a stored one
        return settings, dict(deal["hands"]), list(deal["wall"])
    hands, wall = shuffled_deal(get_variant(settings.variant), int(deal["seed"]))
    return settings, hands, wall


def export_document(deal: dict[str, Any]) -> dict[str, Any]:
    """The deal as `mahjong-hall replay` reads it, with the stored result as `expect`."""
    settings, hands, wall = dealt(deal)
    document: dict[str, Any] = {
        "comment": (
            f"Mahjong Hall room {deal['room_id']}, deal {deal.get('room_deal_no', deal['deal_no'])}"
            f" ({deal.get('ended_at')}): exported from the stored seed and action log"
        ),
        "variant": settings.variant,
        "hands": {seat: " ".join(tiles) for seat, tiles in hands.items()},
        "wall": " ".join(wall),
        "actions": [entry["action"] for entry in deal["actions"]],
    }
    if settings.variant == HK:
        document["round_wind"] = settings.round_wind
    result = deal.get("result") or {}
    document["expect"] = {
        "outcome": result.get("outcome"),
        "winners": [
            {key: winner.get(key) for key in ("seat", "fan", "limit", "points", "patterns")}
            for winner in result.get("winners", [])
        ],
        # A zero payment (a square-up between equal counts) is no payment in the replay.
        "payments": [paid for paid in result.get("payments", []) if paid.get("points")],
        "scores": result.get("scores", {}),
        "next_dealer": result.get("next_dealer"),
    }
    return document


def open_view(state: DealState) -> dict[str, Any]:
    """The table with every hand shown (for a finished deal only)."""
    shown = view(state, None)
    for seat in state.seats:
        own = view(state, seat)
        shown["players"][seat]["hand"] = own["hand"]
        shown["players"][seat]["drawn_tile"] = own["drawn_tile"]
    shown.pop("payments", None)
    return shown


def replay_steps(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """Step 0 is the deal as dealt; step i the table after logged action i - 1, with that
    action, who played it, and the review marks of that moment."""
    settings, hands, wall = dealt(deal)
    state = deal_from_wall(settings, hands, wall)
    bots = {player["seat"] for player in deal.get("players", []) if player.get("is_bot")}
    steps: list[dict[str, Any]] = [
        {"index": 0, "action": None, "view": open_view(state), "marks": []}
    ]
    ready: set[str] = set()
    offered_at = 0  # the step of the last discard (or added kong) others could win on
    for index, entry in enumerate(deal["actions"], start=1):
        action = Action.from_json(entry["action"])
        seat = action.seat
        marks: list[dict[str, Any]] = []
        could_win = seat is not None and Action("win", seat) in legal_actions(state, seat)
        if could_win and action.type != "win":
            marks.append({"kind": "win_passed_up", "seat": seat})
        before = state
        state, events = apply(state, action)
        if entry.get("by_bot") and seat is not None and seat not in bots:
            marks.append({"kind": "bot_stood_in", "seat": seat, "reason": entry.get("bot_reason")})
        if entry.get("bot_reason") == "hint":
            marks.append({"kind": "hint_used", "seat": seat})
        if action.type in ("discard", "added_kong"):
            offered_at = index
        if action.type == "sink" and seat is not None:
            marks.append(
                {
                    "kind": "fei_sunk",
                    "seat": seat,
                    "steps_before": _steps(before, seat),
                    "steps_after": _steps(state, seat),
                }
            )
        for liable, thrower in state.liable_for.items():
            if before.liable_for.get(liable) != thrower:
                marks.append({"kind": "liability", "seat": thrower, "for": liable})
        for event in events:
            if event["type"] == "win" and event.get("from") is not None:
                steps[offered_at]["marks"].append(
                    {"kind": "winning_discard", "seat": event["from"], "winner": event["seat"]}
                )
            liable_now = event["type"] == "payment" and event["reason"] == "liability"
            if liable_now and before.liable_for.get(event["to"]) != event["from"]:
                # Liable by throwing the third dragon itself: the throw is the moment.
                steps[offered_at]["marks"].append(
                    {"kind": "liability", "seat": event["from"], "for": event["to"]}
                )
        for player_seat in state.seats:
            concealed = state.players[player_seat].hand
            if player_seat in ready or state.is_over or len(concealed) % 3 != 1:
                continue
            if shanten(concealed, settings.variant) == 0:
                ready.add(player_seat)
                marks.append({"kind": "ready", "seat": player_seat})
        steps.append(
            {
                "index": index,
                "action": entry["action"],
                "seat": seat,
                "by_bot": bool(entry.get("by_bot")),
                "bot_reason": entry.get("bot_reason"),
                "view": open_view(state),
                "marks": marks,
            }
        )
    _judge_sinks(steps, state)
    return steps


def _judge_sinks(steps: list[dict[str, Any]], final: DealState) -> None:
    """Whether each sunk Fei helped: the seat went on to win, or the replacement left its
    hand fewer tiles from ready than before the sink."""
    winners = set(final.result.winner_seats) if final.result is not None else set()
    for step in steps:
        for mark in step["marks"]:
            if mark["kind"] == "fei_sunk":
                closer = mark["steps_after"] < mark["steps_before"]
                mark["helped"] = mark["seat"] in winners or closer


def _steps(state: DealState, seat: str) -> int:
    return shanten(state.players[seat].hand, state.variant.name)
