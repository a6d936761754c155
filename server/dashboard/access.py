"""Who may read the dashboard, and what of it.

With ``MAHJONG_ADMIN_TOKEN`` set, every ``/api/dashboard/...`` call needs it, as
``Authorization: Bearer <token>`` or ``?token=<token>``, and shows every table. Unset (the
default, a fresh install), anyone may read it, but it shows the public tables alone: every
list and figure covers their deals only (`scoped_filters`), and a private table's own views
(a deal, its settlement) need that table's own right, its invite or a seated player's token,
exactly as watching it does. So a stranger never sees a private table (docs/operations.md,
"Access"). The ``/dashboard`` page itself is only a shell with no figures in it; it asks for
the token and sends it with each call. A room's own results (``/api/rooms/{id}/results``)
are not part of the dashboard and stay open to its players.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Request

from server.api.errors import ApiError
from server.api.room_access import INVITE_REQUIRED, Sight, room_sight
from server.dashboard.filters import DealFilters


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


def sees_every_table(request: Request) -> bool:
    """Whether this viewer sees private tables too: only with the admin token (which
    ``require_admin`` has checked by the time a route runs)."""
    return admin_token(request) is not None


def scoped_filters(
    request: Request, filters: Annotated[DealFilters, Depends(DealFilters.from_query)]
) -> DealFilters:
    """FastAPI dependency: the query's filters, kept to the public tables for a viewer
    without the admin token."""
    return filters if sees_every_table(request) else filters.only_public()


async def require_room_sight(request: Request, room_id: str) -> None:
    """A private table's own dashboard view, without the admin token, needs the table's
    own right: 403 ``invite_required`` without it, 404 for no such room."""
    if sees_every_table(request):
        return
    sight = await room_sight(request, room_id)
    if sight is Sight.REFUSED:
        raise ApiError(403, "invite_required", INVITE_REQUIRED)
    if sight is Sight.NO_ROOM:
        raise ApiError(404, "room_not_found", f"no room {room_id[:64]!r}")
