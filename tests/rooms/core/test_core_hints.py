"""Hints in the room core (server/rooms/hints.py), with no event loop."""

from __future__ import annotations

from server.bots import choose_action
from server.engine import view
from server.rooms import commands as cmd
from tests.rooms.core.core_table import seated_table, sent_to


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
