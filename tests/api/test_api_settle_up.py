"""Settling up through the API of a real server: one game's transfers valued in money, the
same right as seeing the table, and a night over the rooms whose seats the caller holds."""

from __future__ import annotations

from collections import defaultdict

import httpx

from tests.api.live_server import (
    INVITES,
    LiveServer,
    TableClient,
    add_bots,
    create_room,
    join,
    room_results,
)


def _check_transfers(answer: dict[str, object], balances: dict[str, int], minor: int) -> None:
    """The transfers clear every balance exactly, each amount is points x value."""
    assert answer["balances"] == balances
    moved: dict[str, int] = defaultdict(int)
    transfers = answer["transfers"]
    assert isinstance(transfers, list)
    for transfer in transfers:
        assert transfer["points"] > 0 and transfer["amount_minor"] == transfer["points"] * minor
        moved[transfer["from"]] -= transfer["points"]
        moved[transfer["to"]] += transfer["points"]
    assert {name: points for name, points in moved.items() if points} == {
        name: points for name, points in balances.items() if points
    }
    nonzero = sum(1 for points in balances.values() if points)
    assert len(transfers) <= max(0, nonzero - 1)


async def _played_room(live: LiveServer, http: httpx.AsyncClient) -> tuple[str, str]:
    """A kaki3 room where Ana (with her bot's choices) and two bots played one deal."""
    room_id = await create_room(http, "kaki3")
    ana = await join(http, room_id, "Ana")
    client = await TableClient.open(live.ws_url(room_id, ana["token"]), "Ana")
    await client.receive()
    assert (await add_bots(http, room_id)).status_code == 200
    await client.play_until_result()
    await client.close()
    return room_id, str(ana["token"])


async def test_settle_up_a_game_and_a_night(live: LiveServer, http: httpx.AsyncClient) -> None:
    room_id, token = await _played_room(live, http)
    scores = (await room_results(http, room_id))["scores"]
    assert sum(scores.values()) == 0 and len(scores) == 3

    stranger = await http.get(f"/api/rooms/{room_id}/settle-up")
    assert stranger.status_code == 403
    game = await http.get(
        f"/api/rooms/{room_id}/settle-up",
        params={"currency": "MYR", "minor_per_point": "10"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert game.status_code == 200, game.text
    settled = game.json()
    assert settled["currency"] == "MYR" and settled["minor_per_point"] == 10
    _check_transfers(settled, scores, 10)
    lines = settled["text"].splitlines()
    if settled["transfers"]:
        first = settled["transfers"][0]
        amount = first["amount_minor"]
        assert (
            lines[0] == f"{first['from']} pays {first['to']} RM {amount // 100}.{amount % 100:02d}"
        )
    else:
        assert lines == ["Everyone is square."]
    by_invite = await http.get(
        f"/api/rooms/{room_id}/settle-up", params={"invite": INVITES[room_id]}
    )
    assert by_invite.status_code == 200 and by_invite.json()["currency"] == "points"
    for params in ({"currency": "EUR"}, {"minor_per_point": "0"}, {"minor_per_point": "x"}):
        bad = await http.get(
            f"/api/rooms/{room_id}/settle-up", params={**params, "invite": INVITES[room_id]}
        )
        assert bad.status_code == 422, params

    # A second game the same evening; the night sums both, the caller's seats only.
    other_id, other_token = await _played_room(live, http)
    other = (await room_results(http, other_id))["scores"]
    night = await http.post(
        "/api/settle-up/night",
        json={
            "tokens": [token, other_token, "not-a-seat"],
            "since": "2000-01-01T00:00:00Z",
            "until": "2100-01-01T00:00:00Z",
            "currency": "HKD",
            "minor_per_point": 100,
        },
    )
    assert night.status_code == 200, night.text
    summed = {name: scores.get(name, 0) + other.get(name, 0) for name in {*scores, *other}}
    assert night.json()["rooms"] == sorted([room_id, other_id])
    _check_transfers(night.json(), summed, 100)
    only_first = await http.post(
        "/api/settle-up/night",
        json={"tokens": [token], "since": "2000-01-01T00:00:00", "until": "2100-01-01T00:00:00"},
    )
    assert only_first.json()["rooms"] == [room_id] and only_first.json()["balances"] == scores
    before = await http.post(
        "/api/settle-up/night",
        json={"tokens": [token], "since": "2000-01-01T00:00:00Z", "until": "2000-01-02T00:00:00Z"},
    )
    assert before.json()["balances"] == {} and before.json()["text"] == "Everyone is square."
    nobody = await http.post(
        "/api/settle-up/night",
        json={"tokens": ["nobody"], "since": "2000-01-01T00:00:00Z", "until": "2100-01-01"},
    )
    assert nobody.json()["rooms"] == [] and nobody.json()["transfers"] == []
    backwards = await http.post(
        "/api/settle-up/night",
        json={"tokens": [token], "since": "2100-01-01T00:00:00Z", "until": "2000-01-01"},
    )
    assert backwards.status_code == 422
