"""uvicorn's httptools protocol with a cap on header size and on the time to send them.

httptools takes request headers of any size (10 MB were accepted), and uvicorn waits for
them as long as the client likes: a connection that stays silent, or trickles a header a
byte at a time, is held for ever. This subclass counts what a connection sends while its
request's headers are not complete yet. Over `header_bytes` it answers 431 and closes;
when `header_seconds` pass first it closes (with a 408 if part of a request came). The
clock starts when the connection opens (a connection that never says anything is closed
too), and for each later request when its first bytes arrive: between requests, uvicorn's
keep-alive timeout closes an idle connection as before.

Only public hooks are overridden, each calling through: the asyncio protocol methods and
the httptools parser callbacks (`on_message_begin`, `on_url`, `on_header`,
`on_headers_complete`, `on_body`, `on_message_complete`), `handle_websocket_upgrade`, and
`send_400_response`, so that a request that is not HTTP also gets a JSON error. The
transport it writes refusals to is the one asyncio hands `connection_made`, kept under
our own name (uvicorn's attributes are its internals).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from server.api.errors import error_body
from server.api.limits import LimitSettings
from server.api.request_guards import SECURITY_HEADERS


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """`HttpToolsProtocol` with header size and header time limits (class attributes)."""

    header_bytes = LimitSettings().header_bytes
    header_seconds = LimitSettings().header_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock for the first request's headers."""
        self.guarded_transport = transport  # ours: uvicorn's own attributes are not API
        self.header_timer: asyncio.TimerHandle | None = None
        self.awaiting_headers = True
        self.request_begun = False
        self.header_count = 0
        self.parsed_bytes = 0
        self.refused = False
        super().connection_made(transport)
        self.start_header_clock()

    def data_received(self, data: bytes) -> None:
        """Feed the parser, then refuse headers that have grown past the cap."""
        if self.refused:
            return
        if self.awaiting_headers:
            self.header_count += len(data)
        super().data_received(data)
        # Still waiting after this chunk: everything counted is header (or request line).
        if self.awaiting_headers and self.header_count > self.header_bytes:
            self.refuse_request(
                b"431 Request Header Fields Too Large",
                "headers_too_large",
                f"request headers are capped at {self.header_bytes} bytes",
            )

    def on_message_begin(self) -> None:
        """A request starts (its first byte is in): count its headers, against the clock."""
        super().on_message_begin()
        self.awaiting_headers = True
        self.request_begun = True
        if self.header_timer is None:
            self.start_header_clock()

    def on_url(self, url: bytes) -> None:
        """Count the target as header bytes (it may come in pieces)."""
        self.parsed_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count each header; past the cap, stop keeping them (the request is refused)."""
        self.parsed_bytes += len(name) + len(value) + 4  # ": " and CRLF
        if self.parsed_bytes <= self.header_bytes:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The headers are in: refuse them if too large, else stop the clock and go on.

        Headers that end within one received chunk are only counted here, by the parser.
        """
        too_large = self.parsed_bytes > self.header_bytes
        self.stop_header_clock()
        if too_large:
            self.refuse_request(
                b"431 Request Header Fields Too Large",
                "headers_too_large",
                f"request headers are capped at {self.header_bytes} bytes",
            )
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        """Pass the body on, unless the request was refused (no request exists for it)."""
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        """As `on_body`."""
        if not self.refused:
            super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """A request httptools cannot parse: uvicorn's plain-text 400, as JSON instead."""
        self.refuse_request(b"400 Bad Request", "bad_request", "the request is not valid HTTP/1.1")

    def handle_websocket_upgrade(self) -> None:
        """Upgrade, unless the handshake's headers were refused."""
        if not self.refused:
            super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the timer with the connection."""
        self.stop_header_clock()
        super().connection_lost(exc)

    def start_header_clock(self) -> None:
        self.header_timer = asyncio.get_running_loop().call_later(
            self.header_seconds, self.headers_too_slow
        )

    def stop_header_clock(self) -> None:
        self.awaiting_headers = False
        self.request_begun = False
        self.header_count = 0
        self.parsed_bytes = 0
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def headers_too_slow(self) -> None:
        self.header_timer = None
        if not self.awaiting_headers or self.guarded_transport.is_closing():
            return
        if not self.request_begun:
            self.stop_header_clock()
            self.guarded_transport.close()  # a silent connection: nothing to answer
            return
        self.refuse_request(
            b"408 Request Timeout",
            "headers_too_slow",
            f"request headers must arrive within {self.header_seconds:g} seconds",
        )

    def refuse_request(self, status_line: bytes, code: str, message: str) -> None:
        self.stop_header_clock()
        self.refused = True
        if self.guarded_transport.is_closing():
            return
        body = error_body(code, message)
        head: list[Any] = [b"HTTP/1.1 ", status_line, b"\r\n"]
        for name, value in [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *SECURITY_HEADERS,
        ]:
            head += [name, b": ", value, b"\r\n"]
        self.guarded_transport.write(b"".join([*head, b"\r\n", body]))
        self.guarded_transport.close()


def guarded_http_protocol(limits: LimitSettings) -> type[GuardedHttpToolsProtocol]:
    """The protocol class for uvicorn's `http=`, carrying these limits."""
    return type(
        "GuardedHttpToolsProtocol",
        (GuardedHttpToolsProtocol,),
        {"header_bytes": limits.header_bytes, "header_seconds": limits.header_seconds},
    )


def uvicorn_http_options(choice: str, limits: LimitSettings) -> dict[str, Any]:
    """uvicorn's `http` (and h11's header cap) for `MAHJONG_UVICORN_HTTP`.

    `auto` and `httptools` get the guarded protocol; `h11` gets uvicorn's own h11 with its
    header size cap (h11 has no header-read timeout: docs/operations.md, "Limits").
    """
    if choice in ("auto", "httptools"):
        return {"http": guarded_http_protocol(limits)}
    return {"http": choice, "h11_max_incomplete_event_size": limits.header_bytes}
