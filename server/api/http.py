"""HTTP routes: rooms, joining, bots, public state, results, health, and the static client."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from server.api import static_files
from server.api.address_limits import AddressBuckets, client_key, retry_after
from server.api.errors import ApiError, error_response, http_error_words, validation_details
from server.api.models import AddBots as AddBotsBody
from server.api.models import CreateRoom, JoinRoom
from server.api.room_access import INVITE_REQUIRED, may_see_room, seated_player_index
from server.api.room_pages import room_page
from server.engine.rules import RulesError, TableRules
from server.rooms.manager import RoomManager, RoomNotFoundError, TooManyRoomsError
from server.rooms.ownership import RoomElsewhereError
from server.rooms.players import NameTakenError, RoomClosedError, RoomFullError
from server.rooms.settings import RoomSettings
from server.rooms.snapshot import RoomStatus
from server.settings import default_web_directory
from server.store import StoreUnavailable
from server.store.leases import LeaseLostError

log = logging.getLogger(__name__)
router = APIRouter()

# Room ids are `secrets.token_urlsafe(9)`; anything else names no room, and is never
# passed to the database (where a NUL byte, say, is an error rather than a miss).
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# A full server frees a room when one closes; ask again in about a minute.
FULL_RETRY_SECONDS = 60


def install_error_handlers(app: FastAPI) -> None:
    """Answer validation, lookup, HTTP and unexpected errors in the protocol's JSON shape."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.code, error.message, headers=error.headers)

    @app.exception_handler(LeaseLostError)
    async def _lease_lost(_request: Request, error: LeaseLostError) -> JSONResponse:
        # The room moved to another process while this one answered: try again there.
        moving = _moving(str(error))
        return error_response(moving.status, moving.code, moving.message, headers=moving.headers)

    @app.exception_handler(StoreUnavailable)
    async def _store_down(_request: Request, error: StoreUnavailable) -> JSONResponse:
        # The database is stopped, restarting or full: nothing was changed; try later.
        return error_response(503, "store_unavailable", str(error))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [dict(problem) for problem in error.errors()]
        if any(problem.get("type") == "json_invalid" for problem in problems):
            return error_response(400, "bad_json", "the request body is not valid JSON")
        summary, details = validation_details(problems)
        return error_response(422, "validation_error", summary, details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code, message = http_error_words(error.status_code, str(error.detail))
        headers = dict(error.headers or {})
        if error.status_code == 413:
            headers["Connection"] = "close"  # the rest of the body is never read
        return error_response(error.status_code, code, message, headers=headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        # The traceback goes to the log (uvicorn logs it again); the client gets no detail.
        log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
        # uvicorn closes the connection after an unhandled error: say so, so no client
        # sends its next request down a connection about to close.
        return error_response(
            500,
            "internal_error",
            "the server met an unexpected error",
            headers={"Connection": "close"},
        )


def manager_of(request: Request) -> RoomManager:
    """The app's room manager."""
    manager: RoomManager = request.app.state.rooms
    return manager


async def _room_here_or_404(manager: RoomManager, room_id: str) -> Any:
    """The open room, reopened here first if no other process owns it (docs/scaling.md)."""
    if ROOM_ID.fullmatch(room_id):
        try:
            await manager.bring_here(room_id)
        except RoomElsewhereError as moving:
            raise _moving(str(moving)) from None
    return _room_or_404(manager, room_id)


def _moving(text: str) -> ApiError:
    """Another process serves the table right now: the client tries again (docs/protocol.md)."""
    retry = {"Retry-After": str(RoomElsewhereError.retry_after)}
    return ApiError(503, "room_moving", text, headers=retry)


def _room_or_404(manager: RoomManager, room_id: str) -> Any:
    try:
        return manager.get(room_id)
    except RoomNotFoundError:
        raise ApiError(404, "room_not_found", f"no open room {room_id[:64]!r}") from None


def _spend(request: Request, buckets_name: str, what: str) -> None:
    """Take one token of the client's bucket, or answer 429 with `Retry-After`."""
    buckets: AddressBuckets | None = getattr(request.app.state, buckets_name, None)
    if buckets is None:
        return
    wait = buckets.take(client_key(request.scope))
    if wait is not None:
        raise ApiError(
            429,
            "rate_limited",
            f"too many {what} from your address (at most {buckets.capacity:g} a minute);"
            f" try again in {retry_after(wait)} s",
            headers={"Retry-After": retry_after(wait)},
        )


@router.post("/api/rooms", status_code=201)
async def create_room(request: Request, body: CreateRoom) -> dict[str, str]:
    """Open a table; answers its id, its invite secret and the invite link."""
    _spend(request, "room_buckets", "new tables")
    try:
        rules = None if body.rules is None else TableRules.from_json(body.rules, body.variant)
    except RulesError as error:
        raise ApiError(422, "validation_error", str(error)) from None
    settings = RoomSettings(
        variant=body.variant,
        turn_seconds=float(body.turn_seconds),
        deal_seconds=float(body.deal_seconds),
        rounds=body.rounds,
        name=body.name,
        hints=body.hints,
        rules=None if rules is None or rules.is_default else rules.to_json(),
    )
    try:
        room_id, invite = await manager_of(request).open_table(
            settings, public=body.public, spectators_allowed=body.spectators
        )
    except TooManyRoomsError as error:
        raise ApiError(
            503, "too_many_rooms", str(error), headers={"Retry-After": str(FULL_RETRY_SECONDS)}
        ) from None
    # The secret rides in the fragment, which browsers never send to a server (nor to
    # the logs of a proxy in between); the table page reads it from there.
    page = request.url_for("table_page", room_id=room_id)
    return {"room_id": room_id, "invite": invite, "url": f"{page}#invite={invite}"}


def _refuse_stranger() -> ApiError:
    return ApiError(403, "invite_required", INVITE_REQUIRED)


@router.post("/api/rooms/{room_id}/join")
async def join_room(request: Request, room_id: str, body: JoinRoom) -> dict[str, Any]:
    """Seat a player; answers the seat of the first deal and the player's secret token."""
    _spend(request, "join_buckets", "joins and bot requests")
    manager = manager_of(request)
    actor = await _room_here_or_404(manager, room_id)
    if not actor.access.may_enter(body.invite):
        raise _refuse_stranger()
    try:
        seated = await manager.join(room_id, body.name)
    except RoomFullError as error:
        raise ApiError(409, "room_full", str(error)) from None
    except NameTakenError as error:
        raise ApiError(409, "name_taken", str(error)) from None
    except RoomClosedError as error:
        raise ApiError(409, "room_closed", str(error)) from None
    return {**seated, "room_id": room_id}


@router.post("/api/rooms/{room_id}/bots")
async def add_bots(
    request: Request, room_id: str, body: AddBotsBody | None = None
) -> dict[str, Any]:
    """Fill every empty seat with a bot (the first deal then starts).

    Allowed to a seated player (`Authorization: Bearer <token>`) or a holder of the invite;
    on a public table to anyone who may join it.
    """
    _spend(request, "join_buckets", "joins and bot requests")
    manager = manager_of(request)
    actor = await _room_here_or_404(manager, room_id)
    invite = body.invite if body is not None else None
    if not actor.access.may_enter(invite) and seated_player_index(request, room_id) is None:
        raise _refuse_stranger()
    room = actor.snapshot()
    if room.status is RoomStatus.WAITING and all(player.is_bot for player in room.players):
        # A table of bots alone would only burn the server's time: nobody plays at it.
        raise ApiError(
            409, "no_human_seated", "a player must take a seat before bots fill the others"
        )
    try:
        added = await manager.add_bots(room_id)
    except RoomFullError as error:
        raise ApiError(409, "room_full", str(error)) from None
    except RoomClosedError as error:
        raise ApiError(409, "room_closed", str(error)) from None
    return {"room_id": room_id, "bots": added}


@router.get("/api/rooms")
async def list_rooms(
    request: Request, status: str | None = None, limit: str | None = None, cursor: str = ""
) -> dict[str, Any]:
    """One page of the open rooms, newest first (`status=waiting`: those with a free seat)."""
    try:
        return room_page(await manager_of(request).lobby(), status, limit, cursor)
    except ValueError as error:
        raise ApiError(422, "validation_error", str(error)) from None


@router.get("/api/rooms/{room_id}")
async def room_state(request: Request, room_id: str) -> dict[str, Any]:
    """The room's public state: players, scores, and the spectator's view of the table."""
    manager = manager_of(request)
    await _room_here_or_404(manager, room_id)
    if not await may_see_room(request, room_id):
        raise _refuse_stranger()
    return manager.public_state(room_id)


@router.get("/api/rooms/{room_id}/results")
async def room_results(request: Request, room_id: str) -> dict[str, Any]:
    """Finished deals and scores, from the database (they survive restarts)."""
    if not ROOM_ID.fullmatch(room_id):
        raise ApiError(404, "room_not_found", f"no room {room_id[:64]!r}")
    results = await manager_of(request).store.room_results(room_id)
    if results is not None and not await may_see_room(request, room_id):
        raise _refuse_stranger()
    if results is None:
        raise ApiError(404, "room_not_found", f"no room {room_id!r}")
    return results


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


def web_directory(request: Request) -> Path:
    """Where the browser client's files are (`Settings.web_directory`): the one place the
    pages, the static files and the dashboard are read from."""
    settings = getattr(request.app.state, "settings", None)
    return settings.web_directory if settings is not None else default_web_directory()


def client_file(
    request: Request, relative: str, *, page: bool = False, versioned: bool = False
) -> Response:
    # Compression and caching live in static_files.py; this only maps a miss to a 404.
    try:
        if page:
            return static_files.page_response(request, web_directory(request), relative)
        return static_files.static_response(request, web_directory(request), relative, versioned)
    except static_files.WebFileMissingError:
        raise ApiError(404, "not_found", "no such page") from None


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> Response:
    """The lobby (web/index.html)."""
    return client_file(request, "index.html", page=True)


@router.get("/rooms/{room_id}", include_in_schema=False, name="table_page")
async def table_page(request: Request, room_id: str) -> Response:
    """The table page (web/table.html); the page reads the room id from its URL."""
    return client_file(request, "table.html", page=True)


@router.get("/static/v/{version}/{path:path}", include_in_schema=False)
async def versioned_static_file(request: Request, version: str, path: str) -> Response:
    """A file of the browser client under a version of the whole client (cached for good)."""
    return client_file(request, path, versioned=True)


@router.get("/static/{path:path}", include_in_schema=False)
async def static_file(request: Request, path: str) -> Response:
    """A file of the browser client (revalidated by ETag)."""
    return client_file(request, path)
