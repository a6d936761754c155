"""Building what the room sends: per-seat `state` messages, the `result`, the public room object.

Each change of the table is serialised once per seat (and once for all spectators), then the
same text goes to every connection of that seat, which keeps the fan-out cheap; the parts all
seats share are encoded only once (`StateTexts`).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from server.engine import Action, legal_actions, own_view, public_view


def epoch_ms(moment: float | None) -> int | None:
    """Epoch seconds to the wire's epoch milliseconds."""
    return None if moment is None else int(round(moment * 1000))


class StateTexts:
    """The `state` messages of one table version (one `seq`), for every seat and spectators.

    What all connections share (the public table, the room, the deal deadline) is encoded
    once; each seat then adds only its own tiles, its `legal` and its turn deadline. The
    texts are spliced from encoded parts rather than re-encoding the whole view per seat.
    `legal` keeps each seat's legal actions, so the room can check an incoming action
    against the very list it sent instead of working it out again.
    """

    def __init__(
        self,
        *,
        seq: int,
        deal_state: Any | None,
        turn_deadlines: dict[str, float],
        deal_deadline: float | None,
        room: dict[str, Any] | str,
        can_act: bool = True,
    ) -> None:
        self.deal_state = deal_state
        self.turn_deadlines = turn_deadlines
        self.can_act = can_act
        self.legal: dict[str, list[Action]] = {}
        shared: dict[str, Any] = {"type": "state", "seq": seq}
        if deal_state is None:
            shared["phase"] = "waiting"
        else:
            shared.update(public_view(deal_state))
        shared["deal_deadline"] = epoch_ms(deal_deadline)
        self._head = _dumps(shared)[:-1]  # the shared members, the object left open
        self._room = room if isinstance(room, str) else _dumps(room)
        self._any_deadline = epoch_ms(min(turn_deadlines.values())) if turn_deadlines else None

    def legal_for(self, seat: str) -> list[Action]:
        """`seat`'s legal actions in this version (empty when it may not act now)."""
        legal = self.legal.get(seat)
        if legal is None:
            state = self.deal_state
            legal = legal_actions(state, seat) if state is not None and self.can_act else []
            self.legal[seat] = legal
        return legal

    def text_for(self, seat: str | None) -> str:
        """The `state` for `seat` (`None`: a spectator)."""
        own: dict[str, Any] = {"me": seat}
        deadline = self._any_deadline
        if seat is not None:
            if self.deal_state is not None:
                own.update(own_view(self.deal_state, seat))
            own_deadline = self.turn_deadlines.get(seat)
            if own_deadline is not None:
                deadline = epoch_ms(own_deadline)
        own["turn_deadline"] = deadline
        legal = self.legal_for(seat) if seat is not None else []
        return (
            f"{self._head},{_dumps(own)[1:-1]},"
            f'"legal":[{",".join(map(action_text, legal))}],"room":{self._room}}}'
        )


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

    `can_act` is false when the seat may not act now (e.g. a closed room); its `legal` is
    then empty. A broadcast uses `StateTexts` directly, to share the work between seats.
    """
    texts = StateTexts(
        seq=seq,
        deal_state=deal_state,
        turn_deadlines=turn_deadlines,
        deal_deadline=deal_deadline,
        room=room,
        can_act=can_act,
    )
    return texts.text_for(seat)


@functools.lru_cache(maxsize=8192)
def action_text(action: Action) -> str:
    """An action's wire JSON. Actions are immutable and few (the same discards come up
    all the time), so each is encoded once."""
    return _dumps(action.to_json())


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def room_json(room: dict[str, Any]) -> str:
    """The room object encoded once for a whole broadcast."""
    return _dumps(room)


def error_message(code: str, text: str, message_id: Any = None) -> str:
    """The JSON `error` the client gets for a refused message."""
    return json.dumps({"type": "error", "code": code, "message": text, "id": message_id})
