"""Who may read the dashboard: anyone, unless ``MAHJONG_ADMIN_TOKEN`` is set.

When it is set, every ``/api/dashboard/...`` call needs it, as ``Authorization: Bearer
<token>`` or ``?token=<token>``. The ``/dashboard`` page itself is only a shell with no
figures in it; it asks for the token and sends it with each call. A room's own results
(``/api/rooms/{id}/results``) are not part of the dashboard and stay open to its players.
"""

from __future__ import annotations

import hmac

from fastapi import Request


class AccessDenied(Exception):
    """The dashboard needs the admin token and the request did not carry the right one."""


def admin_token(request: Request) -> str | None:
    """The configured token, ``app.state.admin_token`` (from the server's settings)."""
    return getattr(request.app.state, "admin_token", None) or None


def presented_token(request: Request) -> str | None:
    """The token the request carries, from the Authorization header or the query string."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.query_params.get("token") or None


def require_admin(request: Request) -> None:
    """FastAPI dependency: raise ``AccessDenied`` unless the request may read the dashboard."""
    expected = admin_token(request)
    if expected is None:
        return
    given = presented_token(request)
    # compare_digest keeps the comparison time independent of where the strings differ.
    if given is None or not hmac.compare_digest(given.encode(), expected.encode()):
        raise AccessDenied()
