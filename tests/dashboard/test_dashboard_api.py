"""The dashboard API against Postgres holding the hand-made history (data/history.json).

Every expected figure below is worked out by hand from that file; the comments show the
arithmetic. Seats change between deals, so each player's deals are listed by seat.
"""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

pytestmark = pytest.mark.postgres


async def _deal_keys(
    client: httpx.AsyncClient, deal_ids: dict[str, int], **params: str
) -> list[str]:
    answer = await client.get("/api/dashboard/deals", params=params)
    assert answer.status_code == 200, answer.text
    by_id = {deal_id: key for key, deal_id in deal_ids.items()}
    return [by_id[deal["deal_id"]] for deal in answer.json()["deals"]]


async def test_recent_deals_newest_first_with_filters(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    assert await _deal_keys(dashboard, deal_ids) == ["d5", "d4", "d3", "d2", "d1"]
    assert await _deal_keys(dashboard, deal_ids, variant="kaki3") == ["d5", "d4"]
    assert await _deal_keys(dashboard, deal_ids, room="room-a") == ["d3", "d2", "d1"]
    assert await _deal_keys(dashboard, deal_ids, player="Dee") == ["d5", "d4"]
    assert await _deal_keys(dashboard, deal_ids, player="Cy") == ["d3", "d2", "d1"]
    assert await _deal_keys(dashboard, deal_ids, since="2026-11-02") == ["d5", "d4", "d3"]
    # `until` is a whole day, inclusive.
    assert await _deal_keys(dashboard, deal_ids, until="2026-11-01") == ["d2", "d1"]
    assert await _deal_keys(dashboard, deal_ids, outcome="timeout") == ["d2"]
    assert await _deal_keys(
        dashboard, deal_ids, player="Ana", variant="hk", since="2026-11-02"
    ) == ["d3"]
    assert await _deal_keys(dashboard, deal_ids, player="Nobody") == []


async def test_recent_deals_pages_and_summaries(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    first = (await dashboard.get("/api/dashboard/deals", params={"limit": 2})).json()
    second = (await dashboard.get("/api/dashboard/deals", params={"limit": 2, "offset": 2})).json()
    last = (await dashboard.get("/api/dashboard/deals", params={"limit": 2, "offset": 4})).json()
    assert [d["deal_id"] for d in first["deals"]] == [deal_ids["d5"], deal_ids["d4"]]
    assert [d["deal_id"] for d in second["deals"]] == [deal_ids["d3"], deal_ids["d2"]]
    assert first["has_more"] and second["has_more"] and not last["has_more"]
    d4 = first["deals"][1]
    assert d4["outcome"] == "win" and d4["fan"] == 6 and d4["duration_seconds"] == 240
    assert d4["winners"] == [{"seat": "S", "name": "Dee", "fan": 6, "limit": False, "points": 10}]
    assert [(p["seat"], p["name"], p["net_points"]) for p in d4["players"]] == [
        ("E", "Ana", -10),
        ("S", "Dee", 15),
        ("W", "Bot 3", -5),
    ]


async def test_deal_breakdown_has_patterns_payments_and_replay(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    answer = await dashboard.get(f"/api/dashboard/deals/{deal_ids['d3']}")
    assert answer.status_code == 200
    deal = answer.json()
    assert deal["outcome"] == "win" and deal["fan"] == 3 and deal["seed"] == "103"
    assert deal["winners"][0]["name"] == "Ana" and deal["winners"][0]["seat"] == "N"
    assert {p["id"] for p in deal["patterns"]} == {"self_draw", "dragon_set", "seat_wind_set"}
    # Ana (North) self-drew for 8 from each of the three others.
    assert [(p["from_name"], p["to_name"], p["points"]) for p in deal["payments"]] == [
        ("Bo", "Ana", 8),
        ("Cy", "Ana", 8),
        ("Bot 4", "Ana", 8),
    ]
    timed_out = (await dashboard.get(f"/api/dashboard/deals/{deal_ids['d2']}")).json()
    assert [a["seq"] for a in timed_out["actions"]] == [1, 2, 3, 4, 5, 6]
    assert timed_out["actions"][0] == {
        **timed_out["actions"][0],
        "seat": "E",
        "player": "Ana",
        "by_bot": True,
        "bot_reason": "timeout",
        "action": {"type": "discard", "tile": "1m"},
    }
    assert timed_out["actions"][-1]["action"] == {"type": "timeout"}


async def test_unknown_deal_is_404(dashboard: httpx.AsyncClient) -> None:
    answer = await dashboard.get("/api/dashboard/deals/987654")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "deal_not_found"


async def test_a_deal_in_progress_is_never_shown(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    # d6 is still being played: its seed would give away the wall and every hand.
    answer = await dashboard.get(f"/api/dashboard/deals/{deal_ids['d6']}")
    assert answer.status_code == 404
    listed = (await dashboard.get("/api/dashboard/deals", params={"limit": 200})).json()
    assert deal_ids["d6"] not in [deal["deal_id"] for deal in listed["deals"]]
    # Nor does its bot-covered turn count before the deal is over.
    cover = (await dashboard.get("/api/dashboard/operations")).json()["bot_cover"]
    assert {"name": "Ana", "timed_out": 2, "disconnected": 0} in cover


async def test_standings_arithmetic(dashboard: httpx.AsyncClient) -> None:
    answer = await dashboard.get("/api/dashboard/standings")
    assert answer.status_code == 200
    rows = {row["name"]: row for row in answer.json()["players"]}
    assert set(rows) == {"Ana", "Bo", "Cy", "Dee"}  # bots are left out by default
    # Ana: d1 East -16 (dealt in), d2 East -2, d3 North +24 (self-draw, 3 fan),
    # d4 East -10 (dealt in), d5 West 0.
    assert rows["Ana"] == {
        "name": "Ana",
        "is_bot": False,
        "deals": 5,
        "points": -4,
        "wins": 1,
        "self_draws": 1,
        "dealt_in": 2,
        "rooms": 2,
        "average_winning_fan": 3.0,
    }
    # Bo: d1 South +16 (4 fan on Ana's discard), d2 South -2, d3 East -8.
    assert (rows["Bo"]["points"], rows["Bo"]["wins"], rows["Bo"]["average_winning_fan"]) == (
        6,
        1,
        4.0,
    )
    # Cy: d1 West 0, d2 West +6 (kong), d3 South -8; never won.
    assert (rows["Cy"]["points"], rows["Cy"]["wins"], rows["Cy"]["average_winning_fan"]) == (
        -2,
        0,
        None,
    )
    # Dee: d4 South +15 (6 fan), d5 East 0.
    assert (rows["Dee"]["deals"], rows["Dee"]["points"], rows["Dee"]["dealt_in"]) == (2, 15, 0)
    order = [row["name"] for row in answer.json()["players"]]
    assert order == ["Dee", "Bo", "Cy", "Ana"]


async def test_standings_filtered_and_with_bots(dashboard: httpx.AsyncClient) -> None:
    hk = (await dashboard.get("/api/dashboard/standings", params={"variant": "hk"})).json()
    # Hong Kong only: Ana -16 - 2 + 24 = 6, Bo 16 - 2 - 8 = 6 (ties by name), Cy -2.
    assert [(r["name"], r["points"], r["deals"]) for r in hk["players"]] == [
        ("Ana", 6, 3),
        ("Bo", 6, 3),
        ("Cy", -2, 3),
    ]
    with_bots = (
        await dashboard.get("/api/dashboard/standings", params={"include_bots": "true"})
    ).json()
    bots = {r["name"]: r["points"] for r in with_bots["players"] if r["is_bot"]}
    assert bots == {"Bot 4": 0 - 2 - 8, "Bot 3": -5 + 0}


async def test_charts(dashboard: httpx.AsyncClient) -> None:
    charts = (await dashboard.get("/api/dashboard/charts")).json()
    assert charts["outcomes"] == {"win": 3, "draw": 1, "timeout": 1}
    assert charts["winning_fan"] == [
        {"fan": 3, "count": 1},
        {"fan": 4, "count": 1},
        {"fan": 6, "count": 1},
    ]
    assert charts["patterns"][0] == {"id": "dragon_set", "count": 2}  # d3 and d4
    assert {p["id"] for p in charts["patterns"]} >= {"seven_pairs", "self_draw", "face"}
    # Durations: d5 60 s, d3 120 s, d1 180 s, d4 240 s, d2 300 s (the limit).
    assert [b["count"] for b in charts["durations"]] == [0, 1, 1, 1, 1, 1]
    kaki3 = (await dashboard.get("/api/dashboard/charts", params={"variant": "kaki3"})).json()
    assert kaki3["outcomes"] == {"win": 1, "draw": 1, "timeout": 0}


async def test_operations_bot_cover_and_deal_limit(
    dashboard: httpx.AsyncClient, deal_ids: dict[str, int]
) -> None:
    answer = (await dashboard.get("/api/dashboard/operations")).json()
    # d2: Ana (East) timed out twice, Bo (South) was away once; North is a bot seat.
    assert answer["bot_cover"] == [
        {"name": "Ana", "timed_out": 2, "disconnected": 0},
        {"name": "Bo", "timed_out": 0, "disconnected": 1},
    ]
    assert answer["deal_limit"]["count"] == 1
    assert [d["deal_id"] for d in answer["deal_limit"]["recent"]] == [deal_ids["d2"]]
    assert answer["live"]["rooms"] == []  # no room manager runs in this test
    later = (
        await dashboard.get("/api/dashboard/operations", params={"since": "2026-11-02"})
    ).json()
    assert later["bot_cover"] == [] and later["deal_limit"]["count"] == 0


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"variant": "riichi"}, "variant"),
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-11-05", "until": "2026-11-01"}, "since"),
        ({"outcome": "lost"}, "outcome"),
    ],
)
async def test_bad_filters_are_refused_clearly(
    dashboard: httpx.AsyncClient, params: dict[str, str], field: str
) -> None:
    answer = await dashboard.get("/api/dashboard/deals", params=params)
    assert answer.status_code == 422
    assert field in answer.json()["error"]["message"]


async def test_admin_token_guards_the_api_but_not_room_results(
    dashboard_app: FastAPI, dashboard: httpx.AsyncClient
) -> None:
    dashboard_app.state.admin_token = "s3cret-admin"  # as `serve` sets it from its settings
    for path in (
        "/api/dashboard/deals",
        "/api/dashboard/standings",
        "/api/dashboard/charts",
        "/api/dashboard/operations",
    ):
        refused = await dashboard.get(path)
        assert refused.status_code == 401, path
        assert refused.json()["error"]["code"] == "unauthorized"
        wrong = await dashboard.get(path, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        by_header = await dashboard.get(path, headers={"Authorization": "Bearer s3cret-admin"})
        assert by_header.status_code == 200, path
        by_query = await dashboard.get(path, params={"token": "s3cret-admin"})
        assert by_query.status_code == 200, path
    # The page is a shell with no figures: it loads, then asks for the token.
    page = await dashboard.get("/dashboard")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    results = await dashboard.get("/api/rooms/room-a/results")
    assert results.status_code == 200


async def test_filters_the_rollup_cannot_answer_go_to_sql(dashboard: httpx.AsyncClient) -> None:
    # A time of day: deals ending after 10:04 on 1 November are d2, d3, d4 and d5.
    # Ana: d2 -2, d3 +24, d4 -10, d5 0.
    later = await dashboard.get(
        "/api/dashboard/standings", params={"since": "2026-11-01T10:04:00Z"}
    )
    rows = {row["name"]: row for row in later.json()["players"]}
    assert (rows["Ana"]["deals"], rows["Ana"]["points"]) == (4, 12)
    # An outcome: only the three wins, lasting d3 120 s, d1 180 s and d4 240 s.
    wins = (await dashboard.get("/api/dashboard/charts", params={"outcome": "win"})).json()
    assert wins["outcomes"] == {"win": 3, "draw": 0, "timeout": 0}
    assert [b["count"] for b in wins["durations"]] == [0, 0, 1, 1, 1, 0]
