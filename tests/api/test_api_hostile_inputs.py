"""Inputs a stranger can type that once answered 500, Python's own words, or the wrong thing,
against a real server (issue 25, points 6, 8 and 10)."""

from __future__ import annotations

import httpx
import pytest

from tests.api.error_codes import assert_documented_error, documented_http_codes
from tests.api.live_server import LiveServer, create_room, join

SUPERSCRIPT_TWO = "²"  # str.isdigit() says yes, int() says no
FULLWIDTH_ONE = "１"  # int() reads it as 1
LONG_NUMBER = "1" * 5000  # past Python's 4,300-digit limit for int()


def test_the_documented_table_is_read() -> None:
    codes = documented_http_codes()
    assert {"validation_error", "bad_json", "invite_required", "not_found"} <= codes


@pytest.mark.parametrize("route", ["/api/house-rules/hk", "/api/variants/hk"])
@pytest.mark.parametrize("field", ["min_fan", "fan_cap", "time_bank_seconds"])
@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, FULLWIDTH_ONE, LONG_NUMBER, "-1", " 1"])
async def test_rule_numbers_are_ascii_digits_only(
    http: httpx.AsyncClient, route: str, field: str, text: str
) -> None:
    answer = await http.get(route, params={field: text})
    error = assert_documented_error(answer, 422)
    assert error["code"] == "validation_error" and field in error["message"]


async def test_a_plain_rule_number_still_reads(http: httpx.AsyncClient) -> None:
    answer = await http.get("/api/house-rules/hk", params={"min_fan": "1"})
    assert answer.status_code == 200 and answer.json()["rules"]["min_fan"] == 1


@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, FULLWIDTH_ONE, LONG_NUMBER, "0", ""])
async def test_room_settle_up_value_is_read_one_way(
    live: LiveServer, http: httpx.AsyncClient, text: str
) -> None:
    room_id = await create_room(http, "kaki3", public=True)
    answer = await http.get(
        f"/api/rooms/{room_id}/settle-up", params={"currency": "MYR", "minor_per_point": text}
    )
    assert "minor_per_point" in assert_documented_error(answer, 422)["message"]


@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, FULLWIDTH_ONE, LONG_NUMBER])
async def test_dashboard_settlement_value_is_read_one_way(
    live: LiveServer, http: httpx.AsyncClient, text: str
) -> None:
    room_id = await create_room(http, "kaki3", public=True)
    answer = await http.get(
        f"/api/dashboard/rooms/{room_id}/settlement",
        params={"currency": "MYR", "minor_per_point": text},
    )
    assert "minor_per_point" in assert_documented_error(answer, 422)["message"]


@pytest.mark.parametrize("route", ["/api/rooms", "/api/dashboard/deals"])
@pytest.mark.parametrize("text", [SUPERSCRIPT_TWO, FULLWIDTH_ONE, LONG_NUMBER, "1.0"])
async def test_limits_are_read_one_way(http: httpx.AsyncClient, route: str, text: str) -> None:
    answer = await http.get(route, params={"limit": text})
    assert "limit" in assert_documented_error(answer, 422)["message"]


@pytest.mark.parametrize("tokens", ['"\\ud800"', '"ok", "\\udfff tail"'])
async def test_night_settle_up_with_a_lone_surrogate_adds_nothing(
    http: httpx.AsyncClient, tokens: str
) -> None:
    # JSON's escape carries a lone surrogate, which no UTF-8 encoder takes.
    content = (
        f'{{"tokens": [{tokens}], "since": "2026-12-01T18:00:00Z",'
        ' "until": "2026-12-02T02:00:00Z"}'
    )
    answer = await http.post(
        "/api/settle-up/night", content=content, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["rooms"] == [] and answer.json()["transfers"] == []


@pytest.mark.parametrize(
    "moments",
    [
        {"since": "0001-01-01T00:00:00+23:59", "until": "2026-12-02T02:00:00Z"},
        {"since": "2026-12-01T18:00:00Z", "until": "9999-12-31T23:59:59-23:59"},
        {"since": "2026-12-01", "until": "not a time"},
    ],
)
async def test_night_settle_up_times_past_the_calendar_are_refused(
    http: httpx.AsyncClient, moments: dict[str, str]
) -> None:
    answer = await http.post("/api/settle-up/night", json={"tokens": ["x"], **moments})
    assert_documented_error(answer, 422)


async def test_plain_points_are_worth_one_everywhere(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    room_id = await create_room(http, "kaki3")
    ana = await join(http, room_id, "Ana")
    bearer = {"Authorization": f"Bearer {ana['token']}"}
    game = await http.get(
        f"/api/rooms/{room_id}/settle-up",
        params={"currency": "points", "minor_per_point": "10"},
        headers=bearer,
    )
    assert "minor_per_point" in assert_documented_error(game, 422)["message"]
    night = await http.post(
        "/api/settle-up/night",
        json={
            "tokens": [ana["token"]],
            "since": "2026-12-01T18:00:00Z",
            "until": "2026-12-02T02:00:00Z",
            "currency": "points",
            "minor_per_point": 10,
        },
    )
    assert "minor_per_point" in assert_documented_error(night, 422)["message"]
    plain = await http.get(f"/api/rooms/{room_id}/settle-up", headers=bearer)
    assert plain.status_code == 200 and plain.json()["minor_per_point"] == 1


async def test_a_5000_digit_number_in_a_body_is_a_documented_error(
    http: httpx.AsyncClient,
) -> None:
    content = '{"variant": "hk", "rounds": ' + LONG_NUMBER + "}"
    answer = await http.post(
        "/api/rooms", content=content, headers={"Content-Type": "application/json"}
    )
    error = assert_documented_error(answer)
    assert error["code"] in ("bad_json", "validation_error")


async def test_unknown_paths_and_methods_answer_in_our_words(http: httpx.AsyncClient) -> None:
    assert_documented_error(await http.get("/api/no-such-thing"), 404)
    assert_documented_error(await http.delete("/api/rooms"), 405)


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "hk", "rounds": "2"},
        {"variant": "hk", "rounds": 9},
        {"variant": "xx"},
        {"variant": "hk", "colour": "red"},
        {},
        {"variant": "hk", "name": "a\u202eb"},
    ],
)
async def test_body_validation_is_in_our_words(
    http: httpx.AsyncClient, body: dict[str, object]
) -> None:
    assert_documented_error(await http.post("/api/rooms", json=body), 422)
