"""Refused table sockets are logged as refusals, at INFO, and summed up in a flood
(issue 25, point 11): against a real `serve`, and `RefusalLog` on a clock of our own."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server.observability.access_log import RefusalLog
from tests.live import free_port
from tests.ops.log_capture import captured_log
from tests.serve import ServerProcess, serve_command, server_environment

FLOOD = 40  # of each kind


async def _knock(url: str, **options: object) -> str:
    """One handshake; what the server answered."""
    try:
        async with connect(url, open_timeout=10, **options) as socket:  # type: ignore[arg-type]
            await socket.recv()
    except InvalidStatus as refused:
        return str(refused.response.status_code)
    except ConnectionClosed as closed:
        return str(closed.rcvd.code if closed.rcvd else None)
    return "open"


def test_a_flood_of_refused_handshakes_is_summed_up(tmp_path: Path) -> None:
    port = free_port()
    env = server_environment(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}",
        PORT=str(port),
        MAHJONG_LOG_LEVEL="INFO",
        MAHJONG_SOCKETS_PER_ADDRESS="2",
    )
    server = ServerProcess(serve_command(), env, tmp_path / "serve.log")
    base = f"http://127.0.0.1:{port}"

    async def flood() -> dict[str, set[str]]:
        async with httpx.AsyncClient(base_url=base) as client:
            room = (await client.post("/api/rooms", json={"variant": "kaki3"})).json()
        url = f"ws://127.0.0.1:{port}/ws/rooms/{room['room_id']}"
        answers: dict[str, set[str]] = {"origin": set(), "cap": set(), "token": set()}
        for _ in range(FLOOD):  # a page on another site
            answers["origin"].add(await _knock(url, origin="https://elsewhere.example"))
        for _ in range(FLOOD):  # a token nobody was given
            answers["token"].add(await _knock(f"{url}?token=not-a-token"))
        holders = [await connect(f"{url}?invite={room['invite']}") for _ in range(2)]
        for _ in range(FLOOD):  # over the address's socket cap
            answers["cap"].add(await _knock(f"{url}?invite={room['invite']}"))
        for holder in holders:
            await holder.close()
        return answers

    try:
        server.wait_for(f"{base}/healthz")
        answers = asyncio.run(flood())
    finally:
        log = server.stop()
    assert answers == {"origin": {"403"}, "token": {"4401"}, "cap": {"429"}}
    lines = log.splitlines()
    assert [line for line in lines if " ERROR " in line] == []
    refused = [line for line in lines if "refused" in line]
    # One line for the first of each kind, and the summary written at shutdown.
    assert len(refused) <= 4, "\n".join(refused)
    summary = [line for line in refused if "more table socket handshakes" in line]
    assert len(summary) == 1 and " WARNING " in summary[0]
    assert f"refused {3 * (FLOOD - 1)} more" in summary[0]
    for kind in ("origin_not_allowed", "too_many_sockets", "4401"):
        assert kind in summary[0]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    with captured_log("text", "INFO") as stream:
        yield stream


def test_refusals_are_written_once_per_kind_and_window(captured: io.StringIO) -> None:
    clock = Clock()
    refusals = RefusalLog(window=10, clock=clock)
    for second in range(5):
        clock.now = second
        refusals.refused("too_many_sockets", "/ws/rooms/r", "127.0.0.1:1")
        refusals.refused("origin_not_allowed", "/ws/rooms/r", "127.0.0.1:2")
    assert captured.getvalue().count("refused:") == 2  # the first of each kind only
    assert "more table socket" not in captured.getvalue()
    clock.now = 12  # the window is over: the next refusal brings the summary first
    refusals.refused("too_many_sockets", "/ws/rooms/r", "127.0.0.1:1")
    text = captured.getvalue()
    assert "refused 8 more table socket handshakes in the last 10 s" in text
    assert "origin_not_allowed x4, too_many_sockets x4" in text
    assert text.count("refused:") == 3  # a new window starts with a line of its own
    refusals.flush()
    refusals.flush()
    assert captured.getvalue().count("more table socket") == 1  # nothing more was held
