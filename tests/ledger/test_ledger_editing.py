"""Mistakes are normal: deleting or changing hand k recomputes every later figure, the
history keeps both versions, and a change that would leave a later hand impossible is
refused whole. Over real HTTP, on SQLite and on Postgres."""

from __future__ import annotations

from typing import Any

import httpx

from tests.ledger.hands import ANIMALS_THREE, ANIMALS_TWO, EAST_FLOWER, full_flush
from tests.ledger.ledger_hall import add, ledger, open_ledger


async def three_hands(client: httpx.AsyncClient) -> dict[str, Any]:
    """Bo wins at South on Ana's discard (he deals next), Cy wins on Ana's (she deals
    next), then Ana self-draws; each hand's (Ana, Bo, Cy) beside it."""
    opened = await open_ledger(client)
    for hand in (
        full_flush(1, 0, ANIMALS_TWO),  # Ana pays 8, Cy 4: (-8, +12, -4)
        full_flush(2, 0, ANIMALS_THREE),  # Ana pays 10, Bo 5: (-10, -5, +15)
        full_flush(0, None, ANIMALS_TWO),  # both pay 8: (+16, -8, -8)
    ):
        assert (await add(client, opened, {**hand, "by": "Ana"})).status_code == 201
    return opened


def dealers(read: dict[str, Any]) -> list[int]:
    return [hand["dealer"] for hand in read["hands"]]


def running(read: dict[str, Any]) -> list[dict[str, int]]:
    return [hand["scores"] for hand in read["hands"]]


async def test_deleting_a_hand_recomputes_every_later_figure(client: httpx.AsyncClient) -> None:
    opened = await three_hands(client)
    read = await ledger(client, opened)
    assert dealers(read) == [0, 1, 2]
    assert running(read) == [
        {"Ana": -8, "Bo": 12, "Cy": -4},
        {"Ana": -18, "Bo": 7, "Cy": 11},
        {"Ana": -2, "Bo": -1, "Cy": 3},
    ]
    answer = await client.delete(
        f"/api/ledgers/{opened['ledger_id']}/hands/1",
        params={"invite": opened["invite"], "by": "Cy"},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["scores"] == {"Ana": 6, "Bo": -13, "Cy": 7}
    read = await ledger(client, opened)
    # Hand 2 is now the first: Ana deals it, and Cy's win hands her the deal.
    assert [hand["hand_no"] for hand in read["hands"]] == [1, 2]
    assert dealers(read) == [0, 2]
    assert running(read) == [{"Ana": -10, "Bo": -5, "Cy": 15}, {"Ana": 6, "Bo": -13, "Cy": 7}]
    history = (
        await client.get(
            f"/api/ledgers/{opened['ledger_id']}/history", params={"invite": opened["invite"]}
        )
    ).json()["changes"]
    assert [change["action"] for change in history] == ["open", "add", "add", "add", "delete"]
    deleted = history[-1]
    assert deleted["by"] == "Cy" and deleted["hand_no"] == 1
    assert deleted["before"]["winner"] == 1 and deleted["after"] is None


async def test_changing_a_hand_moves_the_deal_and_keeps_both_versions(
    client: httpx.AsyncClient,
) -> None:
    opened = await three_hands(client)
    # Hand 1 was Cy's win, not Bo's: Cy deals hand 2 now, and wins it again.
    changed = full_flush(2, 0, ANIMALS_TWO)
    answer = await client.put(
        f"/api/ledgers/{opened['ledger_id']}/hands/1",
        json={**changed, "invite": opened["invite"], "by": "Bo", "revision": 3},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["revision"] == 4
    read = await ledger(client, opened)
    assert dealers(read) == [0, 2, 2]
    assert running(read) == [
        {"Ana": -8, "Bo": -4, "Cy": 12},
        {"Ana": -18, "Bo": -9, "Cy": 27},
        {"Ana": -2, "Bo": -17, "Cy": 19},
    ]
    # Cy dealt hand 2 from East; Ana sat South.
    assert read["hands"][1]["seats"] == {"E": 2, "S": 0, "W": 1}
    history = (
        await client.get(
            f"/api/ledgers/{opened['ledger_id']}/history", params={"invite": opened["invite"]}
        )
    ).json()["changes"]
    edit = history[-1]
    assert (edit["action"], edit["by"], edit["hand_no"]) == ("edit", "Bo", 1)
    assert edit["before"]["winner"] == 1 and edit["after"]["winner"] == 2
    assert edit["before"]["hand"] == edit["after"]["hand"]
    # A phone that still shows revision 3 is told the ledger moved on, and changes nothing.
    stale = await client.put(
        f"/api/ledgers/{opened['ledger_id']}/hands/2",
        json={**changed, "invite": opened["invite"], "revision": 3},
    )
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "ledger_changed"
    assert (await ledger(client, opened))["revision"] == 4


async def test_a_change_that_leaves_a_later_hand_impossible_is_refused_whole(
    client: httpx.AsyncClient,
) -> None:
    opened = await open_ledger(client)
    # Bo wins hand 1 and deals hand 2, which he wins with flower 1: his own at East only.
    assert (await add(client, opened, full_flush(1, 0, ANIMALS_TWO))).status_code == 201
    assert (await add(client, opened, full_flush(1, None, EAST_FLOWER))).status_code == 201
    before = await ledger(client, opened)
    # Were hand 1 Ana's win, Bo would sit South in hand 2: 4 fan, not a win.
    refused = await client.put(
        f"/api/ledgers/{opened['ledger_id']}/hands/1",
        json={**full_flush(0, 2, ANIMALS_TWO), "invite": opened["invite"]},
    )
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "not_a_win" and error["details"]["hand_no"] == 2
    assert error["message"].startswith("hand 2: Bo's hand is not a win: 4 fan")
    deleted = await client.delete(
        f"/api/ledgers/{opened['ledger_id']}/hands/1", params={"invite": opened["invite"]}
    )
    assert deleted.status_code == 422 and deleted.json()["error"]["details"]["hand_no"] == 1
    assert await ledger(client, opened) == before


async def test_a_forgotten_hand_goes_in_before_the_others(client: httpx.AsyncClient) -> None:
    opened = await open_ledger(client)
    assert (await add(client, opened, full_flush(0, None, ANIMALS_TWO))).status_code == 201
    forgotten = await add(client, opened, {**full_flush(2, 1, ANIMALS_TWO), "before": 1})
    assert forgotten.status_code == 201 and forgotten.json()["hand_no"] == 1
    read = await ledger(client, opened)
    # Cy won the forgotten first hand, so she dealt Ana's self-draw.
    assert dealers(read) == [0, 2]
    assert read["hands"][1]["scores"] == {"Ana": 12, "Bo": -16, "Cy": 4}
