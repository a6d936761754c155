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

from server.settings import Settings


def check(url: str, timeout: float = 4.0) -> bool:
    """True when ``url`` answers HTTP 200 within ``timeout`` seconds."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def main(settings: Settings) -> int:
    """Probe the configured URL; print why on failure so `docker inspect` shows it."""
    url = settings.healthcheck_url
    if check(url):
        return 0
    print(f"unhealthy: {url} did not answer 200", file=sys.stderr)
    return 1


def entry() -> int:
    """The command's entry: the one reading of the environment, then the probe."""
    try:
        settings = Settings.from_environ(os.environ)
    except ValueError as error:  # a malformed setting is unhealthy, said in one line
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1
    return main(settings)


if __name__ == "__main__":
    sys.exit(entry())
