"""Settling up over HTTP: one game's fewest transfers, and a whole night's.

The algorithm is the engine's (`server.engine.settle_up`); this module only reads the
points from the store and checks who may see them. A game's settle-up needs the same
right as seeing its table. A night's covers exactly the rooms where the caller holds a
seat: the client sends the seat tokens it remembers, so nobody learns of a game they
did not sit at.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from server.api.errors import ApiError, bad_value
from server.api.http import ROOM_ID
from server.api.query_values import moment, whole_number
from server.api.room_access import INVITE_REQUIRED, may_see_room
from server.engine.settle_up import CURRENCIES, PointValue, SettleUpError, render_text, settle_up
from server.rooms.manager import RoomManager
from server.store import hash_token

router = APIRouter()

MAX_MINOR_PER_POINT = 1_000_000
Currency = Literal["points", "MYR", "HKD"]
# Seat tokens are `secrets.token_urlsafe`; any other text is no seat's (and a lone
# surrogate in it would not even encode to hash it).
_SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")


def point_value(currency: str, minor_per_point: str | int) -> PointValue:
    """What one point is worth, as a query (text) or a body (a JSON number) names it.

    The one check of the room's, the night's and the dashboard's settle-ups: a currency
    of `CURRENCIES`, a whole number 1..`MAX_MINOR_PER_POINT` of its minor unit, and plain
    points worth exactly 1, as `PointValue.from_json` requires.
    """
    if currency not in CURRENCIES:
        raise bad_value(f"currency: must be one of {', '.join(CURRENCIES)}")
    per_point = (
        minor_per_point
        if isinstance(minor_per_point, int)
        else whole_number(minor_per_point, "minor_per_point", 1, MAX_MINOR_PER_POINT)
    )
    if not 1 <= per_point <= MAX_MINOR_PER_POINT:
        raise bad_value(f"minor_per_point: must be a whole number from 1 to {MAX_MINOR_PER_POINT}")
    try:
        return PointValue.from_json({"currency": currency, "minor_per_point": per_point})
    except SettleUpError as error:  # plain points worth more than 1
        raise bad_value(str(error).removeprefix("point value.")) from None


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
    value = point_value(currency, minor_per_point)
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


@router.post("/api/settle-up/night")
async def settle_night(request: Request, body: NightSettleUp) -> dict[str, Any]:
    """Every deal that ended between `since` and `until` in the rooms of `tokens`, settled."""
    since, until = moment(body.since, "since"), moment(body.until, "until")
    if until < since:
        raise bad_value("until: must not be before since")
    value = point_value(body.currency, body.minor_per_point)
    manager: RoomManager = request.app.state.rooms
    hashes = sorted({hash_token(token) for token in body.tokens if _SEAT_TOKEN.fullmatch(token)})
    rooms, balances = await manager.store.night_points(hashes, since, until)
    return {
        "rooms": rooms,
        "since": since.isoformat(),
        "until": until.isoformat(),
        **_settled(balances, value),
    }
