"""A removed player's token in the room core, with no event loop (issue 25, point 1).

The socket checks a token at the handshake, but its `Connect` reaches the room later, and
the host's `remove_player` may be handled in between. Whatever the order, the core itself
decides: a `Connect` whose token is not the seat's token now never attaches the seat, and
no link that does not hold the seat gets a hand, acts, asks for a hint, a pause or the
next deal.
"""

from __future__ import annotations

import json
from typing import Any

from server.rooms import commands as cmd
from server.rooms.effects import Close, Effect, LogAction, Send
from tests.rooms.core.core_table import CoreTable, Link, make_table, sent_to
from tests.rooms.core.test_core_play import first_discard

CLOSE_UNKNOWN_TOKEN = 4401
CLOSE_REMOVED = 4411


def _table_of_two() -> tuple[CoreTable, Link, Link, str]:
    """HK with hints: Ana (host, East) and Bo (South) connected, two bots, the deal dealt;
    also Bo's token."""
    table = make_table("hk", hints=True, bot_delay=0.5)
    ana_seat = table.ask(lambda answer: cmd.Join(name="Ana", reply=answer))
    bo_seat = table.ask(lambda answer: cmd.Join(name="Bo", reply=answer))
    ana, bo = Link(0), Link(1)
    table.handle(cmd.Connect(ana, ana_seat["token"]))
    table.handle(cmd.Connect(bo, bo_seat["token"]))
    table.ask(lambda answer: cmd.AddBots(reply=answer))
    deal = table.room.deal
    assert deal is not None and deal.seat_of(0) == "E" and deal.seat_of(1) == "S"
    return table, ana, bo, bo_seat["token"]


def _remove_bo(table: CoreTable, ana: Link) -> list[Effect]:
    return table.handle(cmd.HostCommand(ana, "remove_player", {"player_index": 1}, "r"))


def _anything_for(effects: list[Effect], link: Link) -> list[dict[str, Any]]:
    return sent_to(effects, link)


def _requests(link: Link, action: Any) -> list[cmd.Command]:
    """Every request a player may send over a socket."""
    return [
        cmd.PlayerAction(link, action, "a"),
        cmd.HintRequest(link, "h"),
        cmd.HostCommand(link, "pause", {}, "p"),
        cmd.HostCommand(link, "resume", {}, "q"),
        cmd.NextDealReady(link, "n"),
    ]


def _assert_refused_everything(table: CoreTable, link: Link) -> None:
    """Each request from `link` is answered with an error and nothing else: no write, no
    hint, no hand, no host event."""
    room = table.room
    events = len(room.host.events)
    writes = len(table.writes)
    seq = room.seq
    # South's turn comes after East's discard; whatever South could do, the link may not.
    legal = room.legal_now("S")
    action = legal[0].to_json() if legal else {"type": "pass"}
    for request in _requests(link, action):
        effects = table.handle(request)
        answers = _anything_for(effects, link)
        assert [message["type"] for message in answers] == ["error"], (request, answers)
        assert not any(isinstance(e, Send) and link not in e.to for e in effects), request
    assert len(table.writes) == writes and room.seq == seq
    assert len(room.host.events) == events


def test_a_connect_queued_behind_the_removal_never_attaches_the_seat():
    table, ana, bo, bo_token = _table_of_two()
    room = table.room
    _remove_bo(table, ana)
    assert room.players[1].is_bot and room.is_covered(1)

    # The socket checked Bo's token before the removal; its `Connect` comes after it.
    late = Link(1)
    effects = table.handle(cmd.Connect(late, bo_token))
    closes = [e for e in effects if isinstance(e, Close)]
    assert [(c.connection, c.code) for c in closes] == [(late, CLOSE_UNKNOWN_TOKEN)]
    assert _anything_for(effects, late) == [], "not one state: no hand, no legal"
    assert 1 not in room.player_connections and room.is_covered(1)
    assert room.snapshot().players[1].bot_covered

    # The table plays on: Ana discards, and the late link hears nothing of it.
    effects = table.handle(cmd.PlayerAction(ana, first_discard(table), "d"))
    assert any(isinstance(w, LogAction) and w.seat == "E" for w in table.writes)
    assert _anything_for(effects, late) == []
    _assert_refused_everything(table, late)


def test_the_old_link_of_a_removed_player_is_refused_everything_it_still_sends():
    table, ana, bo, _ = _table_of_two()
    effects = _remove_bo(table, ana)
    assert any(
        isinstance(e, Close) and e.connection is bo and e.code == CLOSE_REMOVED for e in effects
    )
    # Its close is on the way; meanwhile its frames still reach the room.
    table.handle(cmd.PlayerAction(ana, first_discard(table), "d"))
    _assert_refused_everything(table, bo)


def test_a_replaced_link_asks_for_nothing_either():
    table, ana, bo, bo_token = _table_of_two()
    newer = Link(1)
    table.handle(cmd.Connect(newer, bo_token))
    table.handle(cmd.PlayerAction(ana, first_discard(table), "d"))
    _assert_refused_everything(table, bo)


def test_a_wrong_token_never_attaches_a_seat_and_a_spectator_needs_none():
    table, ana, bo, bo_token = _table_of_two()
    room = table.room
    for token in (None, "", "token-1", bo_token + "x"):
        stranger = Link(1)
        effects = table.handle(cmd.Connect(stranger, token))
        assert [e.code for e in effects if isinstance(e, Close)] == [CLOSE_UNKNOWN_TOKEN], token
        assert room.player_connections[1] is bo
    for index in (7, -1):
        effects = table.handle(cmd.Connect(Link(index), bo_token))
        assert [e.code for e in effects if isinstance(e, Close)] == [CLOSE_UNKNOWN_TOKEN]
    watcher = Link(None)
    effects = table.handle(cmd.Connect(watcher, None))
    assert watcher in room.spectators
    assert json.loads(next(e.text for e in effects if isinstance(e, Send)))["type"] == "state"


def test_a_removed_players_pause_requests_leave_no_record():
    table, ana, bo, bo_token = _table_of_two()
    _remove_bo(table, ana)
    late = Link(1)
    table.handle(cmd.Connect(late, bo_token))
    for link in (bo, late):
        for _ in range(5):
            table.handle(cmd.HostCommand(link, "pause", {}, None))
    kinds = [event["kind"] for event in table.room.host.events]
    assert kinds == ["remove_player"]
    assert not any("pause_asked" in repr(write) for write in table.writes)
