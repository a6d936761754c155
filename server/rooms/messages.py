"""Building what the room sends: per-seat `state` messages, the `result`, the public room object.

Each change of the table is serialised once per seat (and once for all spectators), then the
same text goes to every connection of that seat, which keeps the fan-out cheap; the parts all
seats share are encoded only once (`StateTexts`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import orjson

from server.engine import Action, legal_actions, own_view, seat_public_view, table_view
from server.rooms.hand_analysis import analysis_text


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
        seat_texts: dict[str, tuple[Any, str]] | None = None,
    ) -> None:
        self.deal_state = deal_state
        self.turn_deadlines = turn_deadlines
        self.can_act = can_act
        self.legal: dict[str, list[Action]] = {}
        self._seat_texts = seat_texts if seat_texts is not None else {}
        shared: dict[str, Any] = {"type": "state", "seq": seq}
        if deal_state is None:
            shared["phase"] = "waiting"
        else:
            shared.update(table_view(deal_state))
        shared["deal_deadline"] = epoch_ms(deal_deadline)
        self._head = encode(shared)[:-1]  # the shared members, the object left open
        if deal_state is not None:
            self._head += f',"players":{{{_players_text(deal_state, self._seat_texts)}}}'

        self._room = room if isinstance(room, str) else encode(room)
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
        tiles = ""
        if seat is not None:
            if self.deal_state is not None:
                tiles = "," + self._own_tiles(seat)
                # issue 18: the seat's own hand analysis (server/rooms/hand_analysis.py)
                tiles += "," + analysis_text(self.deal_state, seat, self._seat_texts, encode)
            own_deadline = self.turn_deadlines.get(seat)
            if own_deadline is not None:
                deadline = epoch_ms(own_deadline)
        own["turn_deadline"] = deadline
        legal = self.legal_for(seat) if seat is not None else []
        return (
            f"{self._head},{encode(own)[1:-1]}{tiles},"
            f'"legal":[{",".join(map(action_text, legal))}],"room":{self._room}}}'
        )

    def _own_tiles(self, seat: str) -> str:
        """`own_view` encoded (without braces); kept per seat while its tiles stay the same
        object and it is not that seat's turn (its forbidden tiles depend on the turn)."""
        state = self.deal_state
        assert state is not None
        if state.phase == "discard" and state.turn == seat:
            return encode(own_view(state, seat))[1:-1]
        player = state.players[seat]
        key = f"own {seat}"
        return _text_while_same(
            self._seat_texts, key, player, lambda _: encode(own_view(state, seat))[1:-1]
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


def _players_text(deal_state: Any, seat_texts: dict[str, tuple[Any, str]]) -> str:
    """The public side of every seat, encoded. A seat's tiles are copied before they change
    (the engine's copy-on-write), so while a seat's object is the same its text is too;
    `seat_texts` keeps the last one per seat (most moves change one seat, a pass none)."""
    parts = []
    for name, player in deal_state.players.items():
        text = _text_while_same(
            seat_texts, name, player, lambda seat: encode(seat_public_view(seat))
        )
        parts.append(f"{encode(name)}:{text}")
    return ",".join(parts)


def _text_while_same(
    texts: dict[str, tuple[Any, str]], key: str, source: Any, build: Callable[[Any], str]
) -> str:
    """The text kept under `key` while it was built from this very `source` object, else
    a fresh `build(source)` (kept in its place)."""
    kept = texts.get(key)
    if kept is None or kept[0] is not source:
        kept = (source, build(source))
        texts[key] = kept
    return kept[1]


@functools.lru_cache(maxsize=8192)
def action_text(action: Action) -> str:
    """An action's wire JSON. Actions are immutable and few (the same discards come up
    all the time), so each is encoded once."""
    return encode(action.to_json())


def encode(value: Any) -> str:
    """Compact JSON text. orjson is several times faster than `json` on these views; it
    writes non-ASCII as UTF-8 rather than `\\u` escapes (the same JSON, and a WebSocket text
    frame is UTF-8 anyway). What orjson refuses and `json` takes (non-string keys, integers
    beyond 64 bits) falls back to `json`, so nothing that encoded before fails now."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def room_json(room: dict[str, Any]) -> str:
    """The room object encoded once for a whole broadcast."""
    return encode(room)


def error_message(code: str, text: str, message_id: Any = None) -> str:
    """The JSON `error` the client gets for a refused message."""
    return encode({"type": "error", "code": code, "message": text, "id": message_id})


def notice_message(code: str, text: str) -> str:
    """A `notice`: news about the table that is not a change of it (no `seq`)."""
    return encode({"type": "notice", "code": code, "message": text})
