"""The limit settings, the per-address token buckets (on a hand-driven clock) and the socket
counts, on their own; tests/api/test_api_abuse_*.py check them on a real server."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from server.api.address_limits import AddressBuckets, SocketCounts, client_key, retry_after
from server.api.limits import LOCAL_HOSTS, LimitSettings
from server.rooms.clock import ManualClock
from tests.serve import REPOSITORY, serve_command, server_environment


def test_defaults_allow_a_local_install_and_nothing_else() -> None:
    limits = LimitSettings.from_environ({})
    assert limits == LimitSettings()
    assert set(limits.allowed_hosts) == set(LOCAL_HOSTS) and not limits.any_host
    assert limits.allowed_origins == ()


def test_the_bound_host_and_the_configured_names_are_allowed() -> None:
    limits = LimitSettings.from_environ(
        {
            "MAHJONG_ALLOWED_HOSTS": " Mahjong.Example , lan-box ",
            "MAHJONG_ALLOWED_ORIGINS": "https://mahjong.example",
            "MAHJONG_ROOMS_PER_MINUTE": "2.5",
            "MAHJONG_SOCKETS_PER_ADDRESS": "7",
        },
        bound_host="192.168.1.10",
    )
    assert {"192.168.1.10", "mahjong.example", "lan-box", *LOCAL_HOSTS} == set(limits.allowed_hosts)
    assert limits.allowed_origins == ("https://mahjong.example",)
    assert limits.rooms_per_minute == 2.5 and limits.sockets_per_address == 7
    # Every interface names no host: only the local names stay.
    assert set(LimitSettings.from_environ({}, bound_host="0.0.0.0").allowed_hosts) == set(
        LOCAL_HOSTS
    )
    assert LimitSettings.from_environ({"MAHJONG_ALLOWED_HOSTS": "*"}).any_host


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MAHJONG_ROOMS_PER_MINUTE", "lots"),
        ("MAHJONG_JOINS_PER_MINUTE", "-1"),
        ("MAHJONG_SOCKETS_PER_ADDRESS", "2.5"),
        ("MAHJONG_MAX_OPEN_ROOMS", "0"),
        ("MAHJONG_SPECTATORS_PER_ROOM", "inf"),
        ("MAHJONG_MAX_BODY_BYTES", "nan"),
        ("MAHJONG_MAX_HEADER_BYTES", "16k"),
        ("MAHJONG_HEADER_TIMEOUT_SECONDS", "soon"),
        ("MAHJONG_ALLOWED_ORIGINS", "mahjong.example"),
    ],
)
def test_a_malformed_setting_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        LimitSettings.from_environ({name: value})


def test_serve_refuses_to_start_with_a_malformed_limit(tmp_path: Path) -> None:
    env = server_environment(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'hall.sqlite3'}",
        MAHJONG_SOCKETS_PER_ADDRESS="many",
    )
    run = subprocess.run(
        serve_command("--port", "1"),
        cwd=REPOSITORY,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "MAHJONG_SOCKETS_PER_ADDRESS" in run.stderr
    assert not (tmp_path / "hall.sqlite3").exists(), "it stopped before touching the database"


def test_a_bucket_refills_at_its_rate_per_address() -> None:
    clock = ManualClock()
    buckets = AddressBuckets(per_minute=3, clock=clock)
    assert [buckets.take("10.0.0.1") for _ in range(3)] == [None, None, None]
    wait = buckets.take("10.0.0.1")
    assert wait == pytest.approx(20.0)  # one token every 20 s
    assert retry_after(wait) == "20"
    assert buckets.take("10.0.0.2") is None, "another address has its own bucket"
    clock.advance(19.5)
    refused = buckets.take("10.0.0.1")
    assert refused is not None and retry_after(refused) == "1"
    clock.advance(0.5)
    assert buckets.take("10.0.0.1") is None
    assert buckets.take("10.0.0.1") is not None


def test_remembered_addresses_stay_bounded() -> None:
    clock = ManualClock()
    buckets = AddressBuckets(per_minute=60, clock=clock)
    for number in range(5000):
        buckets.take(f"10.1.{number // 256}.{number % 256}")
        clock.advance(0.01)
    clock.advance(120)  # every bucket has refilled
    buckets.take("10.9.9.9")
    buckets.take("10.9.9.8")
    assert buckets.take("10.1.0.0") is None
    assert len(buckets) < 4100


def test_client_keys() -> None:
    assert client_key({"client": ("203.0.113.9", 5000)}) == "203.0.113.9"
    one = client_key({"client": ("2001:db8:1:2::1", 5000)})
    other = client_key({"client": ("2001:db8:1:2:ffff::9", 5000)})
    assert one == other == "2001:db8:1:2::/64", "one IPv6 host is its /64"
    assert client_key({"client": ("2001:db8:1:3::1", 1)}) != one
    assert client_key({"client": ("::ffff:198.51.100.7", 1)}) == "198.51.100.7"
    assert client_key({"client": None}) == "unknown"


def test_socket_counts() -> None:
    sockets = SocketCounts(per_address=2)
    assert sockets.open("a") and sockets.open("a") and not sockets.open("a")
    assert sockets.open("b")
    sockets.close("a")
    assert sockets.held("a") == 1 and sockets.open("a")
    sockets.close("a")
    sockets.close("a")
    assert sockets.held("a") == 0
