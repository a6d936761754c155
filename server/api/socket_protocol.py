"""How `serve` runs uvicorn's WebSocket layer: its options, and a cut-off for a stuck reader.

Every frame the hall sends goes through the ASGI `send` (Starlette's `WebSocket.send`,
from one writer per connection: `SocketConnection` in api/ws.py). uvicorn's sans-I/O
protocol builds the frames with websockets' public `send_text`/`data_to_send`, including
permessage-deflate when it was negotiated, so nothing here writes frames of its own.

What uvicorn lacks is an end for a client that stops reading. Its `send` waits while the
transport is paused (the peer's TCP window is shut), which is the back-pressure the
writer relies on; but a peer that never reads again is never dropped: the keepalive's
close and the app's close both wait behind the unsent bytes, and the TCP connection stays
up for as long as the peer's kernel acknowledges the window probes. `TableSocketProtocol`
adds exactly that, through asyncio's public protocol callbacks only: when the transport
has stayed paused for `stuck_seconds`, it aborts the connection, which uvicorn reports to
the app as a disconnect (and the room hands the seat to its bot).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

# A reader that has taken nothing for this long, with more than the transport's buffer
# waiting for it, is gone in all but name: the keepalive would have given up by now too
# (10 s ping interval + 10 s pong timeout, docs/protocol.md, "Limits and keepalive").
STUCK_READER_SECONDS = 20.0


class TableSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, aborting a connection paused too long."""

    stuck_seconds = STUCK_READER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Keep the transport we are handed (to abort it), then start as uvicorn does."""
        self.table_transport = transport
        self.stuck_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)

    def pause_writing(self) -> None:
        """The peer's window is shut: uvicorn holds sends back; start the stuck clock."""
        super().pause_writing()
        if self.stuck_timer is None:
            loop = asyncio.get_running_loop()
            self.stuck_timer = loop.call_later(self.stuck_seconds, self.cut_off_stuck_reader)

    def resume_writing(self) -> None:
        """The peer read again: it is slow at worst, not stuck."""
        self.stop_stuck_clock()
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the clock with the connection."""
        self.stop_stuck_clock()
        super().connection_lost(exc)

    def stop_stuck_clock(self) -> None:
        if self.stuck_timer is not None:
            self.stuck_timer.cancel()
            self.stuck_timer = None

    def cut_off_stuck_reader(self) -> None:
        # Abort, not close: a close would wait for the buffer to drain, which it never
        # will. uvicorn's `connection_lost` then wakes every waiting send and the reader.
        self.stuck_timer = None
        self.table_transport.abort()


def table_socket_protocol(stuck_seconds: float) -> type[TableSocketProtocol]:
    """The protocol class for uvicorn's `ws=`, with this stuck-reader limit."""
    return type("TableSocketProtocol", (TableSocketProtocol,), {"stuck_seconds": stuck_seconds})


def uvicorn_socket_options(
    choice: str | None,
    *,
    compression: bool,
    max_size: int,
    ping_interval: float,
    ping_timeout: float,
) -> dict[str, Any]:
    """uvicorn's WebSocket options as `serve` sets them (`choice`: `MAHJONG_UVICORN_WS`).

    Compression is uvicorn's own negotiation (`ws_per_message_deflate`): off, a client's
    permessage-deflate offer is declined and frames go uncompressed; on, it is accepted and
    uvicorn's protocol compresses every frame. The ~2 KB state messages cost ~100 µs of
    CPU per action to compress (docs/benchmarks.md), so it is off unless the host asks.
    """
    return {
        "ws": choice or TableSocketProtocol,
        "ws_per_message_deflate": compression,
        "ws_max_size": max_size,
        "ws_ping_interval": ping_interval,
        "ws_ping_timeout": ping_timeout,
    }
