"""Look-alike names at one table (issue 25, point 9), through `Room.handle`.

Scores and settle-up lines are keyed by name, so a name that reads as one already seated
is refused as that name would be: "Ana" and "Аna" (a Cyrillic А) look the same. The test
of sameness is Unicode's (UTS #39 confusables), with case ignored as before.
"""

from __future__ import annotations

import pytest

from server.rooms import commands as cmd
from server.rooms.players import NameTakenError
from tests.rooms.core.core_table import CoreTable, Link, make_table

LOOK_ALIKES = [
    ("Ana", "\u0410na"),  # Cyrillic capital A
    ("Ana", "An\u0430"),  # Cyrillic small a
    ("paypal", "\u0440aypal"),  # Cyrillic er
    ("Bo", "B0"),  # digit zero
    ("Al", "AI"),  # capital I
    ("Ana", "\uff21\uff4e\uff41"),  # fullwidth letters
    ("Ana", "ana"),  # case, as before
    ("José", "Jose\u0301"),  # the same letter, decomposed
    ("morn", "mom"),  # rn
]
DIFFERENT = [("Ana", "Anna"), ("Zoë", "Zoe"), ("Lee", "Lée"), ("Bo", "Bob"), ("李", "季")]


def _join(table: CoreTable, name: str) -> dict:
    return table.ask(lambda answer: cmd.Join(name=name, reply=answer))


@pytest.mark.parametrize(("seated", "newcomer"), LOOK_ALIKES)
def test_a_name_that_looks_like_one_seated_is_refused(seated: str, newcomer: str) -> None:
    table = make_table("hk")
    _join(table, seated)
    with pytest.raises(NameTakenError) as refused:
        _join(table, newcomer)
    assert repr(seated) in str(refused.value), "the message names the look-alike"
    assert [player.name for player in table.room.players] == [seated]


@pytest.mark.parametrize(("seated", "newcomer"), DIFFERENT)
def test_names_that_only_resemble_each_other_both_sit(seated: str, newcomer: str) -> None:
    table = make_table("hk")
    _join(table, seated)
    _join(table, newcomer)
    assert [player.name for player in table.room.players] == [seated, newcomer]


def test_a_bots_name_is_looked_alike_too_and_so_is_a_friend_taking_an_offered_seat() -> None:
    table = make_table("kaki3", deal_seconds=300)
    ana = _join(table, "Ana")
    table.ask(lambda answer: cmd.AddBots(reply=answer))
    assert [player.name for player in table.room.players] == ["Ana", "Bot 2", "Bot 3"]
    host = Link(0, ana["token"])
    table.handle(cmd.Connect(host, host.token))
    table.handle(cmd.HostCommand(host, "offer_seat", {"player_index": 2}))
    # The deal runs out of time; between deals a friend may take the offered seat, but
    # not under a name that reads as one already at the table.
    deal = table.room.deal
    assert deal is not None
    table.advance_to(deal.deadline)
    table.handle(cmd.DealTimeout(deal.deal_id))
    assert deal.ended
    for name in ("\u0410na", "B\u043et 2", "BOT 2"):
        with pytest.raises(NameTakenError):
            _join(table, name)
    assert _join(table, "Cy")["player_index"] == 2


def test_a_bot_is_never_named_like_a_human_already_seated() -> None:
    table = make_table("kaki3")
    _join(table, "B0t 2")  # a digit zero
    table.ask(lambda answer: cmd.AddBots(reply=answer))
    assert [player.name for player in table.room.players] == ["B0t 2", "Bot 12", "Bot 3"]
