"""Building what the room sends: per-seat `state` messages, the `result`, the public room object.

Each change of the table is serialised once per seat (and once for all spectators), then the
same text goes to every connection of that seat, which keeps the fan-out cheap.
"""

from __future__ import annotations

import json
from typing import Any

from server.engine import legal_actions, view


def epoch_ms(moment: float | None) -> int | None:
    """Epoch seconds to the wire's epoch milliseconds."""
    return None if moment is None else int(round(moment * 1000))


def state_message(
    *,
    seq: int,
    deal_state: Any | None,
    seat: str | None,
    turn_deadlines: dict[str, float],
    deal_deadline: float | None,
    room: dict[str, Any] | str,
    can_act: bool = True,
) -> str:
    """The JSON `state` for one seat (`seat=None`: a spectator) at `seq`.

    `room` may come already serialised (`room_json`): it is the same for every seat, so a
    broadcast encodes it once. `can_act` is false when the seat may not act now (e.g. a
    closed room); its `legal` is then empty.
    """
    message: dict[str, Any] = {"type": "state", "seq": seq}
    if deal_state is None:
        message["phase"] = "waiting"
        legal: list[dict[str, Any]] = []
    else:
        message.update(view(deal_state, seat))
        legal = (
            [action.to_json() for action in legal_actions(deal_state, seat)]
            if seat is not None and can_act
            else []
        )
    message["legal"] = legal
    own_deadline = turn_deadlines.get(seat) if seat is not None else None
    if own_deadline is None and turn_deadlines:
        own_deadline = min(turn_deadlines.values())
    message["turn_deadline"] = epoch_ms(own_deadline)
    message["deal_deadline"] = epoch_ms(deal_deadline)
    if isinstance(room, dict):
        message["room"] = room
        return json.dumps(message, separators=(",", ":"))
    # Splice the shared room text in as the last field instead of re-encoding it per seat.
    return json.dumps(message, separators=(",", ":"))[:-1] + ',"room":' + room + "}"


def room_json(room: dict[str, Any]) -> str:
    """The room object encoded once for a whole broadcast."""
    return json.dumps(room, separators=(",", ":"))


def error_message(code: str, text: str, message_id: Any = None) -> str:
    """The JSON `error` the client gets for a refused message."""
    return json.dumps({"type": "error", "code": code, "message": text, "id": message_id})
