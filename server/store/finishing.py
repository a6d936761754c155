"""A finished deal's one transaction: its outcome, its players' rows, the dashboard's
summaries and the running scores, written together or not at all (`Store.finish_deal`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from server.store.deal_outcome import player_deal_rows, winners_fan, winners_patterns
from server.store.errors import DealFinishedError, UnknownDealError
from server.store.schema import deal_players, deals, room_players
from server.store.summaries import bot_cover_by_seat, count_finished_deal

# The statements every deal runs, built once: building one per deal costs CPU, and a
# comparison's bound parameter is a small reference cycle for the collector to find.
_DEAL_TO_FINISH = select(
    deals.c.room_id, deals.c.variant, deals.c.seat_players, deals.c.started_at, deals.c.ended_at
).where(deals.c.deal_id == bindparam("match_deal_id"))
_ROOM_PLAYERS = select(room_players).where(room_players.c.room_id == bindparam("match_room_id"))
_RECORD_OUTCOME = deals.update().where(deals.c.deal_id == bindparam("match_deal_id"))
_INSERT_DEAL_PLAYERS = deal_players.insert()
# Added in SQL, not read-modify-written, so a total cannot go stale.
_ADD_TO_SCORE = (
    room_players.update()
    .where(room_players.c.room_id == bindparam("match_room_id"))
    .where(room_players.c.player_index == bindparam("match_player_index"))
    .values(score=room_players.c.score + bindparam("points"))
)


def record_finished_deal(
    conn: Connection,
    deal_id: int,
    result: dict[str, Any],
    ended_at: datetime,
    player_scores: dict[int, int],
) -> None:
    """`Store.finish_deal`'s transaction, on a synchronous connection (so SQLite runs it
    in one hop to a thread, and Postgres through `run_sync`)."""
    deal = (conn.execute(_DEAL_TO_FINISH, {"match_deal_id": deal_id})).one_or_none()
    if deal is None:
        raise UnknownDealError(f"no deal {deal_id}")
    if deal.ended_at is not None:
        raise DealFinishedError(f"deal {deal_id} already finished")
    players = {
        row.player_index: row
        for row in conn.execute(_ROOM_PLAYERS, {"match_room_id": deal.room_id})
    }
    unknown = sorted(set(player_scores) - set(players))
    if unknown:
        raise ValueError(f"player_scores names players {unknown} not in the room")
    cover = bot_cover_by_seat(conn, deal_id)
    rows = [
        {
            **row,
            "deal_id": deal_id,
            "room_id": deal.room_id,
            "variant": deal.variant,
            "outcome": str(result["outcome"]),
            "ended_at": ended_at,
            "timed_out": cover.get(row["seat"], (0, 0))[0],
            "disconnected": cover.get(row["seat"], (0, 0))[1],
        }
        for row in player_deal_rows(result, deal.seat_players, players)
    ]
    fan, patterns = winners_fan(result), winners_patterns(result)
    conn.execute(
        _RECORD_OUTCOME,
        {
            "match_deal_id": deal_id,
            "ended_at": ended_at,
            "outcome": str(result["outcome"]),
            "winners": result.get("winners", []),
            "fan": fan,
            "patterns": patterns,
            "payments": result.get("payments", []),
            "result": result,
        },
    )
    count_finished_deal(
        conn,
        variant=deal.variant,
        room_id=deal.room_id,
        outcome=str(result["outcome"]),
        fan=fan,
        patterns=patterns,
        started_at=deal.started_at,
        ended_at=ended_at,
        player_rows=rows,
    )
    if rows:
        conn.execute(_INSERT_DEAL_PLAYERS, rows)
    if player_scores:
        conn.execute(
            _ADD_TO_SCORE,
            [
                {
                    "match_room_id": deal.room_id,
                    "match_player_index": player_index,
                    "points": int(net),
                }
                for player_index, net in sorted(player_scores.items())
            ],
        )
