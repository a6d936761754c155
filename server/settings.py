"""Every setting of a server, read from the environment in one place, once.

Each command that needs a setting (`mahjong-hall serve`, `mahjong-hall migrate`, the
container's healthcheck, Alembic's `migrations/env.py`) builds `Settings.from_environ`
from its environment first thing (a malformed value stops it with one line naming the
variable) and passes the object down: to the app, the store, the rooms, the sockets, the
logs and the collector. No other module reads the environment, so a setting cannot be
read twice, differently, or per request (a test checks every `os.environ` in `server/`). `docs/operations.md`, "Settings", lists each variable (a test keeps that list
and `ENVIRONMENT_NAMES` equal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from server.api.limits import LimitSettings
from server.observability.collector import CollectorSettings
from server.rooms.settings import TableSettings
from server.store.database import SQLITE_SYNCHRONOUS

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_HEALTHCHECK_URL = "http://127.0.0.1:8000/healthz"
# A socket may send this many messages at once, refilled at this rate (docs/protocol.md).
RATE_BURST = 40.0
RATE_PER_SECOND = 20.0
LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# How long a room's lease lasts without renewal, when processes share a Postgres
# (docs/scaling.md): the longest a dead process's tables wait for a new owner.
LEASE_SECONDS = 6.0

# The variables `from_environ` reads, beside those of the limits and the collector.
_OWN_NAMES = (
    "HOST",
    "PORT",
    "DATABASE_URL",
    "MAHJONG_ADMIN_TOKEN",
    "MAHJONG_WEB_DIR",
    "MAHJONG_LOG_FORMAT",
    "MAHJONG_LOG_LEVEL",
    "MAHJONG_HEALTHCHECK_URL",
    "MAHJONG_WS_COMPRESSION",
    "MAHJONG_WS_RATE_BURST",
    "MAHJONG_WS_RATE_PER_SECOND",
    "MAHJONG_UVICORN_LOOP",
    "MAHJONG_UVICORN_HTTP",
    "MAHJONG_UVICORN_WS",
    "MAHJONG_BOT_DELAY",
    "MAHJONG_JOIN_GRACE_SECONDS",
    "MAHJONG_NEXT_DEAL_SECONDS",
    "MAHJONG_IDLE_CLOSE_SECONDS",
    "MAHJONG_BOT_LEVEL",
    "MAHJONG_SQLITE_SYNCHRONOUS",
    "MAHJONG_LEASE_SECONDS",
)
LIMIT_NAMES = (
    "MAHJONG_ALLOWED_HOSTS",
    "MAHJONG_ALLOWED_ORIGINS",
    "MAHJONG_ROOMS_PER_MINUTE",
    "MAHJONG_JOINS_PER_MINUTE",
    "MAHJONG_SOCKETS_PER_ADDRESS",
    "MAHJONG_MAX_OPEN_ROOMS",
    "MAHJONG_SPECTATORS_PER_ROOM",
    "MAHJONG_MAX_BODY_BYTES",
    "MAHJONG_MAX_HEADER_BYTES",
    "MAHJONG_HEADER_TIMEOUT_SECONDS",
)
COLLECTOR_NAMES = (
    "MAHJONG_GC_THRESHOLDS",
    "MAHJONG_GC_FREEZE_SECONDS",
    "MAHJONG_GC_FULL_GROWTH",
    "MAHJONG_GC_LOG_MS",
)
ENVIRONMENT_NAMES = (*_OWN_NAMES, *LIMIT_NAMES, *COLLECTOR_NAMES)


def default_web_directory() -> Path:
    """`web/` at the repository root, beside the `server` package."""
    return Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True)
class SocketRate:
    """A socket's token bucket: `burst` messages at once, refilled at `per_second`."""

    burst: float = RATE_BURST
    per_second: float = RATE_PER_SECOND


@dataclass(frozen=True)
class Settings:
    """One server's settings. The defaults are what an unset environment gives."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    database_url: str | None = None  # None: the store's default SQLite file
    sqlite_synchronous: str = "NORMAL"  # SQLite's `synchronous` level (docs/persistence.md)
    admin_token: str | None = None  # None: the dashboard is open
    web_directory: Path = field(default_factory=default_web_directory)
    log_format: str = "text"
    log_level: str = "INFO"
    healthcheck_url: str = DEFAULT_HEALTHCHECK_URL
    ws_compression: bool = False
    socket_rate: SocketRate = SocketRate()
    uvicorn_loop: str = "auto"
    uvicorn_http: str = "auto"
    uvicorn_ws: str | None = None  # None: the hall's own socket protocol
    table: TableSettings = TableSettings()
    lease_seconds: float = LEASE_SECONDS
    limits: LimitSettings = LimitSettings()
    collector: CollectorSettings = field(default_factory=lambda: CollectorSettings.from_environ({}))

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], host: str | None = None) -> Settings:
        """The settings in `environ`; a malformed one raises ValueError naming it.

        `host` is the address `serve` was told to listen on (`--host`), which wins over
        `HOST` and is also allowed as a Host header (docs/operations.md, "Limits").
        """
        defaults = cls()
        bound = host if host is not None else _text(environ, "HOST") or DEFAULT_HOST
        table = TableSettings(
            bot_delay=_number(environ, "MAHJONG_BOT_DELAY", defaults.table.bot_delay),
            join_grace_seconds=_number(
                environ, "MAHJONG_JOIN_GRACE_SECONDS", defaults.table.join_grace_seconds
            ),
            next_deal_seconds=_number(
                environ, "MAHJONG_NEXT_DEAL_SECONDS", defaults.table.next_deal_seconds
            ),
            idle_close_seconds=_number(
                environ, "MAHJONG_IDLE_CLOSE_SECONDS", defaults.table.idle_close_seconds
            ),
            bot_level=_text(environ, "MAHJONG_BOT_LEVEL") or defaults.table.bot_level,
        )
        web = _text(environ, "MAHJONG_WEB_DIR")
        return cls(
            host=bound,
            port=int(_number(environ, "PORT", DEFAULT_PORT, whole=True)),
            database_url=_text(environ, "DATABASE_URL"),
            sqlite_synchronous=_choice(
                environ, "MAHJONG_SQLITE_SYNCHRONOUS", SQLITE_SYNCHRONOUS, "NORMAL", upper=True
            ),
            admin_token=_text(environ, "MAHJONG_ADMIN_TOKEN"),
            web_directory=Path(web) if web else default_web_directory(),
            log_format=_choice(environ, "MAHJONG_LOG_FORMAT", LOG_FORMATS, "text"),
            log_level=_choice(environ, "MAHJONG_LOG_LEVEL", LOG_LEVELS, "INFO", upper=True),
            healthcheck_url=_text(environ, "MAHJONG_HEALTHCHECK_URL") or DEFAULT_HEALTHCHECK_URL,
            ws_compression=_switch(environ, "MAHJONG_WS_COMPRESSION"),
            socket_rate=SocketRate(
                burst=_number(environ, "MAHJONG_WS_RATE_BURST", RATE_BURST),
                per_second=_number(environ, "MAHJONG_WS_RATE_PER_SECOND", RATE_PER_SECOND),
            ),
            uvicorn_loop=_text(environ, "MAHJONG_UVICORN_LOOP") or "auto",
            uvicorn_http=_text(environ, "MAHJONG_UVICORN_HTTP") or "auto",
            uvicorn_ws=_text(environ, "MAHJONG_UVICORN_WS"),
            table=table,
            lease_seconds=_lease_seconds(environ),
            limits=LimitSettings.from_environ(environ, bound_host=bound),
            collector=CollectorSettings.from_environ(environ),
        )


def _text(environ: Mapping[str, str], name: str) -> str | None:
    """`environ[name]` stripped; None when unset or empty."""
    return environ.get(name, "").strip() or None


def _number(environ: Mapping[str, str], name: str, default: float, whole: bool = False) -> float:
    text = _text(environ, name)
    if text is None:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"{name} must be {kind}, not {text!r}") from None
    if value < 0 or value != value:  # negative, or NaN
        raise ValueError(f"{name} must not be negative, not {text!r}")
    return value


def _lease_seconds(environ: Mapping[str, str]) -> float:
    seconds = _number(environ, "MAHJONG_LEASE_SECONDS", LEASE_SECONDS)
    if seconds < 1:  # renewed every third of it: shorter would be all renewals
        raise ValueError(f"MAHJONG_LEASE_SECONDS must be at least 1, not {seconds:g}")
    return seconds


def _choice(
    environ: Mapping[str, str],
    name: str,
    choices: tuple[str, ...],
    default: str,
    upper: bool = False,
) -> str:
    text = _text(environ, name)
    if text is None:
        return default
    text = text.upper() if upper else text.lower()
    if text not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
    return text


def _switch(environ: Mapping[str, str], name: str) -> bool:
    text = (_text(environ, name) or "").lower()
    if text in ("", "0", "off", "false", "no"):
        return False
    if text in ("1", "on", "true", "yes"):
        return True
    raise ValueError(f"{name} must be on or off, not {text!r}")
