"""Structured logs: JSON lines with room and deal ids, and never a token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from server.observability.logs import configure_logging, log_context, scrub
from tests.ops.log_capture import captured_log

TOKEN = "Zx81-secret_token.value"


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger writing JSON lines into a buffer, restored afterwards."""
    with captured_log("json", "DEBUG") as stream:
        yield stream


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_lines_carry_room_and_deal_ids(json_log: io.StringIO) -> None:
    log = logging.getLogger("server.rooms.table")
    with log_context(room_id="r-1"):
        log.info("deal %d starts", 3, extra={"deal_id": 17})
        with log_context(deal_id=18):
            log.warning("bot covers seat %s", "E")
    log.info("outside any room")
    first, second, third = _lines(json_log)
    assert first["message"] == "deal 3 starts"
    assert (first["room_id"], first["deal_id"]) == ("r-1", 17)
    assert (second["room_id"], second["deal_id"], second["level"]) == ("r-1", 18, "WARNING")
    assert (third["room_id"], third["deal_id"]) == (None, None)
    assert first["logger"] == "server.rooms.table"


@pytest.mark.parametrize(
    "text",
    [
        f"GET /ws/rooms/abc?token={TOKEN} accepted",
        f'{{"seat": "E", "token": "{TOKEN}"}}',
        f"Authorization: Bearer {TOKEN}",
        f"join ok token_hash={TOKEN}",
        f"admin_token: {TOKEN}",
        f"GET /api/rooms/r?invite={TOKEN} HTTP/1.1",
        f"< x-invite: {TOKEN}",
        f"< sec-websocket-protocol: mahjong-hall, mahjong-hall.token.{TOKEN}",
        f"< sec-websocket-protocol: mahjong-hall, mahjong-hall.invite.{TOKEN}",
    ],
)
def test_scrub_removes_token_values(text: str) -> None:
    cleaned = scrub(text)
    assert TOKEN not in cleaned
    assert "[redacted]" in cleaned


def test_scrub_leaves_ordinary_text_alone() -> None:
    text = "room r-1 deal 7: S wins 6 fan on a discard from E"
    assert scrub(text) == text


def test_tokens_are_scrubbed_from_args_extras_and_uvicorn_access_lines(
    json_log: io.StringIO,
) -> None:
    access = logging.getLogger("uvicorn.access")
    access.info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/ws/rooms/r?token={TOKEN}", "1.1", 101
    )
    logging.getLogger("server.api").info(
        "joined", extra={"token": TOKEN, "request": {"query": f"token={TOKEN}"}}
    )
    try:
        raise ValueError(f"bad token={TOKEN}")
    except ValueError:
        logging.getLogger("server.api").exception("failed")
    text = json_log.getvalue()
    assert TOKEN not in text
    lines = _lines(json_log)
    assert "/ws/rooms/r?token=[redacted]" in str(lines[0]["message"])
    assert lines[1]["token"] == "[redacted]"


def test_text_format_tags_room_and_deal() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    handler = configure_logging("text", "INFO", stream)
    try:
        with log_context(room_id="r-9", deal_id=4):
            logging.getLogger("server").info("token=%s seen", TOKEN)
    finally:
        root.removeHandler(handler)
    line = stream.getvalue().strip()
    assert "[room=r-9 deal=4]" in line
    assert TOKEN not in line
