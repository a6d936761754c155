"""HTTP limits on a real `serve` (`guarded_hall`, on Postgres): body and header sizes, the
time to send headers, Host and Origin checks, security headers, and errors that are
always JSON. The hostile inputs of issue 15 are among the cases."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.api.guarded_hall import (
    GuardedHall,
    fresh_address,
    json_body_of,
    read_answer,
    status_of,
)
from tests.api.live_server import LiveServer, create_room, invited, room_state


def _error_code(answer: bytes) -> str:
    return str(json.loads(json_body_of(answer))["error"]["code"])


# ----------------------------------------------------------------------------- bodies


def test_a_declared_huge_body_is_refused_before_it_is_read(guarded_hall: GuardedHall) -> None:
    before = guarded_hall.rss_kib()
    connections = [guarded_hall.raw(fresh_address()) for _ in range(4)]
    for connection in connections:
        connection.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"
        )
    # The answer comes with one byte of the 100 MB sent: nothing waits for the rest.
    for connection in connections:
        answer = read_answer(connection)
        assert status_of(answer) == 413 and _error_code(answer) == "body_too_large"
        assert b"connection: close" in answer.lower()
    megabyte = b" " * (1 << 20)
    for connection in connections:
        try:
            for _ in range(4):  # pushed anyway: the server has closed, nothing is read
                connection.sendall(megabyte)
        except OSError:
            pass
        connection.close()
    assert guarded_hall.rss_kib() - before < 30_000, "the bodies were read into memory"


def test_a_streamed_body_is_cut_off_at_the_cap(guarded_hall: GuardedHall) -> None:
    connection = guarded_hall.raw(fresh_address())
    chunk = b'{"variant": "hk", "name": "' + b"x" * 4000
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(3))
    connection.sendall(head + body)  # 12 KB so far, no final chunk
    answer = read_answer(connection)
    assert status_of(answer) == 413, answer[:200]
    assert _error_code(answer) == "body_too_large"
    assert b"connection: close" in answer.lower()
    connection.close()


async def test_a_small_body_still_works(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        answer = await client.post("/api/rooms", json={"variant": "hk", "name": "x" * 60})
    assert answer.status_code == 201


# ----------------------------------------------------------------------------- headers


@pytest.mark.parametrize("complete", [True, False], ids=["whole", "unfinished"])
def test_headers_over_the_cap_get_431(guarded_hall: GuardedHall, complete: bool) -> None:
    connection = guarded_hall.raw(fresh_address())
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 20_000
    connection.sendall(request + (b"\r\n\r\n" if complete else b""))
    answer = read_answer(connection)
    assert status_of(answer) == 431 and _error_code(answer) == "headers_too_large"
    connection.close()


def test_ten_megabytes_of_headers_are_never_taken(guarded_hall: GuardedHall) -> None:
    before = guarded_hall.rss_kib()
    connection = guarded_hall.raw(fresh_address())
    try:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 10_000_000)
        connection.sendall(b"\r\n\r\n")
    except OSError:
        pass  # refused and closed while we were still sending: what should happen
    answer = read_answer(connection)
    connection.close()
    assert answer == b"" or status_of(answer) == 431, answer[:100]
    assert guarded_hall.rss_kib() - before < 30_000
    assert httpx.get(f"{guarded_hall.base}/healthz").status_code == 200


def test_a_request_that_is_not_http_gets_a_json_400(guarded_hall: GuardedHall) -> None:
    connection = guarded_hall.raw(fresh_address())
    connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\x00: x\r\n\r\n")
    answer = read_answer(connection)
    connection.close()
    assert status_of(answer) == 400 and _error_code(answer) == "bad_request"


def test_headers_under_the_cap_are_served(guarded_hall: GuardedHall) -> None:
    answer = httpx.get(f"{guarded_hall.base}/healthz", headers={"X-Padding": "a" * 10_000})
    assert answer.status_code == 200


def test_a_silent_connection_is_closed(guarded_hall: GuardedHall) -> None:
    connection = guarded_hall.raw(fresh_address())
    started = time.monotonic()
    assert read_answer(connection, seconds=8) == b""
    assert 0.8 < time.monotonic() - started < 6, "closed after the 1 s header time"
    connection.close()


def test_headers_sent_slowly_get_408(guarded_hall: GuardedHall) -> None:
    connection = guarded_hall.raw(fresh_address())
    started = time.monotonic()
    answer = b""

    def trickle() -> None:
        # One byte every 0.2 s, for at most 4 s: the server gives up after 1 s.
        for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n":
            try:
                connection.send(bytes([byte]))
            except OSError:
                return
            time.sleep(0.2)
            if time.monotonic() - started > 4:
                return

    sender = threading.Thread(target=trickle)
    sender.start()
    answer = read_answer(connection, seconds=8)
    sender.join()
    connection.close()
    assert status_of(answer) == 408 and _error_code(answer) == "headers_too_slow"
    assert time.monotonic() - started < 6


async def test_a_kept_alive_connection_may_rest_between_requests(
    guarded_hall: GuardedHall,
) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        first = await client.get("/healthz")
        await asyncio.sleep(1.5)  # longer than the header time, shorter than keep-alive
        second = await client.get("/healthz")
    assert first.status_code == second.status_code == 200


# ----------------------------------------------------------------------------- Host


async def test_only_configured_hosts_are_answered(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        for path in ("/", "/api/rooms", "/api/dashboard/deals"):
            refused = await client.get(path, headers={"Host": "rebound.attacker.example"})
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == "host_not_allowed"
            assert "MAHJONG_ALLOWED_HOSTS" in refused.json()["error"]["message"]
        for host in ("mahjong.example:8443", "localhost:8000", "127.0.0.1", "[::1]:80"):
            assert (await client.get("/api/rooms", headers={"Host": host})).status_code == 200
        probe = await client.get("/healthz", headers={"Host": "10.0.0.7:8000"})
        assert probe.status_code == 200, "health probes use bare addresses"


def test_a_socket_for_another_host_is_refused(guarded_hall: GuardedHall) -> None:
    connection = guarded_hall.raw(fresh_address())
    connection.sendall(
        b"GET /ws/rooms/abc HTTP/1.1\r\nHost: rebound.attacker.example\r\n"
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    answer = read_answer(connection, seconds=5)
    connection.close()
    assert status_of(answer) == 400 and _error_code(answer) == "host_not_allowed"


# ----------------------------------------------------------------------------- Origin


async def test_cross_site_calls_change_nothing(guarded_hall: GuardedHall) -> None:
    address = fresh_address()
    async with guarded_hall.client(address) as client:
        room_id = await create_room(client, "kaki3")
        await client.post(f"/api/rooms/{room_id}/join", json=invited(room_id, name="Ana"))
        for origin in ("https://evil.example", "null", f"{guarded_hall.origin}.evil.example"):
            created = await client.post(
                "/api/rooms", json={"variant": "hk"}, headers={"Origin": origin}
            )
            assert created.status_code == 403, origin
            assert created.json()["error"]["code"] == "origin_not_allowed"
        # A "simple" cross-site form post: no preflight, so only the Origin check stops it.
        bots = await client.post(
            f"/api/rooms/{room_id}/bots",
            content=b"x",
            headers={"Origin": "https://evil.example", "Content-Type": "text/plain"},
        )
        assert bots.status_code == 403
        room = await room_state(client, room_id)
        assert [player["name"] for player in room["players"]] == ["Ana"]
        assert room["status"] == "waiting"
        # A cross-site read is harmless (the browser keeps the answer from the page).
        listed = await client.get("/api/rooms", headers={"Origin": "https://evil.example"})
        assert listed.status_code == 200


async def test_own_and_allowed_origins_and_scripts_may_change_things(
    guarded_hall: GuardedHall,
) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        for headers in (
            {"Origin": guarded_hall.origin},
            {"Origin": "https://friends.example"},
            {"Origin": "https://friends.example:443"},
            {},
        ):
            made = await client.post("/api/rooms", json={"variant": "hk"}, headers=headers)
            if made.status_code == 429:  # 3 a minute from one address: use another
                break
            assert made.status_code == 201, (headers, made.text)
    async with guarded_hall.client(fresh_address()) as client:
        made = await client.post(
            "/api/rooms", json={"variant": "hk"}, headers={"Origin": "https://friends.example"}
        )
        assert made.status_code == 201


async def test_a_cross_site_socket_is_refused(guarded_hall: GuardedHall) -> None:
    address = fresh_address()
    async with guarded_hall.client(address) as client:
        room_id = await create_room(client, "hk")
    with pytest.raises(InvalidStatus) as refused:
        await guarded_hall.socket(address, room_id, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body)["error"]["code"] == "origin_not_allowed"
    for origin in (guarded_hall.origin, "https://friends.example", None):
        socket = await guarded_hall.socket(address, room_id, origin=origin)
        assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "state"
        await socket.close()


# ----------------------------------------------------------------------------- pages


async def test_pages_carry_the_security_headers_and_no_inline_script(
    guarded_hall: GuardedHall,
) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        for path in ("/", "/rooms/abc123", "/dashboard", "/static/lobby.js", "/api/rooms"):
            answer = await client.get(path)
            assert answer.status_code == 200, path
            policy = answer.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
            assert "frame-ancestors 'none'" in policy
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            if path in ("/", "/rooms/abc123", "/dashboard"):
                scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", answer.text, re.S)
                assert scripts and all("src=" in attributes for attributes, _ in scripts)
                assert all(not body.strip() for _, body in scripts), "an inline script"
                assert not re.search(r"\son[a-z]+\s*=", answer.text), "an inline handler"


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/static/%00", 404, "not_found"),
        ("GET", "/static/..%2f..%2fetc%2fpasswd", 404, "not_found"),
        ("GET", "/api/dashboard/deals/99999999999999999999", 404, "deal_not_found"),
        ("GET", "/api/dashboard/deals/-1", 404, "deal_not_found"),
        ("GET", "/api/dashboard/deals?player=%00", 422, "validation_error"),
        ("GET", "/api/dashboard/standings?room=%00", 422, "validation_error"),
        ("GET", "/api/dashboard/charts?since=0001-01-01T00:00%2B01:00", 422, "validation_error"),
        ("GET", "/api/rooms/%00/results", 404, "room_not_found"),
        ("GET", "/api/rooms/%00", 404, "room_not_found"),
        ("POST", "/api/rooms/%00/join", 404, "room_not_found"),
        ("GET", "/api/rooms?limit=0", 422, "validation_error"),
        ("GET", "/api/rooms?limit=true", 422, "validation_error"),
        ("GET", "/api/rooms?status=%00", 422, "validation_error"),
        ("GET", "/api/nothing-here", 404, "not_found"),
        ("DELETE", "/api/rooms", 405, "method_not_allowed"),
    ],
)
async def test_hostile_inputs_get_json_errors(
    guarded_hall: GuardedHall, method: str, path: str, status: int, code: str
) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        body = {"name": "Ana"} if method == "POST" else None
        answer = await client.request(method, path, json=body)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]
    assert "Traceback" not in answer.text


async def test_the_whole_calendar_is_a_valid_date_range(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        answer = await client.get(
            "/api/dashboard/deals", params={"since": "0001-01-01", "until": "9999-12-31"}
        )
    assert answer.status_code == 200, answer.text
    assert answer.json()["deals"] == []


async def test_an_unexpected_error_is_a_json_500_without_a_traceback(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    async def broken() -> None:
        raise RuntimeError("secret internals /srv/app/module.py line 3")

    live.app.add_api_route("/api/broken-for-the-test", broken)
    answer = await http.get("/api/broken-for-the-test")
    assert answer.status_code == 500
    assert answer.json() == {
        "error": {"code": "internal_error", "message": "the server met an unexpected error"}
    }
    assert "secret" not in answer.text and "Traceback" not in answer.text
    assert (await http.get("/healthz")).status_code == 200, "the server lives on"


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "hk", "name": "nul\x00name"},
        {"variant": "hk", "name": "bell\x07"},
        {"variant": "hk", "name": "evil\u202etxt.exe"},
        {"variant": "hk", "name": "zalgo" + "\u0301\u0302\u0303\u0304\u0305\u0306"},
        {"variant": "hk", "name": "zero\u200bwidth"},
        {"variant": "hk", "name": "x" * 61},
        {"variant": "hk", "rounds": "2"},
        {"variant": "hk", "rounds": True},
        {"variant": "hk", "rounds": 2.0},
        {"variant": "hk", "turn_seconds": True},
        {"variant": "hk", "turn_seconds": "40"},
        {"variant": "hk", "name": 7},
        {"variant": 1},
    ],
)
async def test_bad_tables_are_refused_with_422(guarded_hall: GuardedHall, body: object) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        answer = await client.post("/api/rooms", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "validation_error"


async def test_table_and_player_names_are_cleaned(guarded_hall: GuardedHall) -> None:
    async with guarded_hall.client(fresh_address()) as client:
        room_id = await create_room(client, "kaki3", name="  Friday \t  Zoe\u0308 table ")
        room = await room_state(client, room_id)
        assert room["name"] == "Friday Zo\u00eb table"
        for bad in ("\u202eAna", "A" + "\u0301" * 5, "bell\x07"):
            refused = await client.post(
                f"/api/rooms/{room_id}/join", json=invited(room_id, name=bad)
            )
            assert refused.status_code == 422, bad
        seated = await client.post(
            f"/api/rooms/{room_id}/join", json=invited(room_id, name="Nguye\u0302\u0303n")
        )
        assert seated.status_code == 200
        room = await room_state(client, room_id)
        assert [player["name"] for player in room["players"]] == ["Nguy\u1ec5n"]
