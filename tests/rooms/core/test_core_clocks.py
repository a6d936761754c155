"""The room core's clocks with no event loop: the time bank, a seat covered by its bot
and given back, and the host's pause and resume."""

from __future__ import annotations

from server.rooms import commands as cmd
from server.rooms.effects import AppendHostEvent, Close, LogAction, Persist, SaveTableLog, Send
from tests.rooms.core.core_table import Link, schedules, seated_table, states_to
from tests.rooms.core.test_core_play import first_discard

BANK_RULES = {"time_bank_seconds": 30}


def test_the_time_bank_is_drawn_then_its_unused_seconds_go_back_and_both_are_saved():
    table, ana = seated_table(turn_seconds=40, rules=BANK_RULES)
    room = table.room
    deadline, token = room.deal.turns["E"]
    assert room.banks.left(0) == 30

    table.advance_to(deadline)
    effects = table.handle(cmd.TurnTimeout("E", token))
    # No bot move: the bank's 30 s are the new deadline, saved before it is shown.
    assert not any(isinstance(w, LogAction) for w in table.writes)
    persist_at = next(i for i, e in enumerate(effects) if isinstance(e, Persist))
    write = effects[persist_at].write
    assert isinstance(write, SaveTableLog)
    assert write.table_log["time_banks"] == {"left": {"0": 0.0}, "drawn": {"0": 30.0}}
    assert not any(isinstance(e, Send) for e in effects[:persist_at])
    new_deadline, new_token = room.deal.turns["E"]
    assert new_deadline == deadline + 30
    armed = [s for s in schedules(effects, cmd.TurnTimeout) if s.command.token == new_token]
    assert [s.moment for s in armed] == [deadline + 30]
    banked = states_to(effects, ana)[-1]
    assert banked["turn_deadline"] == round((deadline + 30) * 1000)
    assert banked["room"]["players"][0]["time_bank_seconds"] == 0

    # Ana acts 10 s into her bank: 20 s go back, saved, then shown.
    table.advance_to(deadline + 10)
    effects = table.handle(cmd.PlayerAction(ana, first_discard(table), None))
    writes = [e.write for e in effects if isinstance(e, Persist)]
    assert isinstance(writes[0], LogAction) and isinstance(writes[1], SaveTableLog)
    assert writes[1].table_log["time_banks"] == {"left": {"0": 20.0}, "drawn": {}}
    assert room.banks.left(0) == 20
    assert states_to(effects, ana)[-1]["room"]["players"][0]["time_bank_seconds"] == 20


def test_a_seat_is_covered_by_its_bot_and_given_back_on_reconnection():
    table, ana = seated_table(bot_delay=0.5)
    room = table.room
    _, token = room.deal.turns["E"]

    effects = table.handle(cmd.Disconnect(ana))
    bot = schedules(effects, cmd.BotTurn)
    assert [(s.moment, s.command.seat, s.command.token) for s in bot] == [
        (table.now + 0.5, "E", token)
    ]
    assert room.is_covered(0)

    # Ana is back before the bot moves: the bot's turn is ignored, the seat is hers.
    again = Link(0, ana.token)
    effects = table.handle(cmd.Connect(again, again.token))
    assert states_to(effects, again)[-1]["legal"], "the seat is given back with its moves"
    table.advance_to(table.now + 0.5)
    assert table.handle(bot[0].command) == []
    assert room.deal.next_log_seq == 1

    # A newer link of the same player replaces the older (closed 4409).
    newest = Link(0, ana.token)
    effects = table.handle(cmd.Connect(newest, newest.token))
    assert [(e.connection, e.code) for e in effects if isinstance(e, Close)] == [(again, 4409)]
    assert room.player_connections[0] is newest


def test_the_bot_plays_a_covered_seat_when_its_moment_comes():
    table, ana = seated_table(bot_delay=0.5)
    table.handle(cmd.Disconnect(ana))
    bot = schedules(table.effects, cmd.BotTurn)[-1]
    table.advance_to(bot.moment)
    table.handle(bot.command)
    logged = [w for w in table.writes if isinstance(w, LogAction)]
    assert [(w.seat, w.by_bot, w.bot_reason) for w in logged] == [("E", True, "disconnected")]


def test_a_pause_stops_every_clock_and_resuming_gives_back_the_time_left():
    table, ana = seated_table(turn_seconds=40, deal_seconds=300)
    room = table.room
    deal = room.deal
    turn_deadline, token = deal.turns["E"]
    deal_deadline = deal.deadline

    table.advance_to(table.now + 10)
    effects = table.handle(cmd.HostCommand(ana, "pause", {"type": "pause"}))
    write = next(e.write for e in effects if isinstance(e, Persist))
    assert isinstance(write, AppendHostEvent) and write.event["kind"] == "pause"
    paused = states_to(effects, ana)[-1]
    assert paused["turn_deadline"] is None and paused["legal"] == []
    assert paused["room"]["paused"]["by"] == 0

    # Timers that fire while paused change nothing; moves are refused.
    table.advance_to(turn_deadline)
    assert table.handle(cmd.TurnTimeout("E", token)) == []
    assert table.handle(cmd.DealTimeout(deal.deal_id)) == []
    refused = table.handle(cmd.PlayerAction(ana, {"type": "discard"}, "m"))
    assert [m["code"] for m in states_to(refused, ana)] == []
    assert "paused" in refused[0].text

    table.advance_to(table.now + 60)  # 90 s paused in all
    effects = table.handle(cmd.HostCommand(ana, "resume", {"type": "resume"}))
    assert deal.deadline == deal_deadline + 90
    new_deadline, new_token = deal.turns["E"]
    assert new_deadline == turn_deadline + 90 and new_token != token
    assert [s.moment for s in schedules(effects, cmd.TurnTimeout)] == [turn_deadline + 90]
    assert [s.moment for s in schedules(effects, cmd.DealTimeout)] == [deal_deadline + 90]
    assert states_to(effects, ana)[-1]["turn_deadline"] == round((turn_deadline + 90) * 1000)
