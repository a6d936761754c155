"""HTTP routes: rooms, joining, bots, public state, results, health, and the static client."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

import server
from server.api import static_files
from server.api.models import CreateRoom, JoinRoom
from server.rooms.manager import RoomManager, RoomNotFoundError
from server.rooms.players import NameTakenError, RoomClosedError, RoomFullError
from server.rooms.settings import RoomSettings
from server.store import StoreUnavailable

router = APIRouter()


class ApiError(Exception):
    """An error answered as `{"error": {"code", "message"}}` with `status`."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str, details: Any = None) -> JSONResponse:
    """The one shape of every HTTP error (docs/protocol.md)."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    """Answer validation, lookup and HTTP errors in the protocol's JSON shape."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.code, error.message)

    @app.exception_handler(StoreUnavailable)
    async def _store_down(_request: Request, error: StoreUnavailable) -> JSONResponse:
        # The database is stopped, restarting or full: nothing was changed; try later.
        return error_response(503, "store_unavailable", str(error))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(problem.get("type") == "json_invalid" for problem in problems):
            return error_response(400, "bad_json", "the request body is not valid JSON")
        details = [
            {
                "loc": [str(part) for part in problem.get("loc", ())],
                "msg": str(problem.get("msg", "")),
            }
            for problem in problems
        ]
        summary = "; ".join(f"{'.'.join(d['loc'][1:]) or 'body'}: {d['msg']}" for d in details)
        return error_response(422, "validation_error", summary or "invalid request", details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return error_response(error.status_code, code, str(error.detail))


def manager_of(request: Request) -> RoomManager:
    """The app's room manager."""
    manager: RoomManager = request.app.state.rooms
    return manager


def _room_or_404(manager: RoomManager, room_id: str) -> None:
    try:
        manager.get(room_id)
    except RoomNotFoundError:
        raise ApiError(404, "room_not_found", f"no open room {room_id!r}") from None


@router.post("/api/rooms", status_code=201)
async def create_room(request: Request, body: CreateRoom) -> dict[str, str]:
    """Open a room; answers its id."""
    settings = RoomSettings(
        variant=body.variant,
        turn_seconds=float(body.turn_seconds),
        deal_seconds=float(body.deal_seconds),
        rounds=body.rounds,
        name=body.name.strip(),
        hints=body.hints,
    )
    return {"room_id": await manager_of(request).create_room(settings)}


@router.post("/api/rooms/{room_id}/join")
async def join_room(request: Request, room_id: str, body: JoinRoom) -> dict[str, Any]:
    """Seat a player; answers the seat of the first deal and the player's secret token."""
    manager = manager_of(request)
    _room_or_404(manager, room_id)
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
async def add_bots(request: Request, room_id: str) -> dict[str, Any]:
    """Fill every empty seat with a bot (the first deal then starts)."""
    manager = manager_of(request)
    _room_or_404(manager, room_id)
    try:
        added = await manager.add_bots(room_id)
    except RoomFullError as error:
        raise ApiError(409, "room_full", str(error)) from None
    except RoomClosedError as error:
        raise ApiError(409, "room_closed", str(error)) from None
    return {"room_id": room_id, "bots": added}


@router.get("/api/rooms")
async def list_rooms(request: Request, status: str | None = None) -> dict[str, Any]:
    """The open rooms of this server, newest first (`status=waiting`: those with a free seat)."""
    return {"rooms": manager_of(request).list_rooms(status)}


@router.get("/api/rooms/{room_id}")
async def room_state(request: Request, room_id: str) -> dict[str, Any]:
    """The room's public state: players, scores, and the spectator's view of the table."""
    manager = manager_of(request)
    _room_or_404(manager, room_id)
    return manager.public_state(room_id)


@router.get("/api/rooms/{room_id}/results")
async def room_results(request: Request, room_id: str) -> dict[str, Any]:
    """Finished deals and scores, from the database (they survive restarts)."""
    results = await manager_of(request).store.room_results(room_id)
    if results is None:
        raise ApiError(404, "room_not_found", f"no room {room_id!r}")
    return results


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


def web_directory() -> Path:
    """Where the browser client's files are: `MAHJONG_WEB_DIR`, else `web/` at the repository root."""
    configured = os.environ.get("MAHJONG_WEB_DIR")
    return Path(configured) if configured else Path(server.__file__).resolve().parent.parent / "web"


def _client_file(
    request: Request, relative: str, *, page: bool = False, versioned: bool = False
) -> Response:
    # Compression and caching live in static_files.py; this only maps a miss to a 404.
    try:
        if page:
            return static_files.page_response(request, web_directory(), relative)
        return static_files.static_response(request, web_directory(), relative, versioned)
    except static_files.WebFileMissingError:
        raise ApiError(404, "not_found", "no such page") from None


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> Response:
    """The lobby (web/index.html)."""
    return _client_file(request, "index.html", page=True)


@router.get("/rooms/{room_id}", include_in_schema=False)
async def table_page(request: Request, room_id: str) -> Response:
    """The table page (web/table.html); the page reads the room id from its URL."""
    return _client_file(request, "table.html", page=True)


@router.get("/static/v/{version}/{path:path}", include_in_schema=False)
async def versioned_static_file(request: Request, version: str, path: str) -> Response:
    """A file of the browser client under a version of the whole client (cached for good)."""
    return _client_file(request, path, versioned=True)


@router.get("/static/{path:path}", include_in_schema=False)
async def static_file(request: Request, path: str) -> Response:
    """A file of the browser client (revalidated by ETag)."""
    return _client_file(request, path)
