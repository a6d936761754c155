"""The container's HEALTHCHECK: ``python -m server.observability.healthcheck``.

Exits 0 when ``GET $MAHJONG_HEALTHCHECK_URL`` (default the server's own ``/healthz`` on
port 8000) answers 200 within the timeout, else 1. The slim image has no curl, and a
few lines of standard library beat adding a package for it.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def check(url: str, timeout: float = 4.0) -> bool:
    """True when ``url`` answers HTTP 200 within ``timeout`` seconds."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def main() -> int:
    """Probe the configured URL; print why on failure so `docker inspect` shows it."""
    from server.settings import Settings

    url = Settings.from_environ(os.environ).healthcheck_url
    if check(url):
        return 0
    print(f"unhealthy: {url} did not answer 200", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
