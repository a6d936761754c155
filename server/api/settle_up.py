"""Settling up over HTTP: one game's fewest transfers, and a whole night's.

The algorithm is the engine's (`server.engine.settle_up`); this module only reads the
points from the store and checks who may see them. A game's settle-up needs the same
right as seeing its table. A night's covers exactly the rooms where the caller holds a
seat: the client sends the seat tokens it remembers, so nobody learns of a game they
did not sit at.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from server.api.http import ROOM_ID, ApiError
from server.api.room_access import INVITE_REQUIRED, may_see_room
from server.engine.settle_up import CURRENCIES, PointValue, SettleUpError, render_text, settle_up
from server.rooms.manager import RoomManager
from server.store import hash_token

router = APIRouter()

MAX_MINOR_PER_POINT = 1_000_000
Currency = Literal["points", "MYR", "HKD"]


def _value(currency: str, minor_per_point: int) -> PointValue:
    if currency not in CURRENCIES:
        raise ApiError(422, "validation_error", f"currency: one of {', '.join(CURRENCIES)}")
    if not 1 <= minor_per_point <= MAX_MINOR_PER_POINT:
        raise ApiError(
            422, "validation_error", f"minor_per_point: a whole number 1..{MAX_MINOR_PER_POINT}"
        )
    return PointValue(CURRENCIES[currency], minor_per_point)


def _settled(balances: dict[str, int], value: PointValue) -> dict[str, Any]:
    try:
        settlement = settle_up(balances, value)
    except SettleUpError as error:  # stored scores always balance; say so if they do not
        raise ApiError(409, "unbalanced", str(error)) from None
    return {**settlement.to_json(), "text": render_text(settlement)}


@router.get("/api/rooms/{room_id}/settle-up")
async def settle_game(
    request: Request, room_id: str, currency: str = "points", minor_per_point: str = "1"
) -> dict[str, Any]:
    """The fewest transfers that settle the room's scores so far, valued as asked."""
    if not minor_per_point.isdigit():
        raise ApiError(422, "validation_error", "minor_per_point: a whole number")
    value = _value(currency, int(minor_per_point))
    manager: RoomManager = request.app.state.rooms
    results = await manager.store.room_results(room_id) if ROOM_ID.fullmatch(room_id) else None
    if results is None:
        raise ApiError(404, "room_not_found", f"no room {room_id[:64]!r}")
    if not await may_see_room(request, room_id):
        raise ApiError(403, "invite_required", INVITE_REQUIRED)
    return {"room_id": room_id, **_settled(dict(results["scores"]), value)}


class NightSettleUp(BaseModel):
    """`POST /api/settle-up/night`: the seats the client holds, two times and a value."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tokens: list[str] = Field(min_length=1, max_length=100)
    since: str = Field(max_length=40)
    until: str = Field(max_length=40)
    currency: Currency = "points"
    minor_per_point: int = Field(default=1, ge=1, le=MAX_MINOR_PER_POINT)


def _moment(text: str, field: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ApiError(422, "validation_error", f"{field}: an ISO 8601 time") from None
    # A time without a zone is read as UTC, the zone of every stored time.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@router.post("/api/settle-up/night")
async def settle_night(request: Request, body: NightSettleUp) -> dict[str, Any]:
    """Every deal that ended between `since` and `until` in the rooms of `tokens`, settled."""
    since, until = _moment(body.since, "since"), _moment(body.until, "until")
    if until < since:
        raise ApiError(422, "validation_error", "until: must not be before since")
    manager: RoomManager = request.app.state.rooms
    hashes = sorted({hash_token(token) for token in body.tokens if len(token) <= 100})
    rooms, balances = await manager.store.night_points(hashes, since, until)
    value = _value(body.currency, body.minor_per_point)
    return {
        "rooms": rooms,
        "since": since.isoformat(),
        "until": until.isoformat(),
        **_settled(balances, value),
    }
