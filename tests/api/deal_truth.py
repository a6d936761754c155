"""The engine's true deal, rebuilt from the server's database, to check what clients were sent."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from server.engine import Action, DealSettings, apply, new_deal, view
from server.engine.analysis import analyse

# Fields of a `state` message that are not part of the engine view, or differ per seat by design.
NOT_VIEW = ("type", "seq", "legal", "turn_deadline", "deal_deadline", "room", "analysis")
OWN_ONLY = ("hand", "drawn_tile", "forbidden")
PUBLIC_SEAT_FIELDS = {"hand_count", "melds", "discards", "bonus", "drawn"}


def logged_deals(database: Path, room_id: str) -> list[dict[str, Any]]:
    """Every deal of the room with its seed, settings, seating and action log, in order."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT deal_id, deal_no, seed, settings, seat_players, result FROM deals WHERE room_id = ? ORDER BY deal_no",
            (room_id,),
        ).fetchall()
        deals = []
        for deal_id, deal_no, seed, settings, seat_players, result in rows:
            actions = db.execute(
                "SELECT action, by_bot FROM deal_actions WHERE deal_id = ? ORDER BY seq",
                (deal_id,),
            ).fetchall()
            deals.append(
                {
                    "deal_no": deal_no,
                    "seed": int(seed),
                    "settings": json.loads(settings),
                    "seat_players": json.loads(seat_players),
                    "result": json.loads(result) if result else None,
                    "actions": [json.loads(action) for action, _ in actions],
                    "by_bot": [bool(by_bot) for _, by_bot in actions],
                }
            )
    return deals


def true_states(deal: dict[str, Any]) -> list[Any]:
    """The engine state after each logged action (the first is the fresh deal)."""
    settings = DealSettings(
        variant=deal["settings"]["variant"], round_wind=deal["settings"].get("round_wind", "E")
    )
    state = new_deal(settings, deal["seed"])
    states = [state]
    for action in deal["actions"]:
        state, _ = apply(state, Action.from_json(action))
        states.append(state)
    return states


def view_part(message: dict[str, Any]) -> dict[str, Any]:
    """The engine-view fields of a `state` message."""
    return {key: value for key, value in message.items() if key not in NOT_VIEW}


def check_messages_against_truth(
    messages: list[dict[str, Any]], seat: str | None, states: list[Any]
) -> int:
    """Assert every in-deal `state` equals the engine's own view for `seat` at some point of the
    true deal, and that no other seat's concealed tiles appear. Returns how many were checked."""
    truths = [view(state, seat) for state in states]
    # The house rules travel with the room object, not with every move's view.
    rules = [state.settings.table_rules.to_json() for state in states]
    checked = 0
    for message in messages:
        if message["type"] != "state" or message.get("phase") == "waiting":
            continue
        assert message["room"]["rules"] in rules, f"seq {message['seq']}: not the deal's rules"
        part = view_part(message)
        assert part in truths, (
            f"seq {message['seq']}: the message is no view of the true deal for {seat}"
        )
        # A seat's own analysis is the engine's, worked out from that very view.
        if seat is None:
            assert "analysis" not in message
        else:
            at = truths.index(part)
            assert message["analysis"] == analyse(truths[at], states[at].settings.table_rules)
        for other, public in part["players"].items():
            assert set(public) <= PUBLIC_SEAT_FIELDS, f"seat {other} shows more than public fields"
        if seat is None:
            assert not any(key in part for key in OWN_ONLY)
        checked += 1
    return checked
