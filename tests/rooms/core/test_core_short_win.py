"""A win below the minimum, asked for over a player's socket, is refused with its fan
against the minimum (issue 25, point 12), at both tables, through `Room.handle`."""

from __future__ import annotations

import pytest

from server.bots import choose_action
from server.engine import Action, view
from server.engine.short_win import short_win
from server.rooms import commands as cmd
from server.rooms.effects import LogAction
from tests.rooms.core.core_table import CoreTable, Link, make_table, sent_to

# Deals (by seed) in which, played as `_next_move` plays, a discard soon completes a
# hand that falls short: the first such moment is where the test asks for the win.
SEEDS = {"hk": 2, "kaki3": 3}


def _all_humans(variant: str) -> tuple[CoreTable, dict[str, Link]]:
    """Every seat a connected human, so nothing moves but what the test sends; the links
    by seat of the first deal."""
    table = make_table(variant, bot_delay=0.5, deal_seed=SEEDS[variant])
    links = []
    for index, name in enumerate(("Ana", "Bo", "Cy", "Di")[: len(table.room.settings.seats)]):
        seated = table.ask(lambda answer, name=name: cmd.Join(name=name, reply=answer))
        links.append(Link(index, seated["token"]))
        table.handle(cmd.Connect(links[-1], links[-1].token))
    deal = table.room.deal
    assert deal is not None
    return table, {deal.seat_of(link.player_index): link for link in links}


def _next_move(table: CoreTable) -> tuple[str, Action]:
    """The first pending seat's move: pass every claim, else the baseline bot's choice."""
    room = table.room
    state = room.deal.state
    seat = next(s for s in state.seats if room.legal_now(s))
    legal = room.legal_now(seat)
    passes = [a for a in legal if a.type == "pass"]
    if passes:
        return seat, passes[0]
    rules = state.settings.table_rules
    return seat, choose_action(view(state, seat), legal, "baseline", rules)


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_a_short_win_over_the_socket_says_its_fan_against_the_minimum(variant: str) -> None:
    table, links = _all_humans(variant)
    room = table.room
    for _ in range(200):
        state = room.deal.state
        short = next(
            (found for s in state.seats if (found := short_win(state, s)) is not None), None
        )
        if short is not None and short.discarder is not None:
            break
        seat, action = _next_move(table)
        table.handle(cmd.PlayerAction(links[seat], action.to_json(), None))
    else:
        raise AssertionError("no short win came in 200 moves")
    assert Action("win", short.seat) not in room.legal_now(short.seat), "it is offered nowhere"
    logged = len(table.writes)

    effects = table.handle(cmd.PlayerAction(links[short.seat], {"type": "win"}, "w"))
    (error,) = sent_to(effects, links[short.seat])
    assert error["type"] == "error" and error["code"] == "below_min_fan" and error["id"] == "w"
    minimum = room.settings.table_rules.min_fan
    assert short.min_fan == minimum and short.fan < minimum
    assert error["message"] == (
        f"{short.seat}'s hand with {short.tile} from {short.discarder} is worth "
        f"{short.fan} fan; this table needs {minimum} to win"
    )
    assert len(table.writes) == logged and not any(
        isinstance(w, LogAction) and w.action.get("type") == "win" for w in table.writes
    )
