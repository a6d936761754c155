"""Per-client-address limits: token buckets for requests, and counts of open sockets.

A client is its address as uvicorn reports it: the socket's peer, or the address a trusted
reverse proxy forwarded (uvicorn's `FORWARDED_ALLOW_IPS`). An IPv6 client is its /64
network, since one host usually holds a whole /64 and could otherwise take a fresh address
for every request.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from server.rooms.clock import Clock

# Past this many addresses remembered, the ones whose bucket has refilled are dropped:
# a full bucket is the same as no bucket, so forgetting it changes no answer.
PRUNE_AFTER = 4096


def client_key(scope: Any) -> str:
    """The address a limit counts against, from an ASGI scope."""
    client = scope.get("client")
    host = str(client[0]) if client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class AddressBuckets:
    """One token bucket per address: `per_minute` requests at once, refilled at that rate.

    The clock is injected, so tests move time by hand.
    """

    def __init__(self, per_minute: float, clock: Clock) -> None:
        self.capacity = float(per_minute)
        self.per_second = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str) -> float | None:
        """Spend one token of `address`; None when allowed, else seconds until one is back."""
        now = self.clock.now()
        tokens = self._tokens(address, now)
        if tokens >= 1:
            self._buckets[address] = (tokens - 1, now)
            if len(self._buckets) > PRUNE_AFTER:
                self._prune(now)
            return None
        self._buckets[address] = (tokens, now)
        return (1 - tokens) / self.per_second

    def __len__(self) -> int:
        """How many addresses are remembered."""
        return len(self._buckets)

    def _tokens(self, address: str, now: float) -> float:
        tokens, when = self._buckets.get(address, (self.capacity, now))
        # max(0, ...): a wall clock set back must not drain anyone's bucket.
        return min(self.capacity, tokens + max(0.0, now - when) * self.per_second)

    def _prune(self, now: float) -> None:
        for address in [a for a in self._buckets if self._tokens(a, now) >= self.capacity]:
            del self._buckets[address]


class SocketCounts:
    """How many sockets each address holds open, against a cap."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more socket for `address`, unless it already holds its cap."""
        held = self._open.get(address, 0)
        if held >= self.per_address:
            return False
        self._open[address] = held + 1
        return True

    def close(self, address: str) -> None:
        """One socket of `address` has ended."""
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)

    def held(self, address: str) -> int:
        """The sockets `address` holds open now."""
        return self._open.get(address, 0)


def retry_after(seconds: float) -> str:
    """A `Retry-After` value: whole seconds, at least one."""
    return str(max(1, math.ceil(seconds)))
