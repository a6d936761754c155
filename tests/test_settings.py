"""One settings object: read from the environment once, in one module, and documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from server.settings import ENVIRONMENT_NAMES, Settings, SocketRate

ROOT = Path(__file__).resolve().parents[1]


def environment_reads(source: str) -> list[tuple[int, bool]]:
    """Each place `source` touches the process environment: (line, whether it is the
    whole argument of `Settings.from_environ(...)`, the one allowed form)."""
    tree = ast.parse(source)
    handed_over = {
        id(argument)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "from_environ"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "Settings"
        for argument in node.args[:1]
    }
    reads: list[tuple[int, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "environb", "getenv"):
            reads.append((node.lineno, id(node) in handed_over))
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            names = {alias.name for alias in node.names}
            if names & {"environ", "environb", "getenv", "putenv"}:
                reads.append((node.lineno, False))
    return reads


def test_the_environment_is_read_only_by_building_the_settings() -> None:
    # Only `Settings.from_environ(os.environ)` at a command's entry may touch it; every
    # other module is handed the settings (docs/operations.md, "Settings").
    entries: set[str] = set()
    strays: list[str] = []
    for path in sorted([*(ROOT / "server").rglob("*.py"), *(ROOT / "migrations").rglob("*.py")]):
        name = str(path.relative_to(ROOT))
        for line, allowed in environment_reads(path.read_text()):
            if allowed:
                entries.add(name)
            else:
                strays.append(f"{name}:{line}")
    assert strays == []
    assert entries == {
        "server/cli/serve.py",
        "server/cli/migrate.py",
        "server/observability/healthcheck.py",
        "migrations/env.py",
    }


def test_the_environment_check_sees_every_form() -> None:
    allowed = "import os\nsettings = Settings.from_environ(os.environ, host=None)\n"
    assert environment_reads(allowed) == [(2, True)]
    for stray in (
        "import os\nurl = os.environ.get('DATABASE_URL')\n",
        "import os\nurl = os.getenv('DATABASE_URL')\n",
        "from os import environ\n",
        "import os\nsettings = Settings.from_environ({**os.environ})\n",
    ):
        assert [allowed for _, allowed in environment_reads(stray)] == [False], stray


def test_the_operations_guide_lists_exactly_the_settings_that_exist() -> None:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Settings (environment variables)", 1)[1].split("\n## ", 1)[0]
    first_cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    documented = [name for cell in first_cells for name in re.findall(r"`([A-Z_]+)`", cell)]
    assert sorted(documented) == sorted(ENVIRONMENT_NAMES)
    assert len(documented) == len(set(documented)), "each variable is listed once"


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
            "DATABASE_URL": " postgres://u@db/hall ",
            "MAHJONG_SQLITE_SYNCHRONOUS": "full",
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
    assert (settings.database_url, settings.sqlite_synchronous) == ("postgres://u@db/hall", "FULL")
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
        ("MAHJONG_SQLITE_SYNCHRONOUS", "off"),
    ],
)
def test_a_malformed_setting_is_refused_by_name(name: str, text: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_environ({name: text})
