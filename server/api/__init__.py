"""The HTTP and WebSocket interface of the rooms (docs/protocol.md)."""
