"""An evening at a real `serve`, its whole log captured: no invite or token issued is in it
(issue 25, point 4).

Everything a player, a spectator, the host, an outside script and the table page do with a
secret: invites in bodies, headers, subprotocols and queries (the documented `?invite=` and
`?token=` of outside clients), seat tokens the same ways, the dashboard's admin token in its
query and as a bearer, a removed player knocking again, wrong secrets refused, replays and
settle-ups, and Chromium joining a private table by its invite link. The server logs at
DEBUG, so every line any logger writes is searched. The access lines must be there (with
`[redacted]` where a query held a secret), so the search is over a log that saw it all.
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.api.live_server import TableClient
from tests.live import CHROMIUM, CHROMIUM_ARGS, free_port, require_chromium
from tests.serve import ServerProcess, serve_command, server_environment

ADMIN_TOKEN = secrets.token_urlsafe(24)


class Evening:
    """The server, and every secret it handed out."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.ws = base.replace("http://", "ws://")
        self.secrets: dict[str, str] = {"admin": ADMIN_TOKEN}

    def keep(self, label: str, secret: str) -> str:
        self.secrets[label] = secret
        return secret

    async def room(self, client: httpx.AsyncClient, label: str, **fields: Any) -> dict[str, Any]:
        answer = await client.post("/api/rooms", json={"variant": "kaki3", **fields})
        assert answer.status_code == 201, answer.text
        opened = dict(answer.json())
        self.keep(f"{label} invite", opened["invite"])
        return opened

    async def seat(
        self, client: httpx.AsyncClient, room: dict[str, Any], name: str
    ) -> dict[str, Any]:
        body = {"name": name, "invite": room["invite"]}
        answer = await client.post(f"/api/rooms/{room['room_id']}/join", json=body)
        assert answer.status_code == 200, answer.text
        seated = dict(answer.json())
        self.keep(f"{name}'s token", seated["token"])
        return seated

    async def player(self, room_id: str, token: str, *, by_query: bool) -> TableClient:
        """A seat's socket: an outside client's `?token=`, or the page's subprotocol."""
        url = f"{self.ws}/ws/rooms/{room_id}"
        if by_query:
            return TableClient(await connect(f"{url}?token={token}", max_size=None), token[:4])
        offered = ["mahjong-hall", f"mahjong-hall.token.{token}"]
        socket = await connect(url, subprotocols=offered, max_size=None)  # type: ignore[arg-type]
        assert socket.subprotocol == "mahjong-hall"
        return TableClient(socket, token[:4])


async def _refused_socket(url: str, **options: Any) -> int | None:
    """The close code of a socket the server refuses after its handshake."""
    try:
        async with connect(url, **options) as socket:
            await socket.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    return None


async def _private_game(evening: Evening, client: httpx.AsyncClient) -> dict[str, Any]:
    """Ana (host, by query) and Bo (by subprotocol) play a deal with a bot; two spectators
    watch; then Ana removes Bo, who knocks again."""
    room = await evening.room(client, "private", turn_seconds=30)
    room_id, invite = room["room_id"], room["invite"]
    ana = await evening.seat(client, room, "Ana")
    bo = await evening.seat(client, room, "Bo")
    ana_socket = await evening.player(room_id, ana["token"], by_query=True)
    bo_socket = await evening.player(room_id, bo["token"], by_query=False)
    watcher = await connect(f"{evening.ws}/ws/rooms/{room_id}?invite={invite}")
    quiet_watcher = await connect(
        f"{evening.ws}/ws/rooms/{room_id}",
        subprotocols=["mahjong-hall", f"mahjong-hall.invite.{invite}"],  # type: ignore[list-item]
    )
    wrong = secrets.token_urlsafe(24)
    assert await _refused_socket(f"{evening.ws}/ws/rooms/{room_id}?invite={wrong}") == 4403
    for socket in (ana_socket, bo_socket):
        await socket.receive()
    bots = await client.post(f"/api/rooms/{room_id}/bots", json={"invite": invite})
    assert bots.status_code == 200, bots.text
    await asyncio.gather(ana_socket.play_until_result(), bo_socket.play_until_result())
    await ana_socket.send({"type": "remove_player", "player_index": bo["player_index"]})
    await asyncio.sleep(0.5)
    knock = f"{evening.ws}/ws/rooms/{room_id}?token={bo['token']}"
    assert await _refused_socket(knock) == 4401
    for closing in (ana_socket.socket, bo_socket.socket, watcher, quiet_watcher):
        await closing.close()
    return {"room": room, "ana": ana, "bo": bo}


async def _reads(evening: Evening, client: httpx.AsyncClient, game: dict[str, Any]) -> None:
    """Every read of a private table, each way a secret can ride along."""
    room_id, invite = game["room"]["room_id"], game["room"]["invite"]
    token = game["ana"]["token"]
    ways: list[dict[str, Any]] = [
        {"params": {"invite": invite}},
        {"headers": {"X-Invite": invite}},
        {"params": {"token": token}},
        {"headers": {"Authorization": f"Bearer {token}"}},
    ]
    for way in ways:
        for path in ("", "/results", "/settle-up", "/deals/1", "/deals/1/export"):
            answer = await client.get(f"/api/rooms/{room_id}{path}", **way)
            assert answer.status_code == 200, (path, way, answer.text)
        page = await client.get(f"/rooms/{room_id}/deals/1", **way)
        assert page.status_code == 200
    wrong = await client.get(f"/api/rooms/{room_id}", params={"invite": "x" * 32})
    assert wrong.status_code == 403
    night = await client.post(
        "/api/settle-up/night",
        json={
            "tokens": [token, game["bo"]["token"]],
            "since": "2000-01-01T00:00:00Z",
            "until": "2100-01-01T00:00:00Z",
        },
    )
    assert night.status_code == 200 and night.json()["rooms"] == [room_id]
    for way in (
        {"params": {"token": ADMIN_TOKEN}},
        {"headers": {"Authorization": f"Bearer {ADMIN_TOKEN}"}},
    ):
        for path in (
            "/api/dashboard/deals",
            "/api/dashboard/operations",
            f"/api/dashboard/rooms/{room_id}/settlement",
        ):
            assert (await client.get(path, **way)).status_code == 200, path
    assert (await client.get("/dashboard", params={"token": ADMIN_TOKEN})).status_code == 200
    assert (await client.get("/api/dashboard/deals", params={"token": "nope"})).status_code == 401


async def _public_game(evening: Evening, client: httpx.AsyncClient) -> str:
    """Di plays a deal at a public table, by query; the page's invite-less socket too."""
    room = await evening.room(client, "public", public=True)
    room_id = room["room_id"]
    di = await client.post(f"/api/rooms/{room_id}/join", json={"name": "Di"})
    evening.keep("Di's token", di.json()["token"])
    player = await evening.player(room_id, di.json()["token"], by_query=True)
    await player.receive()
    assert (await client.post(f"/api/rooms/{room_id}/bots", json={})).status_code == 200
    await player.play_until_result()
    await player.close()
    return str(room_id)


async def _evening(evening: Evening) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=evening.base, timeout=30) as client:
        game = await _private_game(evening, client)
        await _reads(evening, client, game)
        await _public_game(evening, client)
        browser_room = await evening.room(client, "browser")
        return dict(browser_room)


def _page_joins_by_invite_link(evening: Evening, room: dict[str, Any]) -> None:
    """Chromium opens the invite link, joins by the form, and its socket takes the seat."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(room["url"])
            page.get_by_test_id("join-name").fill("Eve")
            page.get_by_test_id("join-submit").click()
            page.locator("#table").wait_for(state="visible")
            token = page.evaluate(
                f"JSON.parse(localStorage.getItem('mahjong-hall:seat:{room['room_id']}')).token"
            )
            evening.keep("Eve's token", token)
            for _ in range(100):
                seen = httpx.get(
                    f"{evening.base}/api/rooms/{room['room_id']}",
                    headers={"X-Invite": room["invite"]},
                    timeout=10,
                ).json()
                if seen["players"] and seen["players"][0]["connected"]:
                    break
                page.wait_for_timeout(100)
            else:
                raise AssertionError("the page's socket never took Eve's seat")
        finally:
            browser.close()


def test_an_evening_leaves_no_secret_in_the_log(tmp_path: Path) -> None:
    require_chromium()
    port = free_port()
    env = server_environment(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}",
        PORT=str(port),
        MAHJONG_LOG_LEVEL="DEBUG",
        MAHJONG_ADMIN_TOKEN=ADMIN_TOKEN,
        MAHJONG_BOT_DELAY="0",
        MAHJONG_JOIN_GRACE_SECONDS="0",
        MAHJONG_NEXT_DEAL_SECONDS="3600",
    )
    server = ServerProcess(serve_command(), env, tmp_path / "serve.log")
    evening = Evening(f"http://127.0.0.1:{port}")
    try:
        server.wait_for(f"{evening.base}/healthz")
        browser_room = asyncio.run(_evening(evening))
        _page_joins_by_invite_link(evening, browser_room)
    finally:
        log = server.stop()
    # The log saw the evening: its access lines, the queries' secrets redacted.
    assert "/ws/rooms/" in log and "/api/settle-up/night" in log
    assert "invite=[redacted]" in log and "token=[redacted]" in log
    assert len(evening.secrets) >= 8
    found = {label for label, secret in evening.secrets.items() if secret in log}
    lines = [line for line in log.splitlines() if any(s in line for s in evening.secrets.values())]
    assert found == set(), f"secrets in the log: {sorted(found)}:\n" + "\n".join(lines[:5])
