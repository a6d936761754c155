"""Finished deals in the browser: the replay page, its JSON, and the export download.

| route | answer |
|---|---|
| `GET /rooms/{room_id}/deals/{deal_no}` | the replay page (`web/replay.html`) |
| `GET /api/rooms/{room_id}/deals/{deal_no}` | the deal's breakdown, every step with all hands open, review marks |
| `GET /api/rooms/{room_id}/deals/{deal_no}/export` | the deal as `mahjong-hall replay` input, as a download |

`deal_no` counts the room's deals from 1 over its whole life (games after the first go
on counting). A deal still in play answers 404 on all three: its seed and log would show
every concealed hand and the wall (docs/learning.md). The right to see the table is
checked before the deal number is looked at, so a stranger to a private table gets the
same 403 for every number (and its page the same page), and cannot count its deals.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import select

from server.api.errors import ApiError
from server.api.http import ROOM_ID, client_file, manager_of
from server.api.query_values import whole_number_in
from server.api.room_access import INVITE_REQUIRED, Sight, room_sight
from server.dashboard.deals import deal_breakdown
from server.replays.review import export_document, replay_steps
from server.store.schema import deals

router = APIRouter()


# More deals than any room plays in a life (a game is at most a few dozen).
LARGEST_DEAL_NO = 1_000_000


async def _sight(request: Request, room_id: str) -> Sight:
    """What the request may know of the room: `room_sight`, and no database visit for an
    id that names no room."""
    return await room_sight(request, room_id) if ROOM_ID.fullmatch(room_id) else Sight.NO_ROOM


def _no_deal(room_id: str, deal_no: str) -> ApiError:
    return ApiError(404, "deal_not_found", f"no finished deal {deal_no[:20]!r} in room {room_id!r}")


async def _ended_deal(request: Request, room_id: str, deal_no: str) -> Any:
    """The stored row of the room's `deal_no`-th deal; 404 unless it exists and has ended."""
    number = whole_number_in(deal_no, 1, LARGEST_DEAL_NO)
    if number is None:
        raise _no_deal(room_id, deal_no)
    async with manager_of(request).store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(deals.c.deal_id, deals.c.ended_at, deals.c.result)
                .where(deals.c.room_id == room_id)
                .order_by(deals.c.game_no, deals.c.deal_no)
            )
        ).all()
    if not 1 <= number <= len(rows) or rows[number - 1].ended_at is None:
        raise _no_deal(room_id, deal_no)
    return rows[number - 1]


async def finished_deal(request: Request, room_id: str, deal_no: str) -> dict[str, Any]:
    """The room's `deal_no`-th deal as the dashboard reads it, plus its stored result;
    403 at a private table without its invite or a seated player's token (the same right
    watching it needs) whatever the number, else 404 unless it exists and has ended."""
    sight = await _sight(request, room_id)
    if sight is Sight.REFUSED:
        raise ApiError(403, "invite_required", INVITE_REQUIRED)
    if sight is Sight.NO_ROOM:
        raise ApiError(404, "room_not_found", f"no room {room_id[:64]!r}")
    row = await _ended_deal(request, room_id, deal_no)
    async with manager_of(request).store.engine.connect() as conn:
        deal = await deal_breakdown(conn, row.deal_id)
    if deal is None:
        raise _no_deal(room_id, deal_no)
    deal["result"] = row.result
    deal["room_deal_no"] = int(deal_no)
    return deal


@router.get("/rooms/{room_id}/deals/{deal_no}", include_in_schema=False)
async def replay_page(request: Request, room_id: str, deal_no: str) -> Response:
    """The replay viewer. The page holds no deal: its script fetches the JSON below with
    the invite or token this browser keeps, and that answer carries the access check. So
    at a table the request may not see (a browser sends no secret for a page) it is the
    same page for every number; elsewhere a deal unknown or still in play is a 404."""
    sight = await _sight(request, room_id)
    if sight is Sight.NO_ROOM:
        raise ApiError(404, "room_not_found", f"no room {room_id[:64]!r}")
    if sight is Sight.SEEN:
        await _ended_deal(request, room_id, deal_no)
    return client_file(request, "replay.html", page=True)


@router.get("/api/rooms/{room_id}/deals/{deal_no}")
async def replay_json(request: Request, room_id: str, deal_no: str) -> dict[str, Any]:
    """The finished deal: who sat where, the result, and every step with all hands open."""
    deal = await finished_deal(request, room_id, deal_no)
    return {
        "room_id": room_id,
        "deal_no": deal["room_deal_no"],
        "variant": deal["variant"],
        "players": deal["players"],
        "result": deal["result"],
        "hints": hints_used(deal),
        "steps": replay_steps(deal),
        "export": f"/api/rooms/{room_id}/deals/{deal_no}/export",
    }


@router.get("/api/rooms/{room_id}/deals/{deal_no}/export")
async def replay_export(request: Request, room_id: str, deal_no: str) -> JSONResponse:
    """The deal as `mahjong-hall replay` input, downloaded as a file."""
    deal = await finished_deal(request, room_id, deal_no)
    name = f"mahjong-hall-{room_id}-deal-{deal['room_deal_no']}.json"
    return JSONResponse(
        export_document(deal), headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


def hints_used(deal: dict[str, Any]) -> dict[str, int]:
    """How many of each seat's moves followed a hint (the log marks them)."""
    used: dict[str, int] = {}
    for entry in deal["actions"]:
        if entry.get("bot_reason") == "hint" and entry.get("seat"):
            used[entry["seat"]] = used.get(entry["seat"], 0) + 1
    return used
