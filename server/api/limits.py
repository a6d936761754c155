"""The server's limits against abuse, read once from the environment when the app is built.

Every limit has a default a friends' server never reaches but that stops one client from
filling the server: thousands of rooms, thousands of sockets, huge bodies or headers, or a
cross-site page driving a player's browser. `docs/operations.md`, "Limits", lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# The names a local install answers to, whatever the operator adds.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
# Binding to these means "every interface": they name no host a browser would use.
ANY_INTERFACE = ("", "0.0.0.0", "::")


@dataclass(frozen=True)
class LimitSettings:
    """Per-address rates, server-wide caps, HTTP sizes and times, and the allowed names."""

    rooms_per_minute: float = 20
    joins_per_minute: float = 60
    sockets_per_address: int = 40
    open_rooms: int = 200
    spectators_per_room: int = 20
    body_bytes: int = 8 * 1024
    header_bytes: int = 16 * 1024
    header_seconds: float = 10.0
    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS
    allowed_origins: tuple[str, ...] = ()

    @property
    def any_host(self) -> bool:
        """`*` in the allowed hosts turns the Host check off."""
        return "*" in self.allowed_hosts

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], bound_host: str = "") -> LimitSettings:
        """The settings in `environ` (`MAHJONG_...`); a malformed one raises ValueError naming it.

        `bound_host` is the address `serve` listens on: when it names one interface, a
        browser reaches the server by that address, so it is allowed as a Host too.
        """
        defaults = cls()
        hosts = [*LOCAL_HOSTS]
        if bound_host.strip().lower() not in ANY_INTERFACE:
            hosts.append(bound_host.strip().lower())
        hosts += _names(environ.get("MAHJONG_ALLOWED_HOSTS"))
        origins = _names(environ.get("MAHJONG_ALLOWED_ORIGINS"))
        for origin in origins:
            if "://" not in origin or origin.endswith("/"):
                raise ValueError(
                    "MAHJONG_ALLOWED_ORIGINS must list origins like https://mahjong.example.com,"
                    f" not {origin!r}"
                )
        return cls(
            rooms_per_minute=_number(
                environ, "MAHJONG_ROOMS_PER_MINUTE", defaults.rooms_per_minute
            ),
            joins_per_minute=_number(
                environ, "MAHJONG_JOINS_PER_MINUTE", defaults.joins_per_minute
            ),
            sockets_per_address=_count(
                environ, "MAHJONG_SOCKETS_PER_ADDRESS", defaults.sockets_per_address
            ),
            open_rooms=_count(environ, "MAHJONG_MAX_OPEN_ROOMS", defaults.open_rooms),
            spectators_per_room=_count(
                environ, "MAHJONG_SPECTATORS_PER_ROOM", defaults.spectators_per_room
            ),
            body_bytes=_count(environ, "MAHJONG_MAX_BODY_BYTES", defaults.body_bytes),
            header_bytes=_count(environ, "MAHJONG_MAX_HEADER_BYTES", defaults.header_bytes),
            header_seconds=_number(
                environ, "MAHJONG_HEADER_TIMEOUT_SECONDS", defaults.header_seconds
            ),
            allowed_hosts=tuple(dict.fromkeys(hosts)),
            allowed_origins=tuple(dict.fromkeys(origins)),
        )


def _number(environ: Mapping[str, str], name: str, default: float) -> float:
    """A positive number from `environ[name]`, or `default` when unset or empty."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a positive number, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{name} must be a positive number, not {text!r}")
    return value


def _count(environ: Mapping[str, str], name: str, default: int) -> int:
    """A positive whole number from `environ[name]`, or `default` when unset or empty."""
    value = _number(environ, name, default)
    if value != int(value):
        raise ValueError(f"{name} must be a whole number, not {environ[name].strip()!r}")
    return int(value)


def _names(text: str | None) -> list[str]:
    """A comma-separated list, lower-cased, blanks dropped."""
    return [part.strip().lower() for part in (text or "").split(",") if part.strip()]
