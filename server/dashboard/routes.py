"""The dashboard's HTTP routes: the ``/dashboard`` page and its ``/api/dashboard`` API.

| route | answer |
|---|---|
| ``GET /dashboard`` | the page (``web/dashboard.html``) |
| ``GET /dashboard/assets/{file}`` | its script and style sheet |
| ``GET /api/dashboard/deals`` | recent finished deals: filters, ``limit``, ``offset`` |
| ``GET /api/dashboard/deals/{deal_id}`` | one deal: breakdown and its logged actions |
| ``GET /api/dashboard/standings`` | points, wins, self-draws, dealt in, average fan |
| ``GET /api/dashboard/charts`` | winning fan, outcomes, patterns, durations |
| ``GET /api/dashboard/operations`` | live tables, bot cover per player, deal-limit endings |
| ``GET /api/dashboard/rooms/{room_id}/settlement`` | a room's games settled up (``settlements.py``) |
| ``GET /api/dashboard/ledgers`` | real-table nights, beside the online games (``ledgers.py``) |

Filters on every list, declared once by ``DealFilters.from_query``: ``variant``, ``room``,
``player``, ``outcome``, ``since``, ``until`` (ISO dates; ``until`` is inclusive of its day).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from server.api.errors import error_response
from server.api.http import web_directory
from server.api.query_values import whole_number, whole_number_in
from server.api.room_access import Sight, room_sight
from server.dashboard import charts as chart_queries
from server.dashboard import deals as deal_queries
from server.dashboard import ledgers as ledger_nights
from server.dashboard import operations as operation_queries
from server.dashboard import summaries
from server.dashboard.access import AccessDenied, require_admin, scoped_filters, sees_every_table
from server.dashboard.filters import DealFilters, FilterError
from server.dashboard.settlements import api as settlement_api
from server.dashboard.standings import standings as standings_query

ASSETS = {
    "dashboard.js": "text/javascript; charset=utf-8",
    "dashboard-charts.js": "text/javascript; charset=utf-8",
    "dashboard-games.js": "text/javascript; charset=utf-8",
    "dashboard-ledgers.js": "text/javascript; charset=utf-8",
    "dashboard.css": "text/css; charset=utf-8",
}

log = logging.getLogger(__name__)

# Deal ids are a 32-bit column; a larger number names no deal (and Postgres would refuse it).
LARGEST_DEAL_ID = 2**31 - 1

router = APIRouter(tags=["dashboard"])
api = APIRouter(prefix="/api/dashboard", dependencies=[Depends(require_admin)])


def _error(status: int, code: str, message: str) -> JSONResponse:
    return error_response(status, code, message)


def install_error_handlers(app: FastAPI) -> None:
    """Turn the dashboard's exceptions into the project's JSON error shape."""

    async def denied(_request: Request, _error_raised: Exception) -> Response:
        response = _error(401, "unauthorized", "this dashboard needs the admin token")
        response.headers["WWW-Authenticate"] = "Bearer"
        return response

    async def bad_filter(_request: Request, error: Exception) -> Response:
        return _error(422, "validation_error", str(error))

    app.add_exception_handler(AccessDenied, denied)
    app.add_exception_handler(FilterError, bad_filter)


def _store(request: Request) -> Any:
    store = getattr(request.app.state, "store", None)
    if store is None:
        raise RuntimeError("the app has no store (app.state.store)")
    return store


# Every list's filters, as `DealFilters.from_query` declares them (its parameters are the
# query parameters), kept to the public tables for a viewer without the admin token.
Filters = Annotated[DealFilters, Depends(scoped_filters)]


@router.get("/dashboard", include_in_schema=False)
async def dashboard_page(request: Request) -> Response:
    """The dashboard page: a shell that fetches everything from the API below."""
    page = web_directory(request) / "dashboard.html"
    if not page.is_file():
        return _error(404, "not_found", "web/dashboard.html is missing")
    return FileResponse(page, media_type="text/html; charset=utf-8")


@router.get("/dashboard/assets/{name}", include_in_schema=False)
async def dashboard_asset(request: Request, name: str) -> Response:
    """The page's own script and style sheet (a fixed list: no path is taken from the URL)."""
    folder = web_directory(request)
    if name not in ASSETS or not (folder / name).is_file():
        return _error(404, "not_found", f"no dashboard asset {name!r}")
    return FileResponse(folder / name, media_type=ASSETS[name])


@api.get("/deals")
async def list_deals(
    request: Request,
    filters: Filters,
    limit: str = "50",
    offset: str = "0",
) -> dict[str, Any]:
    """Recent finished deals, newest first."""
    size = whole_number(limit, "limit", 1, deal_queries.MAX_PAGE)
    start = whole_number(offset, "offset", 0, 1_000_000)
    async with _store(request).engine.connect() as conn:
        return await deal_queries.recent_deals(conn, filters, size, start)


@api.get("/deals/{deal_id}")
async def show_deal(request: Request, deal_id: str) -> Response:
    """One deal's full breakdown and its replay of actions."""
    number = whole_number_in(deal_id, 1, LARGEST_DEAL_ID)
    if number is None:
        return _error(404, "deal_not_found", f"no deal {deal_id[:20]!r}")
    async with _store(request).engine.connect() as conn:
        deal = await deal_queries.deal_breakdown(conn, number)
    if deal is None or not await _may_see_deal(request, deal["room_id"]):
        # A private table's deal is no more there for a stranger than an unknown one.
        return _error(404, "deal_not_found", f"no deal {number}")
    return JSONResponse(deal)


async def _may_see_deal(request: Request, room_id: str) -> bool:
    """With the admin token any deal; without it a public table's, or one whose table's
    own right (invite, seated token) the request carries."""
    return sees_every_table(request) or await room_sight(request, room_id) is Sight.SEEN


@api.get("/standings")
async def show_standings(
    request: Request,
    filters: Filters,
    include_bots: bool = False,
    limit: str = "100",
) -> dict[str, Any]:
    """Points per player across rooms and games."""
    size = whole_number(limit, "limit", 1, 500)
    async with _store(request).engine.connect() as conn:
        if summaries.answered_by_summaries(filters):
            answer = await summaries.standings(conn, filters, include_bots, size)
        else:
            answer = await standings_query(conn, filters, include_bots, size)
        if not sees_every_table(request):
            return answer  # every ledger is private: its figures are the admin's to see
        # Real-table nights join when their host chose so (ledgers.py).
        return await ledger_nights.join_standings(conn, filters, size, answer)


@api.get("/charts")
async def show_charts(request: Request, filters: Filters) -> dict[str, Any]:
    """The figures behind the four charts."""
    async with _store(request).engine.connect() as conn:
        if summaries.answered_by_summaries(filters):
            return await summaries.charts(conn, filters)
        return await chart_queries.charts(conn, filters)


@api.get("/operations")
async def show_operations(request: Request, filters: Filters) -> dict[str, Any]:
    """Live tables and players, bot cover per player, deals ended by the time limit."""
    # create_app keeps the room manager in app.state.rooms.
    manager = getattr(request.app.state, "rooms", None)
    snapshots = await manager.all_snapshots() if manager else []
    if filters.public_only:
        snapshots = [room for room in snapshots if room.public]
    async with _store(request).engine.connect() as conn:
        if summaries.answered_by_summaries(filters):
            cover = await summaries.bot_cover(conn, filters)
            recent = await operation_queries.recent_deal_limit_endings(conn, filters)
            limited = {"count": await summaries.timeout_count(conn, filters), "recent": recent}
        else:
            cover = await operation_queries.bot_cover(conn, filters)
            limited = await operation_queries.deal_limit_endings(conn, filters)
    return {
        # With several processes, the rooms of every one (their leases' snapshots).
        "live": operation_queries.live_tables(snapshots),
        "bot_cover": cover,
        "deal_limit": limited,
    }


router.include_router(api)
router.include_router(settlement_api)
router.include_router(ledger_nights.api)
