"""The engine's error types. Every error the engine raises is an `EngineError`."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error raised by `server.engine`."""


class TileParseError(EngineError, ValueError):
    """Tile notation that cannot be read. The message names the offending text."""


class ActionFormatError(EngineError, ValueError):
    """An action object that is not of the shape in docs/cli.md, "Actions"."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow where it stands.

    `code` is a stable snake_case identifier (sent to clients); the message says why in words.
    """

    def __init__(self, message: str, code: str = "illegal_action") -> None:
        super().__init__(message)
        self.code = code


class HandError(EngineError, ValueError):
    """A hand that cannot exist: unknown or wrong-table tiles, more than four of a tile,
    a malformed shown set. The message names the problem."""
