"""Bad entries get a clear error and change nothing; a stranger without the invite is refused.
Over real HTTP, on SQLite and on Postgres."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from tests.ledger.hands import LIABLE_LITTLE_DRAGONS, full_flush
from tests.ledger.ledger_hall import add, ledger, open_ledger


def with_changes(**changes: Any) -> dict[str, Any]:
    hand = copy.deepcopy(LIABLE_LITTLE_DRAGONS)
    for path, value in changes.items():
        where = hand
        *parents, last = path.split("__")
        for part in parents:
            where = where[int(part)] if isinstance(where, list) else where[part]
        where[last] = value
    return hand


REFUSED = [
    pytest.param(
        with_changes(hand__concealed="123p 456p 7777z j", hand__melds=[
            {"kind": "pong", "tiles": "555z"}, {"kind": "pong", "tiles": "777z"}
        ]),
        "copies of 7z",
        id="five-copies-of-a-tile",
    ),
    pytest.param(
        with_changes(hand__melds=[
            {"kind": "pong", "tiles": "555z"}, {"kind": "kong", "tiles": "6z j 6z 6z"}
        ]),
        "a kong never holds a Fei",
        id="fei-in-a-kong",
    ),
    pytest.param(with_changes(discarder=1), "a winner cannot also be the discarder", id="winner-discards"),
    pytest.param(
        with_changes(losers__0__bonus="2f 4n"),
        "bonus tile 2f is entered for Bo and Ana",
        id="loser-holds-the-winners-bonus-tile",
    ),
    pytest.param(
        with_changes(losers__0__sets=[{"kind": "pong", "tiles": "555z"}, {"kind": "pong", "tiles": "111z"}]),
        "copies of 5z among Bo and Ana",
        id="loser-shows-the-winners-set",
    ),
    pytest.param(
        with_changes(losers__1__fei=4),
        "5 Fei entered",
        id="five-fei-at-the-table",
    ),
    pytest.param(
        with_changes(hand__melds=[{"kind": "pong", "tiles": "555z"}, {"kind": "chow", "tiles": "456p"}],
                     hand__concealed="123p 666z 77z"),
        "does not show two dragon sets",
        id="liable-without-two-dragon-sets",
    ),
    pytest.param(with_changes(winner=7), "there is no player 7", id="unknown-player"),
    pytest.param(
        with_changes(hand__win={"last_tile": True}),
        "the last tile of the wall is drawn",
        id="last-tile-on-a-discard",
    ),
    pytest.param(
        {**full_flush(0, None, "1a 2a 3a 4a"), "families": []},
        "animals are complete",
        id="family-not-entered",
    ),
    pytest.param(with_changes(colour="red"), "colour: not a field", id="unknown-field"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "says"), REFUSED)
async def test_a_bad_entry_is_refused_clearly_and_changes_nothing(
    client: httpx.AsyncClient, hand: dict[str, Any], says: str
) -> None:
    opened = await open_ledger(client)
    assert (await add(client, opened, full_flush(0, None, "1a 2a"))).status_code == 201
    before = await ledger(client, opened)
    for path in ("/hands", "/hands/check"):
        refused = await client.post(
            f"/api/ledgers/{opened['ledger_id']}{path}", json={**hand, "invite": opened["invite"]}
        )
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "bad_hand" and says in error["message"], error["message"]
    edit = await client.put(
        f"/api/ledgers/{opened['ledger_id']}/hands/1", json={**hand, "invite": opened["invite"]}
    )
    assert edit.status_code == 422
    assert await ledger(client, opened) == before


async def test_a_stranger_without_the_invite_reaches_nothing(client: httpx.AsyncClient) -> None:
    opened = await open_ledger(client)
    assert (await add(client, opened, full_flush(0, None, "1a 2a"))).status_code == 201
    before = await ledger(client, opened)
    base = f"/api/ledgers/{opened['ledger_id']}"
    hand = full_flush(1, None, "1a 2a")
    for invite in (None, "guessed", opened["invite"][:-1]):
        query = {} if invite is None else {"invite": invite}
        body = hand if invite is None else {**hand, "invite": invite}
        for answer in (
            await client.get(base, params=query),
            await client.get(f"{base}/history", params=query),
            await client.get(f"{base}/settle-up", params=query),
            await client.post(f"{base}/hands", json=body),
            await client.post(f"{base}/hands/check", json=body),
            await client.put(f"{base}/hands/1", json=body),
            await client.delete(f"{base}/hands/1", params=query),
            await client.patch(
                base,
                json={"in_standings": True, **query},
                headers={"Authorization": f"Bearer {opened['host_token']}"},
            ),
        ):
            assert answer.status_code == 403, answer.text
            assert answer.json()["error"]["code"] == "invite_required"
    assert await ledger(client, opened) == before
