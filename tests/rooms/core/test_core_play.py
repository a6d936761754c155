"""The room core's play, driven through `Room.handle` with no event loop: persist before
send, the turn clock and the bot taking over, the deal limit, the next deal, and hidden
information in every text."""

from __future__ import annotations

import json

from server.engine import legal_actions
from server.rooms import commands as cmd
from server.rooms.effects import (
    Cancel,
    FinishDeal,
    LogAction,
    Persist,
    Send,
    SetRoomStatus,
    StartDeal,
)
from tests.rooms.core.core_table import (
    Link,
    schedules,
    seated_table,
    sent_to,
    states_to,
)


def first_discard(table, seat="E"):
    state = table.room.deal.state
    return next(a for a in legal_actions(state, seat) if a.type == "discard").to_json()


def test_an_action_is_persisted_before_anyone_hears_of_it():
    table, ana = seated_table()
    room = table.room
    seq = room.seq
    table.holding = True
    effects = table.handle(cmd.PlayerAction(ana, first_discard(table), "m1"))
    assert len(effects) == 1 and isinstance(effects[0], Persist), "only the write, nothing sent"
    write = effects[0].write
    assert isinstance(write, LogAction)
    assert (write.seq, write.seat, write.by_bot) == (1, "E", False)
    assert room.seq == seq and room.deal.next_log_seq == 1, "the table waits for the store"

    after = table.answer_held(cmd.Persisted())
    states = states_to(after, ana)
    assert states and states[0]["seq"] == seq + 1
    assert room.deal.next_log_seq == 2


def test_the_turn_timer_is_armed_at_the_exact_moment_and_the_bot_takes_over():
    table, ana = seated_table(turn_seconds=40)
    deal = table.room.deal
    deadline, token = deal.turns["E"]
    assert deadline == table.now + 40
    armed = [s for s in schedules(table.effects, cmd.TurnTimeout) if s.command.token == token]
    assert len(armed) == 1 and armed[0].moment == deadline and armed[0].command.seat == "E"

    # A superseded token is ignored: nothing happens.
    assert table.handle(cmd.TurnTimeout("E", token + 999)) == []

    table.advance_to(deadline)
    effects = table.handle(cmd.TurnTimeout("E", token))
    logged = [w for w in table.writes if isinstance(w, LogAction)]
    assert logged[-1].by_bot and logged[-1].bot_reason == "timeout" and logged[-1].seat == "E"
    assert table.room.registry.timeouts.value() == 1
    # The fired timer's key is dropped, and every message goes out after the write.
    persist_at = next(i for i, e in enumerate(effects) if isinstance(e, Persist))
    first_send = next(i for i, e in enumerate(effects) if isinstance(e, Send))
    assert persist_at < first_send
    assert any(isinstance(e, Cancel) for e in effects[persist_at:])


def test_the_deal_limit_ends_the_deal_at_its_deadline_and_the_next_deal_follows():
    table, ana = seated_table(deal_seconds=300, next_deal_seconds=5)
    room = table.room
    deal = room.deal
    armed = schedules(table.effects, cmd.DealTimeout)
    assert [s.moment for s in armed] == [table.now + 300]

    table.advance_to(deal.deadline - 1)
    assert table.handle(cmd.DealTimeout(deal.deal_id)) == [], "not before its moment"

    table.advance_to(deal.deadline)
    effects = table.handle(cmd.DealTimeout(deal.deal_id))
    writes = [e.write for e in effects if isinstance(e, Persist)]
    assert isinstance(writes[0], LogAction) and writes[0].action == {"type": "timeout"}
    assert isinstance(writes[1], FinishDeal)
    assert deal.ended
    result = [m for m in sent_to(effects, ana) if m["type"] == "result"]
    assert len(result) == 1 and result[0]["outcome"] == "timeout"
    due = schedules(effects, cmd.NextDealDue)
    assert [s.moment for s in due] == [table.now + 5]

    table.advance_to(table.now + 5)
    effects = table.handle(due[0].command)
    starts = [e.write for e in effects if isinstance(e, Persist)]
    assert isinstance(starts[0], StartDeal) and starts[0].deal_no == 2
    assert room.deal.deal_no == 2 and not room.deal.ended


def test_a_room_starts_playing_only_once_its_status_is_saved():
    table, _ana = seated_table()
    first_writes = [type(w) for w in table.writes]
    status_at = first_writes.index(SetRoomStatus)
    assert first_writes.index(StartDeal) > status_at
    assert table.writes[status_at].status == "playing"


def test_no_text_carries_another_players_concealed_tiles():
    table, ana = seated_table(bot_delay=0)
    watcher = Link(None)
    table.handle(cmd.Connect(watcher, None))
    # Ana plays; Ana leaves; her bot and the others play a few decisions.
    table.handle(cmd.PlayerAction(ana, first_discard(table), None))
    table.handle(cmd.Disconnect(ana))
    for _ in range(6):
        deal = table.room.deal
        if deal.ended or not deal.turns:
            break
        seat, (_, token) = next(iter(deal.turns.items()))
        table.handle(cmd.BotTurn(seat, token))
    for link, own in ((ana, "E"), (watcher, None)):
        for message in states_to(table.effects, link):
            if message.get("phase") == "waiting":
                continue
            assert message["me"] == own
            for seat, public in message["players"].items():
                assert "hand" not in public and "drawn_tile" not in public, seat
            if own is None:
                assert "hand" not in message
            text = json.dumps(message)
            assert "wall" not in text.replace("wall_remaining", "")
