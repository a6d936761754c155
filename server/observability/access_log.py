"""The server's own access lines: one per HTTP request and per table socket, no secret in any.

uvicorn's access line prints the whole query string, and a table socket's URL may carry an
invite or a token (`?invite=`, `?token=`: outside clients may still send them there), so
`serve` turns uvicorn's access log off and this ASGI middleware, the outermost layer of the
app, writes the lines instead (logger `mahjong.access`, INFO), with the value of every
query field that names a secret replaced by `[redacted]` (`redacted_target`).

A refused WebSocket handshake is logged as what it is, a refusal, at INFO, and not once
per attempt: `RefusalLog` writes the first refusal of each kind in a window and counts the
rest, then one WARNING line sums them up. Any page on another site can make a browser try
a socket here, so a flood of refusals must not become a flood of lines. uvicorn's own line
for a handshake answered with an HTTP refusal ("ASGI callable returned without completing
handshake", at ERROR) is no error of ours: the middleware marks the refusal in a context
variable (`handshake_refused`), and the log filter (`logs.UvicornEchoFilter`) drops that
line and uvicorn's per-socket lines, which this middleware's own lines replace.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

import orjson

log = logging.getLogger("mahjong.access")

REDACTED = "[redacted]"
# Query fields whose values are secrets: a table's invite, a seat's or the dashboard's token.
SECRET_FIELDS = frozenset({"invite", "token"})
# A close before any message, with one of these codes, is a socket refused by the room
# layer after the handshake (bad token, no room, no spectators...): a refusal too.
REFUSAL_CLOSE_CODES = frozenset({1008, 1013, 4401, 4403, 4404, 4410, 4429, 4430, 4431})
SUMMARY_SECONDS = 60.0

# Set while a handshake that this app refused on purpose is being answered (its task's
# context), so uvicorn's ERROR line about it can be told from a real one.
handshake_refused: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "mahjong_handshake_refused", default=False
)


def redacted_target(scope: dict[str, Any]) -> str:
    """The request's path and query, with every secret field's value redacted."""
    path = str(scope.get("path", ""))
    raw = scope.get("query_string", b"")
    if not raw:
        return path
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    shown = [(name, REDACTED if name.lower() in SECRET_FIELDS else value) for name, value in pairs]
    return f"{path}?{urlencode(shown, safe='[]')}"


def _client(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "-"


class RefusalLog:
    """Refused handshakes, written once per kind and window, the rest summed up.

    `clock` gives seconds (monotonic); `window` is how long one summary covers. The first
    refusal of a kind in a window is written at INFO; the others are counted, and one
    WARNING line reports them when the window ends (a timer on the running loop) or, at
    the latest, with the next refusal after it.
    """

    def __init__(
        self, window: float = SUMMARY_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.window = window
        self.clock = clock
        self.started: float | None = None
        self.counted: dict[str, int] = {}
        self.timer: asyncio.TimerHandle | None = None

    def refused(self, kind: str, target: str, client: str) -> None:
        """One refused handshake of `kind` (its error code, or its close code)."""
        now = self.clock()
        if self.started is not None and now - self.started >= self.window:
            self.flush()
        if self.started is None:
            self.started = now
        if kind not in self.counted:
            self.counted[kind] = 0
            log.info(
                '%s - "WebSocket %s" refused: %s (more like it are summed up every %g s)',
                client,
                target,
                kind,
                self.window,
                extra={"refused": kind},
            )
            return
        self.counted[kind] += 1
        self._schedule_flush()

    def flush(self) -> None:
        """Write the summary of the window so far (nothing when nothing was held back)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        held = {kind: count for kind, count in self.counted.items() if count}
        if held:
            total = sum(held.values())
            kinds = ", ".join(f"{kind} x{count}" for kind, count in sorted(held.items()))
            log.warning(
                "refused %d more table socket handshakes in the last %g s: %s",
                total,
                self.window,
                kinds,
                extra={"refused": held},
            )
        self.started = None
        self.counted = {}

    def _schedule_flush(self) -> None:
        if self.timer is not None or self.started is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a unit test): the next refusal flushes
            return
        left = max(0.0, self.window - (self.clock() - self.started))
        self.timer = loop.call_later(left, self.flush)


class AccessLog:
    """ASGI middleware: one access line per request or socket, secrets redacted."""

    def __init__(self, app: Any, refusals: RefusalLog | None = None) -> None:
        self.app = app
        self.refusals = refusals or RefusalLog()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Any, receive: Any, send: Any) -> None:
        started = time.perf_counter()
        status = 500  # what the client gets if the app never answers

        async def noted(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, noted)
        finally:
            log.info(
                '%s - "%s %s HTTP/%s" %d %.1f ms',
                _client(scope),
                scope.get("method", ""),
                redacted_target(scope),
                scope.get("http_version", "1.1"),
                status,
                (time.perf_counter() - started) * 1000,
            )

    async def _socket(self, scope: Any, receive: Any, send: Any) -> None:
        # "opening" until the socket is accepted and its first message goes out (or the
        # handshake is refused); then every message is only passed on.
        phase = "opening"
        refused_with = ""

        async def noted(message: Any) -> None:
            nonlocal phase, refused_with
            if phase != "open":
                kind = message["type"]
                if kind == "websocket.accept":
                    phase = "accepted"
                elif kind == "websocket.send" and phase == "accepted":
                    phase = "open"
                    log.info('%s - "WebSocket %s" open', _client(scope), redacted_target(scope))
                elif kind == "websocket.close":
                    code = int(message.get("code", 1000))
                    if phase == "opening" or code in REFUSAL_CLOSE_CODES:
                        refused_with = str(code)
                    phase = "open"
                elif kind == "websocket.http.response.start":
                    handshake_refused.set(True)
                    refused_with = str(message.get("status", ""))
                elif kind == "websocket.http.response.body" and refused_with.isdigit():
                    refused_with = _error_code(message.get("body", b"")) or refused_with
            await send(message)

        try:
            await self.app(scope, receive, noted)
        finally:
            if refused_with:
                self.refusals.refused(refused_with, redacted_target(scope), _client(scope))


def _error_code(body: bytes) -> str:
    """The code of an error body in the protocol's shape, or ''."""
    try:
        return str(orjson.loads(body)["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return ""
