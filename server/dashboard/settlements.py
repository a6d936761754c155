"""The dashboard's games: each game of a room (its finished deals), the house rules it was
played by, and the settle-up transfers that clear its points, at the value the viewer picks.

The points are read from the store (``deal_players.net_points`` of the game's finished
deals, summed per player); the transfers are the engine's (`server.engine.settle_up`),
so the dashboard shows exactly what the table's own settle-up would for those deals.
A deal's rules are the ones stored with it (``deals.settings["rules"]``; a deal from
before house rules was played by the seed's rules of its table).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.api.errors import error_response
from server.api.house_rules import rule_changes
from server.api.settle_up import point_value
from server.dashboard.access import require_admin, require_room_sight
from server.engine.rules import RulesError, TableRules
from server.engine.settle_up import PointValue, SettleUpError, render_text, settle_up
from server.store.schema import deal_players, deals, rooms

api = APIRouter(prefix="/api/dashboard", dependencies=[Depends(require_admin)])


def deal_rules(settings: dict[str, Any] | None, variant: str) -> dict[str, Any]:
    """A stored deal's rules in full, and the fields where they differ from the seed's.

    ``house_rules`` is ``{}`` for a deal played by the seed's rules (one from before house
    rules too); ``rules_stored`` says whether the deal stored its rules at all.
    """
    stored = (settings or {}).get("rules")
    try:
        rules = TableRules.from_json(stored, variant) if stored else TableRules.default(variant)
    except RulesError:
        # A stored object the engine no longer reads is shown as stored, unworded.
        return {"rules": stored, "house_rules": None, "rules_stored": True}
    return {
        "rules": rules.to_json(),
        "house_rules": rule_changes(rules),
        "rules_stored": bool(stored),
    }


async def game_settlements(
    conn: AsyncConnection, room_id: str, value: PointValue
) -> list[dict[str, Any]]:
    """Every game of the room with finished deals: its deals, rules, balances, transfers."""
    finished = (
        await conn.execute(
            select(deals.c.deal_id, deals.c.game_no, deals.c.deal_no, deals.c.variant,
                   deals.c.settings, deals.c.outcome)
            .where(deals.c.room_id == room_id, deals.c.ended_at.is_not(None))
            .order_by(deals.c.game_no, deals.c.deal_no)
        )
    ).all()  # fmt: skip
    if not finished:
        return []
    game_of = {row.deal_id: row.game_no for row in finished}
    balances: dict[int, dict[str, int]] = defaultdict(dict)
    for seat in await conn.execute(
        select(deal_players.c.deal_id, deal_players.c.player_name, deal_players.c.net_points)
        .where(deal_players.c.deal_id.in_(list(game_of)))
        .order_by(deal_players.c.deal_id, deal_players.c.player_index)
    ):
        points = balances[game_of[seat.deal_id]]
        points[seat.player_name] = points.get(seat.player_name, 0) + int(seat.net_points)
    games: dict[int, dict[str, Any]] = {}
    for row in finished:
        game = games.setdefault(row.game_no, {"game_no": row.game_no, "deals": []})
        game["deals"].append(
            {
                "deal_id": row.deal_id,
                "deal_no": row.deal_no,
                "outcome": row.outcome,
                **deal_rules(row.settings, row.variant),
            }
        )
    for game_no, game in games.items():
        # A game's rules are fixed when its table opens: every deal shows the same ones.
        game.update({key: game["deals"][0][key] for key in ("rules", "house_rules")})
        game.update(_settled(balances.get(game_no, {}), value))
    return list(games.values())


def _settled(balances: dict[str, int], value: PointValue) -> dict[str, Any]:
    try:
        settlement = settle_up(balances, value)
    except SettleUpError as error:  # stored deals always balance; say so if they do not
        return {"balances": balances, "transfers": None, "text": None, "unbalanced": str(error)}
    return {**settlement.to_json(), "text": render_text(settlement)}


@api.get("/rooms/{room_id}/settlement")
async def room_settlement(
    request: Request, room_id: str, currency: str = "points", minor_per_point: str = "1"
) -> Response:
    """The room's games, each settled up at ``minor_per_point`` minor units of ``currency``."""
    value = point_value(currency, minor_per_point)
    await require_room_sight(request, room_id[:64])
    async with request.app.state.store.engine.connect() as conn:
        room = (
            await conn.execute(
                select(rooms.c.room_id, rooms.c.variant, rooms.c.settings).where(
                    rooms.c.room_id == room_id[:64]
                )
            )
        ).one_or_none()
        if room is None:
            return error_response(404, "room_not_found", f"no room {room_id[:64]!r}")
        games = await game_settlements(conn, room.room_id, value)
    return JSONResponse(
        {
            "room_id": room.room_id,
            "name": (room.settings or {}).get("name") or "",
            "variant": room.variant,
            "currency": value.currency.code,
            "minor_per_point": value.minor_per_point,
            "games": games,
        }
    )
