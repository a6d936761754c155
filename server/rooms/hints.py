"""Hints at a table that allows them (docs/learning.md): the full bot's move for the
asking seat, with its reason, and a record of every move that followed a hint.

A hint answers only the asking connection (the core sends the text this returns), and is
worked out once per decision and seat (asked again, it is the answer already found). The
seat's next move in the deal is then logged with `bot_reason = "hint"` (still
`by_bot = false`: the player made it), and the deal's result tells everyone how many of
each seat's moves followed a hint.
"""

from __future__ import annotations

from typing import Any

from server.bots.hints import hint
from server.engine import view
from server.rooms.messages import encode, error_message

HINT_REASON = "hint"


def answer_hint(room: Any, connection: Any, message_id: Any) -> str:
    """The hint for `connection`'s seat (or the reason there is none), as its text."""
    if not room.settings.hints:
        return error_message("hints_off", "this table does not allow hints", message_id)
    if connection.player_index is None:
        return error_message("spectator", "spectators cannot ask for hints", message_id)
    if not room.seats.holds_seat(connection):
        return error_message("not_seated", "this connection no longer holds the seat", message_id)
    deal = room.deal
    if deal is None or deal.ended:
        return error_message("no_deal", "no deal is in progress", message_id)
    seat = deal.seat_of(connection.player_index)
    legal = room.legal_now(seat) if seat is not None else []
    if seat is None or not legal:
        return error_message("no_decision", "you have no decision to make now", message_id)
    hinted = deal_hints(deal)
    # The same decision has the same answer, so the full bot (milliseconds of the one
    # event loop) runs once per decision and seat: a decision is the deal's state, which
    # only a logged action changes (issue 25, point 2).
    decision = (deal.deal_id, deal.next_log_seq)
    answers: dict[str, tuple[tuple[int, int], dict[str, Any]]] = hinted["answers"]
    known = answers.get(seat)
    if known is not None and known[0] == decision:
        answer = known[1]
    else:
        # The table's own house rules, as its bots play by: a hint at a 0-fan table differs.
        answer = hint(view(deal.state, seat), legal, "full", deal.state.settings.table_rules)
        answers[seat] = (decision, answer)
    hinted["asked"].add(seat)
    return encode({"type": "hint", "id": message_id, "seat": seat, **answer})


def deal_hints(deal: Any) -> dict[str, Any]:
    """The deal's hint record: seats that asked since their last move, counts, and each
    seat's last answer with the decision it answered."""
    record: dict[str, Any] = deal.hints
    return record


def move_reason(deal: Any, seat: str) -> str | None:
    """`"hint"` when `seat` asked for a hint before this move (counted once), else None."""
    record = deal_hints(deal)
    if seat not in record["asked"]:
        return None
    record["asked"].discard(seat)
    record["used"][seat] = record["used"].get(seat, 0) + 1
    return HINT_REASON


def hints_used(deal: Any) -> dict[str, int]:
    """How many moves of each seat followed a hint in this deal."""
    return dict(deal_hints(deal)["used"])
