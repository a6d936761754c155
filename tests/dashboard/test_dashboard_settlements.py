"""The dashboard's games and house rules over its API, on the hand-made history (Postgres
and SQLite): each stored deal says the rules it was played by, and a room's games are
settled with the engine's fewest transfers at the value asked for (the page itself:
test_dashboard_games_page.py)."""

from __future__ import annotations

import httpx

from server.engine.settle_up import RINGGIT, PointValue, render_text, settle_up
from tests.dashboard.history import load_history


def _history_balances(room_id: str) -> dict[str, int]:
    """Each player's points over the history's finished deals of `room_id`, by name."""
    history = load_history()
    room = next(room for room in history["rooms"] if room["room_id"] == room_id)
    names = {player["index"]: player["name"] for player in room["players"]}
    balances: dict[str, int] = {}
    for deal in history["deals"]:
        if deal["room_id"] != room_id or "result" not in deal:
            continue
        for seat, index in deal["seat_players"].items():
            name = names[index]
            balances[name] = balances.get(name, 0) + deal["result"]["scores"][seat]
    return balances


async def test_a_rooms_games_are_settled_by_the_engine(dashboard: httpx.AsyncClient) -> None:
    answer = await dashboard.get("/api/dashboard/rooms/room-a/settlement")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["currency"] == "points" and body["minor_per_point"] == 1
    [game] = body["games"]
    balances = _history_balances("room-a")
    expected = settle_up(balances)
    assert game["balances"] == balances and sum(balances.values()) == 0
    assert game["transfers"] == expected.to_json()["transfers"]
    assert game["text"] == render_text(expected)
    assert [deal["deal_no"] for deal in game["deals"]] == [1, 2, 3]
    # The history's deals stored no rules: they were played by the seed's.
    assert game["house_rules"] == {} and game["rules"]["min_fan"] == 3

    ringgit = await dashboard.get(
        "/api/dashboard/rooms/room-b/settlement", params={"currency": "MYR", "minor_per_point": 10}
    )
    [kaki3] = ringgit.json()["games"]
    expected = settle_up(_history_balances("room-b"), PointValue(RINGGIT, 10))
    assert kaki3["transfers"] == expected.to_json()["transfers"]
    assert all(t["amount_minor"] == t["points"] * 10 for t in kaki3["transfers"])
    assert [deal["deal_no"] for deal in kaki3["deals"]] == [1, 2], "a deal in play is left out"


async def test_bad_values_and_unknown_rooms_are_refused_clearly(
    dashboard: httpx.AsyncClient,
) -> None:
    for params in (
        {"currency": "USD"},
        {"currency": "MYR", "minor_per_point": "0"},
        {"currency": "MYR", "minor_per_point": "ten"},
        {"currency": "points", "minor_per_point": "5"},
    ):
        answer = await dashboard.get("/api/dashboard/rooms/room-a/settlement", params=params)
        assert answer.status_code == 422, params
        assert answer.json()["error"]["code"] == "validation_error"
    missing = await dashboard.get("/api/dashboard/rooms/no-such-room/settlement")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "room_not_found"


async def test_every_listed_deal_says_which_rules_it_was_played_by(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    page = (await dashboard.get("/api/dashboard/deals")).json()
    assert {deal["house_rules"] == {} for deal in page["deals"]} == {True}
    assert {deal["rules_stored"] for deal in page["deals"]} == {False}
    detail = (await dashboard.get(f"/api/dashboard/deals/{deal_ids['d4']}")).json()
    assert detail["rules"]["variant"] == "kaki3" and detail["house_rules"] == {}
