"""Hints in the room core (server/rooms/hints.py), with no event loop."""

from __future__ import annotations

from server.bots import choose_action
from server.engine import view
from server.rooms import commands as cmd
from tests.rooms.core.core_table import schedules, seated_table, sent_to


def test_a_hint_is_the_full_bots_move_under_the_tables_house_rules():
    # Hong Kong with no fan minimum: the full bot throws otherwise than at the seed's 3 fan.
    table, ana = seated_table(variant="hk", rules={"min_fan": 0}, hints=True)
    deal = table.room.deal
    seat = deal.seat_of(ana.player_index)
    legal = table.room.legal_now(seat)
    assert legal, "Ana, the dealer, has the first decision"
    seat_view = view(deal.state, seat)
    house = choose_action(seat_view, legal, "full", deal.state.settings.table_rules)
    assert house != choose_action(seat_view, legal, "full"), "a deal where the rules matter"

    effects = table.handle(cmd.HintRequest(ana, "h1"))
    (answer,) = [message for message in sent_to(effects, ana) if message["type"] == "hint"]
    assert answer["id"] == "h1" and answer["seat"] == seat
    assert answer["action"] == house.to_json()


def test_a_hint_is_worked_out_once_per_decision_and_seat(monkeypatch):
    # Issue 25, point 2: the full bot ran for every `hint`, inside the room's handler, so
    # asking at the allowed rate kept the server busy. The same decision has the same
    # answer: the bot is asked once per decision and seat (counted by wrapping the real
    # one, which still does the work).
    from server.rooms import hints as room_hints

    worked_out = []
    real_hint = room_hints.hint

    def counting_hint(*args, **kwargs):
        worked_out.append(args[0]["me"])
        return real_hint(*args, **kwargs)

    monkeypatch.setattr(room_hints, "hint", counting_hint)
    table, ana = seated_table(variant="hk", hints=True)
    answers = []
    for number in range(20):
        effects = table.handle(cmd.HintRequest(ana, number))
        answers += [m for m in sent_to(effects, ana) if m["type"] == "hint"]
    assert len(answers) == 20 and [a["id"] for a in answers] == list(range(20))
    assert len({str(a["action"]) for a in answers}) == 1
    assert worked_out == ["E"], "one bot run for twenty asks at one decision"

    # A new decision is a new answer.
    seat = table.room.deal.seat_of(ana.player_index)
    move = next(a for a in table.room.legal_now(seat) if a.type == "discard")
    table.handle(cmd.PlayerAction(ana, move.to_json(), None))
    while not table.room.legal_now(seat):
        bot = next(
            s.command
            for s in schedules(table.effects, cmd.BotTurn)
            if table.room.deal.turns.get(s.command.seat, (0, -1))[1] == s.command.token
        )
        table.advance_to(table.now + 1)
        table.handle(bot)
    table.handle(cmd.HintRequest(ana, "again"))
    table.handle(cmd.HintRequest(ana, "and again"))
    assert worked_out == ["E", "E"]
