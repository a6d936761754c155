"""The door of every request: Host and Origin checks, the body size cap, security headers.

One ASGI middleware in front of the whole app, so nothing reaches a route (nor reads a
body into memory) before these checks pass:

- `Host` must be a name this server answers to, else a page on another domain whose
  DNS points at a LAN-only server (DNS rebinding) could read it. `/healthz` and `/readyz`
  are exempt: probes often use a bare address.
- A state-changing call (`POST`, `PUT`, `PATCH`, `DELETE`) and every WebSocket that carries
  an `Origin` must come from this server's own origin or one the operator allowed; a
  request with no `Origin` is not from a browser page (browsers always send it there).
- A body over the cap is refused with 413 before it is read: at once when
  `Content-Length` says so, else as soon as the streamed chunks pass the cap.
- Every HTTP answer carries the security headers (a CSP with no inline script, no
  framing, no MIME sniffing, no referrer, so invite links never leak to another site).
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException

from server.api.errors import error_body
from server.api.limits import LimitSettings

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
HOST_EXEMPT_PATHS = ("/healthz", "/readyz")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": ":80", "https": ":443"}


class BodyTooLarge(HTTPException):
    """A streamed body passed the cap; answered 413 like a too-large `Content-Length`."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are capped at {limit} bytes")


def host_name(host: str) -> str:
    """The name part of a `Host` value: no port, no brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 0 else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _without_default_port(origin: str) -> str:
    scheme, _, rest = origin.partition("://")
    port = DEFAULT_PORTS.get(scheme)
    if port and rest.endswith(port):
        rest = rest[: -len(port)]
    return f"{scheme}://{rest}"


class RequestGuards:
    """ASGI middleware: refuse what the limits forbid, and add the security headers."""

    def __init__(self, app: Any, limits: LimitSettings) -> None:
        self.app = app
        self.limits = limits
        self.allowed_hosts = frozenset(limits.allowed_hosts)
        self.allowed_origins = frozenset(_without_default_port(o) for o in limits.allowed_origins)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _first_headers(scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, code, message = refusal
            if kind == "http":
                await _answer(send, status, code, message, extra=SECURITY_HEADERS)
            else:
                await _deny_socket(scope, receive, send, status, code, message)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        await self._guarded_http(scope, receive, send, headers)

    def _refusal(self, scope: Any, headers: dict[bytes, str]) -> tuple[int, str, str] | None:
        host = headers.get(b"host")
        if not self.limits.any_host and scope.get("path") not in HOST_EXEMPT_PATHS:
            if host is None:
                return 400, "host_not_allowed", "a Host header is required"
            if host_name(host) not in self.allowed_hosts:
                return (
                    400,
                    "host_not_allowed",
                    f"this server does not answer to the host {host_name(host)[:100]!r}; "
                    "its operator can allow it with MAHJONG_ALLOWED_HOSTS",
                )
        origin = headers.get(b"origin")
        checked = scope["type"] == "websocket" or scope.get("method") in STATE_CHANGING
        if checked and origin is not None and not self._origin_allowed(scope, origin, host):
            return (
                403,
                "origin_not_allowed",
                f"requests from the page origin {origin[:100]!r} are not accepted here; "
                "its operator can allow it with MAHJONG_ALLOWED_ORIGINS",
            )
        return None

    def _origin_allowed(self, scope: Any, origin: str, host: str | None) -> bool:
        origin = _without_default_port(origin.strip().lower())
        if origin in self.allowed_origins:
            return True
        if host is None:
            return False
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", ""), scope.get("scheme"))
        return origin == _without_default_port(f"{scheme}://{host.strip().lower()}")

    async def _guarded_http(
        self, scope: Any, receive: Any, send: Any, headers: dict[bytes, str]
    ) -> None:
        limit = self.limits.body_bytes
        declared = headers.get(b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            await _answer(
                send,
                413,
                "body_too_large",
                f"request bodies are capped at {limit} bytes",
                extra=[*SECURITY_HEADERS, (b"connection", b"close")],
            )
            return
        received = 0

        async def counted_receive() -> Any:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, counted_receive, send_with_headers)


def _first_headers(scope: Any) -> dict[bytes, str]:
    """The first value of each request header (latin-1, as HTTP headers are bytes)."""
    found: dict[bytes, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.lower(), value.decode("latin-1"))
    return found


async def _answer(
    send: Any, status: int, code: str, message: str, extra: list[tuple[bytes, bytes]]
) -> None:
    await _send_error(send, "http.response", status, code, message, extra)


async def _send_error(
    send: Any, kind: str, status: int, code: str, message: str, extra: list[tuple[bytes, bytes]]
) -> None:
    """The JSON error body as an ASGI answer: `kind` is `http.response` for a request,
    `websocket.http.response` for a refused handshake."""
    body = error_body(code, message)
    await send(
        {
            "type": f"{kind}.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": f"{kind}.body", "body": body})


async def _deny_socket(
    scope: Any, receive: Any, send: Any, status: int, code: str, message: str
) -> None:
    """Refuse a WebSocket handshake with an HTTP answer (a plain 403 where unsupported)."""
    await receive()  # websocket.connect
    if "websocket.http.response" not in (scope.get("extensions") or {}):
        await send({"type": "websocket.close", "code": 1008, "reason": code})
        return
    await _send_error(send, "websocket.http.response", status, code, message, [])
