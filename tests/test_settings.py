"""One settings object: read from the environment once, in one module, and documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.settings import ENVIRONMENT_NAMES, Settings, SocketRate

ROOT = Path(__file__).resolve().parents[1]
# Entry points that build `Settings.from_environ(os.environ)`, and the store, which the
# `migrate` command opens without a server (docs/operations.md, "Settings").
ENVIRONMENT_READERS = {
    "server/cli/serve.py",
    "server/observability/healthcheck.py",
    "server/store/database.py",
}


def test_the_operations_guide_lists_exactly_the_settings_that_exist() -> None:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Settings (environment variables)", 1)[1].split("\n## ", 1)[0]
    first_cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    documented = [name for cell in first_cells for name in re.findall(r"`([A-Z_]+)`", cell)]
    assert sorted(documented) == sorted(ENVIRONMENT_NAMES)
    assert len(documented) == len(set(documented)), "each variable is listed once"


def test_no_other_module_reads_the_environment() -> None:
    readers = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "server").rglob("*.py")
        if re.search(r"os\.environ|os\.getenv|getenv\(", path.read_text())
    }
    assert readers == ENVIRONMENT_READERS


def test_an_empty_environment_gives_the_defaults() -> None:
    assert Settings.from_environ({}) == Settings()


def test_settings_are_read_from_the_environment() -> None:
    settings = Settings.from_environ(
        {
            "PORT": "9001",
            "MAHJONG_ADMIN_TOKEN": " s3cret ",
            "MAHJONG_WEB_DIR": "/srv/web",
            "MAHJONG_LOG_FORMAT": "JSON",
            "MAHJONG_LOG_LEVEL": "warning",
            "MAHJONG_WS_COMPRESSION": "on",
            "MAHJONG_WS_RATE_BURST": "400",
            "MAHJONG_WS_RATE_PER_SECOND": "200",
            "MAHJONG_BOT_DELAY": "0",
            "MAHJONG_NEXT_DEAL_SECONDS": "3",
            "MAHJONG_SOCKETS_PER_ADDRESS": "7",
        },
        host="0.0.0.0",
    )
    assert (settings.host, settings.port, settings.admin_token) == ("0.0.0.0", 9001, "s3cret")
    assert settings.web_directory == Path("/srv/web")
    assert (settings.log_format, settings.log_level) == ("json", "WARNING")
    assert settings.ws_compression is True
    assert settings.socket_rate == SocketRate(burst=400, per_second=200)
    assert (settings.table.bot_delay, settings.table.next_deal_seconds) == (0, 3)
    assert settings.limits.sockets_per_address == 7
    assert "0.0.0.0" not in settings.limits.allowed_hosts, "binding everywhere names no host"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("PORT", "eighty"),
        ("MAHJONG_BOT_DELAY", "-1"),
        ("MAHJONG_WS_RATE_BURST", "nan"),
        ("MAHJONG_WS_COMPRESSION", "maybe"),
        ("MAHJONG_LOG_FORMAT", "xml"),
        ("MAHJONG_GC_THRESHOLDS", "1,2"),
        ("MAHJONG_MAX_OPEN_ROOMS", "lots"),
    ],
)
def test_a_malformed_setting_is_refused_by_name(name: str, text: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_environ({name: text})
