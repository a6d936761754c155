"""docker-compose.yml and .env.example, checked by reading them (no Docker engine here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPOSITORY = Path(__file__).resolve().parents[2]
VARIABLE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)")


def _compose() -> dict[str, Any]:
    return yaml.safe_load((REPOSITORY / "docker-compose.yml").read_text())


def _env_example() -> dict[str, tuple[str, list[str]]]:
    """Each variable of .env.example with its value and the comments of its paragraph
    (the lines since the last blank one), so related settings may share one comment."""
    found: dict[str, tuple[str, list[str]]] = {}
    comments: list[str] = []
    for line in (REPOSITORY / ".env.example").read_text().splitlines():
        if not line.strip():
            comments = []
        elif line.startswith("#"):
            comments.append(line)
        elif "=" in line:
            name, _, value = line.partition("=")
            found[name.strip()] = (value, list(comments))
    return found


def test_services_app_and_postgres_16() -> None:
    services = _compose()["services"]
    always = {name for name, service in services.items() if "profiles" not in service}
    assert always == {"app", "db"}
    assert services["db"]["image"] == "postgres:16"
    assert services["app"]["build"] in (".", {"context": "."})


def test_the_scaled_profile_runs_three_servers_on_one_database_behind_the_proxy() -> None:
    services = _compose()["services"]
    scaled = {name for name, service in services.items() if service.get("profiles")}
    assert scaled == {"app2", "app3", "proxy"}
    assert all(services[name]["profiles"] == ["scaled"] for name in scaled)
    replicas = ["app", "app2", "app3"]
    for name in replicas:
        replica = services[name]
        assert (
            replica["environment"]["DATABASE_URL"] == services["app"]["environment"]["DATABASE_URL"]
        )
        assert replica["image"] == services["app"]["image"]
        assert replica["healthcheck"]["test"][-1] == "server.observability.healthcheck"
        assert replica["stop_signal"] == "SIGTERM"
    assert not services["app2"].get("ports") and not services["app3"].get("ports")
    proxy = services["proxy"]
    assert proxy["image"].startswith("haproxy:2.6")
    assert {name: need["condition"] for name, need in proxy["depends_on"].items()} == {
        name: "service_healthy" for name in replicas
    }
    [mount] = proxy["volumes"]
    source, target = mount.split(":")[:2]
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"
    config = (REPOSITORY / source).read_text()
    # The proxy's backends are exactly the three replicas, on the port they listen on.
    servers = re.findall(r"^\s+server (\S+) (\S+) check$", config, re.MULTILINE)
    assert servers == [(name, f"{name}:8000") for name in replicas]
    [published] = proxy["ports"]
    assert published.endswith(":8080") and "bind *:8080" in config


def test_database_lives_in_a_named_volume() -> None:
    compose = _compose()
    mounts = compose["services"]["db"]["volumes"]
    named = [m.split(":")[0] for m in mounts if m.endswith(":/var/lib/postgresql/data")]
    assert named and named[0] in compose["volumes"]
    assert not named[0].startswith((".", "/"))  # a volume, not a bind mount


def test_health_checks_and_the_app_waits_for_a_healthy_database() -> None:
    services = _compose()["services"]
    db_check = services["db"]["healthcheck"]["test"]
    assert "pg_isready" in " ".join(db_check)
    assert services["app"]["healthcheck"]["test"][-1] == "server.observability.healthcheck"
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"


def test_configuration_comes_from_env_file() -> None:
    app = _compose()["services"]["app"]
    assert app["env_file"] in (".env", [".env"])
    url = app["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql+asyncpg://") and "@db:5432/" in url
    assert app["stop_signal"] == "SIGTERM"


def test_every_compose_variable_is_documented_in_env_example() -> None:
    text = (REPOSITORY / "docker-compose.yml").read_text()
    used = set(VARIABLE.findall(text))
    documented = _env_example()
    assert used <= set(documented), used - set(documented)
    for name, (_value, comments) in documented.items():
        assert comments, f"{name} has no comment above it in .env.example"
    assert "MAHJONG_ADMIN_TOKEN" in documented and "MAHJONG_LOG_FORMAT" in documented
    assert ".env" in (REPOSITORY / ".gitignore").read_text().split()
