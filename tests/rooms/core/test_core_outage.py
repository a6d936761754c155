"""The room core through a store outage, the host's controls, and reopening from a
record, all with no event loop."""

from __future__ import annotations

from concurrent.futures import Future
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from server.rooms import commands as cmd
from server.rooms.effects import AppendHostEvent, LogAction, Persist, Refuse, SetHost
from server.rooms.players import RoomFullError
from server.rooms.room import Room
from server.store import StoreUnavailable
from tests.rooms.core.core_table import (
    START,
    Link,
    make_table,
    schedules,
    seated_table,
    sent_to,
    states_to,
)
from tests.rooms.core.test_core_play import first_discard


def codes(effects, link, kind):
    return [m["code"] for m in sent_to(effects, link) if m["type"] == kind]


def test_a_store_outage_pauses_the_table_refuses_moves_and_resumes_from_the_held_write():
    table, ana = seated_table(turn_seconds=40, deal_seconds=300)
    room = table.room
    deal = room.deal
    deal_deadline = deal.deadline
    turn_deadline, token = deal.turns["E"]
    table.holding = True
    decided_at = table.now = START + 5
    table.handle(cmd.PlayerAction(ana, first_discard(table), "held"))
    assert isinstance(table.held, LogAction)

    table.now += 1
    effects = table.room.handle(cmd.StoreFailed("disk full"), table.now)
    assert room.outage.down_since == decided_at, "the clocks pause from the decision"
    paused = states_to(effects, ana)[-1]
    assert paused["legal"] == [] and paused["turn_deadline"] is None
    assert paused["deal_deadline"] is None
    assert codes(effects, ana, "notice") == ["store_unavailable"]

    # While down: moves and joins are refused, timers wait, links still come and go.
    refused = room.handle(cmd.PlayerAction(ana, {"type": "discard"}, "again"), table.now)
    assert codes(refused, ana, "error") == ["store_unavailable"]
    answer: Future = Future()
    refusal = room.handle(cmd.Join(name="Bo", reply=answer), table.now)
    assert isinstance(refusal[0], Refuse) and isinstance(refusal[0].error, StoreUnavailable)
    assert room.handle(cmd.TurnTimeout("E", token), table.now) == []
    watcher = Link(None)
    joined = room.handle(cmd.Connect(watcher, None), table.now)
    assert codes(joined, watcher, "notice") == ["store_unavailable"]

    table.now = decided_at + 30
    restored = room.handle(cmd.StoreRestored(), table.now)
    assert room.outage.down_since is None
    assert codes(restored, ana, "notice") == ["store_restored"]
    assert deal.deadline == deal_deadline + 30
    # The deferred timer command is delivered again, now.
    redelivered = schedules(restored, cmd.TurnTimeout)
    assert any(s.command.token == token and s.moment == table.now for s in redelivered)

    after = table.answer_held(cmd.Persisted())
    assert deal.next_log_seq == 2, "the very action, applied once"
    assert states_to(after, ana)[-1]["deal_deadline"] == round((deal_deadline + 30) * 1000)
    del turn_deadline


def test_a_store_refusal_fails_the_command_and_does_not_leave_the_table_paused():
    table, ana = seated_table()
    room = table.room
    table.holding = True
    table.handle(cmd.PlayerAction(ana, first_discard(table), None))
    room.handle(cmd.StoreFailed("down"), table.now)
    effects = room.handle(cmd.StoreRefused(ValueError("seq 1 holds another action")), table.now)
    assert room.outage.down_since is None and not room.waiting_for_store
    assert codes(effects, ana, "notice") == ["store_restored"]
    assert room.deal.next_log_seq == 1, "nothing applied"


def test_a_move_whose_write_is_refused_gets_not_saved_and_can_be_sent_again():
    table, ana = seated_table()
    room = table.room
    move = first_discard(table)
    table.holding = True
    table.handle(cmd.PlayerAction(ana, move, "m1"))
    effects = table.answer_held(cmd.StoreRefused(ValueError("a row the store refuses")))
    errors = [m for m in sent_to(effects, ana) if m["type"] == "error"]
    assert [(error["code"], error["id"]) for error in errors] == [("not_saved", "m1")]
    assert room.deal.next_log_seq == 1 and not room.waiting_for_store, "nothing applied"
    table.handle(cmd.PlayerAction(ana, move, "m2"))
    assert room.deal.next_log_seq == 2, "the same move, sent again, is played"


def test_host_controls_are_checked_and_every_one_is_saved_as_a_host_event():
    table, ana = seated_table()
    room = table.room
    bo = Link(1)  # a bot's seat: nobody holds it with a token
    effects = table.handle(cmd.HostCommand(bo, "end_game", {}, "x"))
    assert effects and "not_seated" in effects[0].text

    effects = table.handle(cmd.HostCommand(ana, "bot_level", {"player_index": 1, "level": "x"}))
    assert codes(effects, ana, "error") == ["bad_message"]
    assert not any(isinstance(e, Persist) for e in effects), "a refusal writes nothing"

    effects = table.handle(
        cmd.HostCommand(ana, "bot_level", {"player_index": 1, "level": "baseline"})
    )
    write = next(e.write for e in effects if isinstance(e, Persist))
    assert isinstance(write, AppendHostEvent)
    assert (write.seq, write.event["kind"]) == (0, "bot_level")
    assert room.host.bot_level_of(1) == "baseline"
    shown = states_to(effects, ana)[-1]["room"]["host_events"]
    assert [e["kind"] for e in shown] == ["bot_level"]

    # The first human became host by a saved write, before the first deal.
    assert any(isinstance(w, SetHost) and w.player_index == 0 for w in table.writes)


def test_a_full_table_refuses_a_join():
    table, _ana = seated_table()
    with pytest.raises(RoomFullError):
        table.ask(lambda answer: cmd.Join(name="Late", reply=answer))


def record_of(
    room: Room, *, status: str, table_log: dict, host_events: list, host_event_count: int
) -> SimpleNamespace:
    """A stored room as `Store.load_open_rooms` reads it back, between deals."""
    players = [
        SimpleNamespace(
            player_index=p.player_index,
            name=p.name,
            token_hash=p.token_hash,
            is_bot=p.is_bot,
            joined_at=datetime.fromtimestamp(START, UTC),
        )
        for p in room.players
    ]
    return SimpleNamespace(
        room_id=room.room_id,
        variant=room.settings.variant,
        settings={**room.settings.to_json(), "table_log": table_log},
        status=status,
        created_at=datetime.fromtimestamp(START, UTC),
        players=players,
        scores={},
        deals_played=0,
        open_deal=None,
        finished_deals=[],
        host_events=host_events,
        host_event_count=host_event_count,
    )


def test_reopening_brings_back_the_host_events_and_the_time_banks():
    table, ana = seated_table(rules={"time_bank_seconds": 30})
    table.handle(cmd.HostCommand(ana, "bot_level", {"player_index": 2, "level": "baseline"}))
    events = [w.event for w in table.writes if isinstance(w, AppendHostEvent)]
    saved = {"time_banks": {"left": {"0": 12.5}, "drawn": {}}}

    reopened = Room.from_record(
        record_of(
            table.room, status="playing", table_log=saved, host_events=events, host_event_count=7
        ),
        now=START + 100,
        table_settings=table.room.table_settings,
        registry=table.room.registry,
    )
    assert [e["kind"] for e in reopened.host.events] == ["bot_level"]
    # The next event is numbered after every stored one, not only those read back.
    reopened.handle(cmd.Connect(ana, ana.token), START + 100)
    effects = reopened.handle(cmd.HostCommand(ana, "pause", {}), START + 100)
    written = [e.write for e in effects if isinstance(e, Persist)]
    assert [(w.seq, w.event["kind"]) for w in written if isinstance(w, AppendHostEvent)] == [
        (7, "pause")
    ]
    assert reopened.banks.left(0) == 12.5
    assert reopened.public_room()["players"][0]["time_bank_seconds"] == 12.5
    assert reopened.status == "playing", "a playing room is resumed by the actor"

    # A bank in use when the server stopped comes back whole: the decision starts afresh.
    drawn = {**saved, "time_banks": {"left": {"0": 0.0}, "drawn": {"0": 30.0}}}
    again = Room.from_record(
        record_of(
            table.room, status="playing", table_log=drawn, host_events=[], host_event_count=0
        ),
        now=START + 100,
        table_settings=table.room.table_settings,
        registry=table.room.registry,
    )
    assert again.banks.left(0) == 30


def test_a_new_room_arms_its_idle_close_when_opened():
    table = make_table()
    effects = table.room.opening()
    idle = schedules(effects, cmd.IdleCheck)
    assert [s.moment for s in idle] == [START + table.room.table_settings.idle_close_seconds]
