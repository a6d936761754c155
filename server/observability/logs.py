"""Structured logging: JSON lines (``MAHJONG_LOG_FORMAT=json``) or plain text.

Every line carries the ``room_id`` and ``deal_id`` of the table it is about, taken from
``log_context(...)`` (a context variable, so each table's asyncio task keeps its own)
or from ``extra={"room_id": ...}``. Player tokens and invites are secrets: a filter on the
handler scrubs anything that looks like one (``token=...``, ``invite=...``, ``"token":
"..."``, ``Bearer ...``) from every record of every logger, uvicorn's included, before any
formatter sees it. The access lines are the app's own (``access_log.py``); uvicorn's echoes
of them are dropped (`UvicornEchoFilter`).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from server.observability.access_log import REDACTED, handshake_refused

# key=value, key: value and "key": "value" where the key names a token or secret,
# and HTTP bearer credentials. Hashes of tokens are scrubbed too: they are not the
# token, but nothing needs them in a log.
_SECRET_PAIR = re.compile(
    r"""(?P<key>["']?[A-Za-z_]*(?:token|secret|password|invite)[A-Za-z_]*["']?\s*[:=]\s*["']?)"""
    r"""(?P<value>[^"'&\s,;}]+)""",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<key>bearer\s+)(?P<value>[^\s\"',;]+)", re.IGNORECASE)
# A secret offered as a WebSocket subprotocol (api/room_access.py), which websockets logs
# with the handshake's headers at DEBUG.
_OFFERED = re.compile(r"(?P<key>mahjong-hall\.(?:token|invite)\.)(?P<value>[A-Za-z0-9_-]+)")

# An immutable default (a tuple of pairs) so no task can change another's context.
_context: contextvars.ContextVar[tuple[tuple[str, Any], ...]] = contextvars.ContextVar(
    "mahjong_log_context", default=()
)

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys()) | {
    "message",
    "asctime",
    "room_id",
    "deal_id",
    "color_message",
}


def scrub(text: str) -> str:
    """``text`` with every token-like value replaced by ``[redacted]``."""
    text = _SECRET_PAIR.sub(lambda m: m.group("key") + REDACTED, text)
    text = _OFFERED.sub(lambda m: m.group("key") + REDACTED, text)
    return _BEARER.sub(lambda m: m.group("key") + REDACTED, text)


def _scrub_value(value: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, bytes):
        return scrub(value.decode("utf-8", "replace"))
    if isinstance(value, dict):
        return {k: _scrub_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_scrub_value(v) for v in value)
    return value


@contextlib.contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Attach fields (``room_id=..., deal_id=...``) to every log line inside the block."""
    token = _context.set(tuple({**dict(_context.get()), **fields}.items()))
    try:
        yield
    finally:
        _context.reset(token)


def bind_log_context(**fields: Any) -> None:
    """Attach fields to every later log line of the current task (its context)."""
    _context.set(tuple({**dict(_context.get()), **fields}.items()))


class ContextFilter(logging.Filter):
    """Copy the current ``log_context`` onto each record; ``extra=`` values win."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always keeps the record; only adds attributes."""
        for key, value in _context.get():
            if not hasattr(record, key):
                setattr(record, key, value)
        for key in ("room_id", "deal_id"):
            if not hasattr(record, key):
                setattr(record, key, None)
        return True


class TokenScrubFilter(logging.Filter):
    """Remove token-like values from the message, its arguments and its extras."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always keeps the record, scrubbed in place."""
        try:
            # Scrub the merged message: "token=%s" with the token in args is only
            # recognisable once the two are put together.
            record.msg, record.args = scrub(record.getMessage()), None
        except (TypeError, ValueError):  # a malformed format string: scrub the parts
            record.msg = scrub(str(record.msg))
            record.args = _scrub_value(record.args) if record.args else None
        for key, value in list(vars(record).items()):
            if key in _STANDARD_ATTRIBUTES:
                continue
            if "token" in key.lower():
                setattr(record, key, REDACTED)
            else:
                setattr(record, key, _scrub_value(value))
        return True


# uvicorn's per-socket lines ('... "WebSocket /ws/..." [accepted]', '... 403'), which the
# app's own access lines replace, and its line for a handshake the app refused with an
# HTTP answer on purpose.
_UVICORN_SOCKET_LINE = '%s - "WebSocket %s"'
_UNFINISHED_HANDSHAKE = "ASGI callable returned without completing handshake"


class UvicornEchoFilter(logging.Filter):
    """Drop uvicorn's lines that only echo what the app logs itself, better worded."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for uvicorn's socket access lines, and for its ERROR about a handshake
        the app refused on purpose (``access_log.handshake_refused``)."""
        if not record.name.startswith("uvicorn"):
            return True
        message = str(record.msg)
        if message.startswith(_UVICORN_SOCKET_LINE):
            return False
        return not (message.startswith(_UNFINISHED_HANDSHAKE) and handshake_refused.get())


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, room_id, deal_id, extras."""

    def format(self, record: logging.LogRecord) -> str:
        """Render the record; the message is scrubbed once more as it is assembled."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": scrub(record.getMessage()),
            "room_id": getattr(record, "room_id", None),
            "deal_id": getattr(record, "deal_id", None),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRIBUTES and key not in line:
                line[key] = value
        if record.exc_info:
            line["exception"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """Plain lines for a terminal, with the room and deal when there are any."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s%(where)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """Add the ``[room=... deal=...]`` tag, then format as usual."""
        parts = [
            f"{key}={getattr(record, key + '_id', None)}"
            for key in ("room", "deal")
            if getattr(record, key + "_id", None) is not None
        ]
        record.where = f" [{' '.join(parts)}]" if parts else ""
        return scrub(super().format(record))


def make_handler(log_format: str | None = None, stream: Any = None) -> logging.Handler:
    """A stream handler with the formatter for ``log_format`` and both filters."""
    chosen = (log_format or "text").lower()
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonLinesFormatter() if chosen == "json" else TextFormatter())
    handler.addFilter(UvicornEchoFilter())
    handler.addFilter(ContextFilter())
    handler.addFilter(TokenScrubFilter())
    return handler


def configure_logging(
    log_format: str | None = None, level: str | None = None, stream: Any = None
) -> logging.Handler:
    """Route the root logger and uvicorn's loggers through one scrubbing handler.

    ``log_format`` is ``"json"`` or ``"text"`` (default text); ``level`` defaults to INFO
    (``serve`` passes ``MAHJONG_LOG_FORMAT`` and ``MAHJONG_LOG_LEVEL`` from its settings). Returns the handler,
    so a test can remove it again.
    """
    handler = make_handler(log_format, stream)
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_mahjong_hall", False):
            root.removeHandler(old)
    handler._mahjong_hall = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel((level or "INFO").upper())
    # uvicorn's own handlers would bypass the scrubber (its access line holds the
    # WebSocket URL, token included), so its loggers hand their records to ours.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
        uvicorn_logger.setLevel(logging.NOTSET)  # the root's level decides, as for the rest
    return handler


def uvicorn_log_config(log_format: str | None = None, level: str | None = None) -> dict[str, Any]:
    """A ``log_config`` for ``uvicorn.run`` that installs the same handler and filters."""
    chosen = (log_format or "text").lower()
    formatter = JsonLinesFormatter if chosen == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "echoes": {"()": UvicornEchoFilter},
            "context": {"()": ContextFilter},
            "scrub": {"()": TokenScrubFilter},
        },
        "formatters": {"hall": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "hall",
                "filters": ["echoes", "context", "scrub"],
            }
        },
        "root": {
            "handlers": ["stderr"],
            "level": (level or "INFO").upper(),
        },
        "loggers": {
            name: {"handlers": [], "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
