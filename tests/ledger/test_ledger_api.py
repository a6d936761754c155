"""The ledger over real HTTP (uvicorn in a thread), on SQLite and on Postgres: opening,
recording, checking before saving, a hand that is not a win, the settle-up, the host's
switch, and the live socket."""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.ledger.hands import HK_SOUTH_SELF_DRAW, LIABLE_LITTLE_DRAGONS, full_flush
from tests.ledger.ledger_hall import LedgerHall, add, ledger, open_ledger


async def test_opening_answers_the_invite_link_and_the_ledger_is_private(
    client: httpx.AsyncClient,
) -> None:
    opened = await open_ledger(client, name="Friday at Ana's", rules={"min_fan": 4})
    assert set(opened) == {"ledger_id", "invite", "url", "host_token"}
    # The secret rides in the fragment, never in the path or the query.
    assert opened["url"].endswith(f"/ledgers/{opened['ledger_id']}#invite={opened['invite']}")
    read = await ledger(client, opened)
    assert read["players"] == ["Ana", "Bo", "Cy"] and read["hands"] == []
    assert read["rules"]["min_fan"] == 4 and read["name"] == "Friday at Ana's"
    assert read["next"] == {
        "hand_no": 1,
        "seats": {"E": 0, "S": 1, "W": 2},
        "dealer": 0,
        "round_wind": "E",
    }
    path = f"/api/ledgers/{opened['ledger_id']}"
    for query in ({}, {"invite": "not-the-invite"}):
        refused = await client.get(path, params=query)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "invite_required"
    assert (
        await client.get("/api/ledgers/nosuchledger", params={"invite": "x"})
    ).status_code == 404
    page = await client.get(f"/ledgers/{opened['ledger_id']}")
    assert page.status_code == 200 and "ledger.js" in page.text


async def test_opening_refuses_what_the_table_cannot_have(client: httpx.AsyncClient) -> None:
    for body, words in (
        ({"variant": "kaki3", "players": ["Ana", "Bo", "Cy", "Di"]}, "seats 3"),
        ({"variant": "hk", "players": ["Ana", "Bo", "ana", "Di"]}, "name of their own"),
        ({"variant": "kaki3", "players": ["Ana", "Bo", "Cy"], "rules": {"min_fan": 1}}, "min_fan"),
        ({"variant": "kaki3", "players": ["Ana", "Bo", "Cy"], "round_wind": "S"}, "round_wind"),
        (
            {"variant": "hk", "players": ["A", "B", "C", "D"], "point_value": {"currency": "EUR"}},
            "currency",
        ),
    ):
        answer = await client.post("/api/ledgers", json=body)
        assert answer.status_code == 422, body
        assert words in answer.json()["error"]["message"], answer.text


async def test_a_hand_is_scored_settled_and_moves_the_deal(client: httpx.AsyncClient) -> None:
    opened = await open_ledger(client, point_value={"currency": "MYR", "minor_per_point": 10})
    answer = await add(client, opened, {**LIABLE_LITTLE_DRAGONS, "by": "Ana"})
    assert answer.status_code == 201, answer.text
    hand = answer.json()
    assert hand["hand_no"] == 1 and hand["valid"] and hand["fan"] == 8 and hand["points"] == 14
    assert {p["id"] for p in hand["patterns"]} >= {"little_dragons", "own_flower", "dragon_set"}
    assert hand["payments"] == [
        {"from": 2, "to": 1, "points": 14, "reason": "win"},
        {"from": 2, "to": 1, "points": 7, "reason": "liability"},
        {"from": 0, "to": 1, "points": 1, "reason": "extra_fei"},
        {"from": 2, "to": 0, "points": 1, "reason": "square_up"},
    ]
    assert hand["scores"] == {"Ana": 0, "Bo": 22, "Cy": -22} and hand["next_dealer"] == 1
    assert hand["seats"] == {"E": 0, "S": 1, "W": 2} and hand["revision"] == 1
    # Bo won: he deals the next hand, Cy sits South and Ana West.
    read = await ledger(client, opened)
    assert read["next"]["seats"] == {"E": 1, "S": 2, "W": 0}
    assert read["hands"][0]["entered_by"] == "Ana"
    settled = await client.get(
        f"/api/ledgers/{opened['ledger_id']}/settle-up", params={"invite": opened["invite"]}
    )
    assert settled.status_code == 200
    assert settled.json()["transfers"] == [
        {"from": "Cy", "to": "Bo", "points": 22, "amount_minor": 220, "currency": "MYR"}
    ]
    assert settled.json()["text"] == "Cy pays Bo RM 2.20"


async def test_a_hand_that_is_not_a_win_says_why_before_anything_is_saved(
    client: httpx.AsyncClient,
) -> None:
    opened = await open_ledger(client)
    # A full flush and one animal: 4 fan, the table needs 5.
    short = full_flush(1, 0, "1a")
    check = await client.post(
        f"/api/ledgers/{opened['ledger_id']}/hands/check",
        json={**short, "invite": opened["invite"]},
    )
    assert check.status_code == 200
    assert check.json()["valid"] is False
    assert (check.json()["fan"], check.json()["min_fan"]) == (4, 5)
    refused = await add(client, opened, short)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "not_a_win" and "4 fan" in error["message"]
    assert error["details"]["fan"] == 4 and error["details"]["reason"]
    read = await ledger(client, opened)
    assert read["hands"] == [] and read["revision"] == 0
    # The check of a winning hand shows the payments, and saves nothing either.
    check = await client.post(
        f"/api/ledgers/{opened['ledger_id']}/hands/check",
        json={**full_flush(1, 0, "1a 2a"), "invite": opened["invite"]},
    )
    assert check.status_code == 200 and check.json()["valid"] and check.json()["points"] == 8
    assert (await ledger(client, opened))["revision"] == 0


async def test_hong_kong_rounds_and_the_host_switch(client: httpx.AsyncClient) -> None:
    opened = await open_ledger(client, "hk")
    answer = await add(client, opened, HK_SOUTH_SELF_DRAW)
    assert answer.status_code == 201, answer.text
    assert answer.json()["scores"] == {"Ana": -8, "Bo": 24, "Cy": -8, "Di": -8}
    # A non-dealer won: the deal passes to Bo.
    assert (await ledger(client, opened))["next"]["dealer"] == 1
    path = f"/api/ledgers/{opened['ledger_id']}"
    switch = {"in_standings": True, "invite": opened["invite"], "by": "Ana"}
    refused = await client.patch(path, json=switch)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "host_only"
    host = {"Authorization": f"Bearer {opened['host_token']}"}
    answer = await client.patch(path, json=switch, headers=host)
    assert answer.status_code == 200 and answer.json()["in_standings"] is True
    assert (await ledger(client, opened))["in_standings"] is True


async def test_every_phone_sees_the_ledger_live(
    client: httpx.AsyncClient, ledger_hall: LedgerHall
) -> None:
    opened = await open_ledger(client)
    async with connect(ledger_hall.ws_url(opened["ledger_id"], opened["invite"])) as phone:
        first = json.loads(await asyncio.wait_for(phone.recv(), 10))
        assert first["type"] == "ledger" and first["revision"] == 0 and first["hands"] == []
        assert (await add(client, opened, full_flush(0, None, "1a 2a"))).status_code == 201
        update = json.loads(await asyncio.wait_for(phone.recv(), 10))
        assert update["revision"] == 1 and update["scores"] == {"Ana": 16, "Bo": -8, "Cy": -8}
    async with connect(ledger_hall.ws_url(opened["ledger_id"], "wrong")) as stranger:
        try:
            await asyncio.wait_for(stranger.recv(), 10)
            raise AssertionError("a stranger was sent the ledger")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4403
