"""The consistency check every fault test ends with, on the database itself.

After a fault, for every room: every deal is finished; each deal's payments add up, per
seat, to its scores, which sum to zero; the players' rows of each deal carry those scores;
each running score is the sum of its player's deals; deal numbers run 1, 2, 3... and each
deal's action seqs 1, 2, 3... with no gap and no repeat.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import create_async_engine


async def check_consistency(database_url: str, room_ids: list[str]) -> dict[str, int]:
    """Assert the invariants above for `room_ids`; returns the deals checked per room."""
    engine = create_async_engine(database_url)
    checked: dict[str, int] = {}
    try:
        async with engine.connect() as conn:
            for room_id in room_ids:
                checked[room_id] = await _check_room(conn, room_id)
    finally:
        await engine.dispose()
    return checked


def _json(value: Any) -> Any:
    import json

    return json.loads(value) if isinstance(value, str) else value


async def _check_room(conn: Any, room_id: str) -> int:
    deals = (
        await conn.execute(
            text(
                "SELECT deal_id, deal_no, ended_at, payments, result, seat_players "
                "FROM deals WHERE room_id = :room ORDER BY deal_no"
            ),
            {"room": room_id},
        )
    ).all()
    assert deals, f"room {room_id} has no deal"
    assert [deal.deal_no for deal in deals] == list(range(1, len(deals) + 1)), (
        f"room {room_id}: deal numbers {[deal.deal_no for deal in deals]}"
    )
    totals: Counter[int] = Counter()
    for deal in deals:
        assert deal.ended_at is not None, f"room {room_id}: deal {deal.deal_no} did not finish"
        result = _json(deal.result)
        seat_players = _json(deal.seat_players)
        scores = {seat: int(points) for seat, points in result.get("scores", {}).items()}
        assert sum(scores.values()) == 0, f"deal {deal.deal_id}: scores {scores}"
        net: defaultdict[str, int] = defaultdict(int)
        for payment in _json(deal.payments) or []:
            net[payment["to"]] += int(payment["points"])
            net[payment["from"]] -= int(payment["points"])
        assert {s: p for s, p in net.items() if p} == {s: p for s, p in scores.items() if p}, (
            f"deal {deal.deal_id}: payments {dict(net)} against scores {scores}"
        )
        rows = (
            await conn.execute(
                text("SELECT player_index, seat, net_points FROM deal_players WHERE deal_id = :d"),
                {"d": deal.deal_id},
            )
        ).all()
        assert {row.seat: row.net_points for row in rows} == {
            seat: scores.get(seat, 0) for seat in seat_players
        }, f"deal {deal.deal_id}: players' rows {rows} against scores {scores}"
        for row in rows:
            totals[row.player_index] += row.net_points
        seqs = [
            row.seq
            for row in await conn.execute(
                text("SELECT seq FROM deal_actions WHERE deal_id = :d ORDER BY seq"),
                {"d": deal.deal_id},
            )
        ]
        assert seqs == list(range(1, len(seqs) + 1)), f"deal {deal.deal_id}: seqs {seqs}"
    players = (
        await conn.execute(
            text("SELECT player_index, score FROM room_players WHERE room_id = :room"),
            {"room": room_id},
        )
    ).all()
    assert {p.player_index: p.score for p in players} == {
        p.player_index: totals.get(p.player_index, 0) for p in players
    }, f"room {room_id}: running scores {players} against the deals' sums {dict(totals)}"
    return len(deals)


async def bot_reasons(database_url: str, room_ids: list[str]) -> Counter[str | None]:
    """How often each `bot_reason` was logged in these rooms' deals (None: not a bot)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT a.bot_reason FROM deal_actions a JOIN deals d ON d.deal_id = a.deal_id "
                    "WHERE d.room_id IN :rooms"
                ).bindparams(bindparam("rooms", expanding=True)),
                {"rooms": room_ids},
            )
            return Counter(row.bot_reason for row in rows)
    finally:
        await engine.dispose()
