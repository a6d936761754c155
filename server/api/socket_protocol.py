"""uvicorn's sans-I/O WebSocket protocol, with a direct way for the rooms to send text.

A table change is four messages, and through ASGI each one is a `websocket.send` event
passed down Starlette's and uvicorn's send layers: state checks, an event dict, a frame
object, a join. About a third of the server's CPU per action went there. This subclass
offers the rooms a shortcut, as the ASGI scope extension `mahjong.send_text_now`: write
one text frame straight to the transport, when nothing stands in the way. When anything
does (the handshake is not done, a close was sent or received, the transport is paused
for a slow reader, or the client negotiated compression, whose frames only the websockets
protocol can build), it returns False and the caller sends the ordinary way, which handles
all of those. `serve` runs uvicorn with this class (`MAHJONG_UVICORN_WS` chooses another).
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

SEND_TEXT_NOW = "mahjong.send_text_now"

_TEXT_FIN = 0x81  # FIN set, opcode 1 (text); a server's frames are not masked (RFC 6455)


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked text frame carrying `payload`."""
    size = len(payload)
    if size < 126:
        header = bytes((_TEXT_FIN, size))
    elif size < 1 << 16:
        header = struct.pack("!BBH", _TEXT_FIN, 126, size)
    else:
        header = struct.pack("!BBQ", _TEXT_FIN, 127, size)
    return header + payload


class TableSocketProtocol(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` plus the `mahjong.send_text_now` scope extension."""

    async def run_asgi(self) -> None:
        """Offer the shortcut in the scope, then run the app as uvicorn does."""
        extensions: dict[str, Any] = self.scope.setdefault("extensions", {})
        extensions[SEND_TEXT_NOW] = self.send_text_now
        await super().run_asgi()

    def send_text_now(self, text: str) -> bool:
        """Write `text` as one frame now and return True; or return False, sending
        nothing, when the ordinary ASGI send must handle it."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame(text.encode()))
        return True
