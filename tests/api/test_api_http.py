"""The HTTP interface over a real server: rooms, joining, bots, errors, public state, pages."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from tests.api.live_server import (
    LiveServer,
    add_bots,
    create_room,
    invited,
    join,
    room_results,
    room_state,
)


async def test_create_join_and_fill_with_bots(http: httpx.AsyncClient) -> None:
    room_id = await create_room(http, "hk", turn_seconds=40, deal_seconds=300, public=True)
    seated = await join(http, room_id, "Ana")
    assert seated["seat"] == "E" and seated["player_index"] == 0 and len(seated["token"]) >= 20
    second = await join(http, room_id, "Bo")
    assert second["seat"] == "S" and second["token"] != seated["token"]
    listed = (await http.get("/api/rooms", params={"status": "waiting"})).json()["rooms"]
    assert [(r["room_id"], r["free_seats"]) for r in listed] == [(room_id, 2)]
    bots = await http.post(f"/api/rooms/{room_id}/bots", json={})  # as the browser sends it
    assert bots.status_code == 200 and bots.json()["bots"] == [2, 3]
    room = await room_state(http, room_id)
    assert room["status"] == "playing" and room["deal_no"] == 1
    assert [p["name"] for p in room["players"]][:2] == ["Ana", "Bo"]
    assert room["table"]["me"] is None and "hand" not in room["table"]
    assert all("hand" not in seat for seat in room["table"]["players"].values())
    full = await http.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Cy"))
    assert full.status_code == 409 and full.json()["error"]["code"] == "room_full"
    again = await add_bots(http, room_id)
    assert again.status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "riichi"}, 422, "validation_error"),
        ({}, 422, "validation_error"),
        ({"variant": "hk", "turn_seconds": -1}, 422, "validation_error"),
        ({"variant": "hk", "deal_seconds": "long"}, 422, "validation_error"),
        ({"variant": "hk", "rounds": 9}, 422, "validation_error"),
        ({"variant": "hk", "colour": "red"}, 422, "validation_error"),
        (["hk"], 422, "validation_error"),
    ],
)
async def test_bad_room_requests_get_clear_errors(
    http: httpx.AsyncClient, body: object, status: int, code: str
) -> None:
    answer = await http.post("/api/rooms", json=body)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]


async def test_malformed_json_unknown_rooms_and_names(http: httpx.AsyncClient) -> None:
    answer = await http.post(
        "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json"
    for method, path in (
        ("GET", "/api/rooms/nope"),
        ("POST", "/api/rooms/nope/bots"),
        ("GET", "/api/rooms/nope/results"),
    ):
        missing = await http.request(method, path)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "room_not_found"
    missing_join = await http.post("/api/rooms/nope/join", json={"name": "Ana"})
    assert missing_join.status_code == 404
    room_id = await create_room(http, "kaki3")
    await join(http, room_id, "Ana")
    taken = await http.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name=" ana "))
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    for bad_name in ("", "   ", "x" * 40, "tab\tname\x00"):
        refused = await http.post(
            f"/api/rooms/{room_id}/join", json=invited(room_id, name=bad_name)
        )
        assert refused.status_code == 422, bad_name


async def test_health_and_results_of_a_fresh_room(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).json() == {"status": "ok"}
    room_id = await create_room(http, "kaki3")
    results = await room_results(http, room_id)
    assert results["deals"] == []


async def test_pages_are_served_from_the_web_directory(
    live: LiveServer, http: httpx.AsyncClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = tmp_path / "web"
    web.mkdir()
    monkeypatch.setattr(
        live.app.state, "settings", replace(live.app.state.settings, web_directory=web)
    )
    assert (await http.get("/")).status_code == 404, "a missing page is a 404, not a crash"
    (web / "index.html").write_text("<h1>lobby</h1>")
    (web / "table.html").write_text("<h1>table</h1>")
    (web / "app.js").write_text("let x = 1;")
    (tmp_path / "secret.txt").write_text("no")
    assert (await http.get("/")).text == "<h1>lobby</h1>"
    assert (await http.get("/rooms/abc123")).text == "<h1>table</h1>"
    assert (await http.get("/static/app.js")).text == "let x = 1;"
    assert (await http.get("/static/../secret.txt")).status_code == 404
    assert (await http.get("/static/%2e%2e/secret.txt")).status_code == 404
