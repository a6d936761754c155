"""Reads: rebuilding open rooms after a restart, a room's results, and the lobby's list.

Each function takes an open connection and runs a handful of set-based queries (never one
query per deal or per action), so a restart with many open rooms stays quick.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.host_events import recent_host_events
from server.store.records import (
    ActionRecord,
    DealRecord,
    FinishedDealRecord,
    PlayerRecord,
    RoomAccessRecord,
    RoomRecord,
)
from server.store.schema import deal_actions, deals, room_players, rooms
from server.store.table_log import without_table_log

CLOSED_STATUSES = ("finished", "closed")


async def open_rooms(conn: AsyncConnection, room_id: str | None = None) -> list[RoomRecord]:
    """Every room not finished or closed (or only `room_id`, if it is), oldest first, with
    players, scores and open deal."""
    query = select(rooms).where(rooms.c.status.not_in(CLOSED_STATUSES))
    if room_id is not None:
        query = query.where(rooms.c.room_id == room_id)
    room_rows = list(await conn.execute(query.order_by(rooms.c.created_at, rooms.c.room_id)))
    if not room_rows:
        return []
    room_ids = [row.room_id for row in room_rows]

    players: dict[str, list[Any]] = defaultdict(list)
    for row in await conn.execute(
        select(room_players)
        .where(room_players.c.room_id.in_(room_ids))
        .order_by(room_players.c.room_id, room_players.c.player_index)
    ):
        players[row.room_id].append(row)

    finished_counts: dict[str, int] = dict(
        (
            await conn.execute(
                select(deals.c.room_id, func.count())
                .where(deals.c.room_id.in_(room_ids), deals.c.ended_at.is_not(None))
                .group_by(deals.c.room_id)
            )
        ).all()
    )

    finished: dict[str, list[FinishedDealRecord]] = defaultdict(list)
    for row in await conn.execute(
        select(deals.c.room_id, deals.c.deal_no, deals.c.seat_players, deals.c.result)
        .where(deals.c.room_id.in_(room_ids), deals.c.ended_at.is_not(None))
        .order_by(deals.c.room_id, deals.c.game_no, deals.c.deal_no)
    ):
        finished[row.room_id].append(
            FinishedDealRecord(
                deal_no=row.deal_no,
                seat_players={seat: int(index) for seat, index in row.seat_players.items()},
                next_dealer=(row.result or {}).get("next_dealer"),
                scores={
                    seat: int(net) for seat, net in (row.result or {}).get("scores", {}).items()
                },
            )
        )

    # At most one deal per room is unfinished; should a crash ever leave two, the latest
    # one is the one being played.
    open_deals: dict[str, Any] = {}
    for row in await conn.execute(
        select(deals)
        .where(deals.c.room_id.in_(room_ids), deals.c.ended_at.is_(None))
        .order_by(deals.c.deal_id)
    ):
        open_deals[row.room_id] = row

    actions: dict[int, list[Any]] = defaultdict(list)
    deal_ids = [row.deal_id for row in open_deals.values()]
    if deal_ids:
        for row in await conn.execute(
            select(deal_actions)
            .where(deal_actions.c.deal_id.in_(deal_ids))
            .order_by(deal_actions.c.deal_id, deal_actions.c.seq)
        ):
            actions[row.deal_id].append(row)

    events = await recent_host_events(conn, room_ids)

    return [
        RoomRecord(
            room_id=room.room_id,
            variant=room.variant,
            settings=room.settings,
            status=room.status,
            created_at=room.created_at,
            players=[_player_record(row) for row in players[room.room_id]],
            scores={row.player_index: row.score for row in players[room.room_id]},
            deals_played=int(finished_counts.get(room.room_id, 0)),
            open_deal=(
                _deal_record(open_deals[room.room_id], actions[open_deals[room.room_id].deal_id])
                if room.room_id in open_deals
                else None
            ),
            finished_deals=finished[room.room_id],
            public=room.public,
            invite_hash=room.invite_hash,
            host_index=room.host_index,
            host_event_count=events.get(room.room_id, (0, []))[0],
            host_events=events.get(room.room_id, (0, []))[1],
        )
        for room in room_rows
    ]


async def room_access(conn: AsyncConnection, room_id: str) -> RoomAccessRecord | None:
    """The room's public flag, invite hash and seated humans' token hashes; None: no room."""
    room = (
        await conn.execute(
            select(rooms.c.public, rooms.c.invite_hash).where(rooms.c.room_id == room_id)
        )
    ).one_or_none()
    if room is None:
        return None
    hashes = await conn.scalars(
        select(room_players.c.token_hash).where(
            room_players.c.room_id == room_id, room_players.c.token_hash.is_not(None)
        )
    )
    return RoomAccessRecord(
        public=bool(room.public), invite_hash=room.invite_hash, token_hashes=frozenset(hashes)
    )


def _player_record(row: Any) -> PlayerRecord:
    return PlayerRecord(
        player_index=row.player_index,
        name=row.name,
        token_hash=row.token_hash,
        is_bot=row.is_bot,
        joined_at=row.joined_at,
    )


def _deal_record(deal: Any, action_rows: list[Any]) -> DealRecord:
    # The deal timer as it stood when the last action was logged; before any action,
    # as it stood at the start.
    seconds_left = action_rows[-1].deal_seconds_left if action_rows else deal.start_seconds_left
    return DealRecord(
        deal_id=deal.deal_id,
        game_no=deal.game_no,
        deal_no=deal.deal_no,
        variant=deal.variant,
        seed=deal.seed,
        settings=deal.settings,
        seat_players={seat: int(index) for seat, index in deal.seat_players.items()},
        started_at=deal.started_at,
        deal_seconds_left=seconds_left,
        actions=[
            ActionRecord(
                seq=row.seq,
                seat=row.seat,
                action=row.action,
                at=row.at,
                by_bot=row.by_bot,
                bot_reason=row.bot_reason,
            )
            for row in action_rows
        ],
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _score_keys(player_rows: list[Any]) -> dict[int, str]:
    """Each player's key in the results' "scores": their name, made unique if two share it."""
    counts: dict[str, int] = defaultdict(int)
    for row in player_rows:
        counts[row.name] += 1
    return {
        row.player_index: row.name if counts[row.name] == 1 else f"{row.name} #{row.player_index}"
        for row in player_rows
    }


async def room_results(conn: AsyncConnection, room_id: str) -> dict[str, Any] | None:
    """`{"scores": {player: points}, "deals": [...finished deals, in play order]}`.

    Seeds are left out: a finished deal's seed says nothing useful to a player, and keeping
    seeds private costs nothing.
    """
    found = await conn.scalar(select(rooms.c.room_id).where(rooms.c.room_id == room_id))
    if found is None:
        return None
    player_rows = list(
        await conn.execute(
            select(room_players)
            .where(room_players.c.room_id == room_id)
            .order_by(room_players.c.player_index)
        )
    )
    keys = _score_keys(player_rows)
    finished = await conn.execute(
        select(deals)
        .where(deals.c.room_id == room_id, deals.c.ended_at.is_not(None))
        .order_by(deals.c.game_no, deals.c.deal_no)
    )
    return {
        "scores": {keys[row.player_index]: row.score for row in player_rows},
        "deals": [
            {
                "game_no": deal.game_no,
                "deal_no": deal.deal_no,
                "variant": deal.variant,
                "outcome": deal.outcome,
                "winners": deal.winners,
                "fan": deal.fan,
                "patterns": deal.patterns,
                "payments": deal.payments,
                "scores": (deal.result or {}).get("scores", {}),
                # The house rules the deal was played by (None: a deal from before them,
                # played by the seed's rules of its variant).
                "rules": (deal.settings or {}).get("rules"),
                "players": {
                    seat: keys.get(int(index), str(index))
                    for seat, index in deal.seat_players.items()
                },
                "started_at": _iso(deal.started_at),
                "ended_at": _iso(deal.ended_at),
            }
            for deal in finished
        ],
    }


async def room_list(conn: AsyncConnection, status: str | None, limit: int) -> list[dict[str, Any]]:
    """Rooms newest first with their seated players' public names, for the lobby."""
    query = select(rooms).order_by(rooms.c.created_at.desc(), rooms.c.room_id).limit(limit)
    if status is not None:
        query = query.where(rooms.c.status == status)
    room_rows = list(await conn.execute(query))
    players: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if room_rows:
        for row in await conn.execute(
            select(room_players.c.room_id, room_players.c.name, room_players.c.is_bot)
            .where(room_players.c.room_id.in_([room.room_id for room in room_rows]))
            .order_by(room_players.c.room_id, room_players.c.player_index)
        ):
            players[row.room_id].append({"name": row.name, "is_bot": row.is_bot})
    return [
        {
            "room_id": room.room_id,
            "variant": room.variant,
            "status": room.status,
            "settings": without_table_log(room.settings),
            "created_at": _iso(room.created_at),
            "players": players[room.room_id],
        }
        for room in room_rows
    ]


async def logged_action(
    conn: AsyncConnection, deal_id: int, seq: int
) -> tuple[str | None, Any] | None:
    """`(seat, action)` of the deal's logged action `seq`, or None."""
    row = (
        await conn.execute(
            select(deal_actions.c.seat, deal_actions.c.action)
            .where(deal_actions.c.deal_id == deal_id)
            .where(deal_actions.c.seq == seq)
        )
    ).one_or_none()
    return None if row is None else (row.seat, row.action)


async def deal_and_seed(
    conn: AsyncConnection, room_id: str, game_no: int, deal_no: int
) -> tuple[int, int] | None:
    """`(deal_id, seed)` of the room's deal `(game_no, deal_no)`, or None."""
    row = (
        await conn.execute(
            select(deals.c.deal_id, deals.c.seed)
            .where(deals.c.room_id == room_id)
            .where(deals.c.game_no == game_no)
            .where(deals.c.deal_no == deal_no)
        )
    ).one_or_none()
    return None if row is None else (int(row.deal_id), int(row.seed))


async def action_count(conn: AsyncConnection, deal_id: int) -> int:
    """How many actions the deal's log holds."""
    count = await conn.scalar(
        select(func.count()).select_from(deal_actions).where(deal_actions.c.deal_id == deal_id)
    )
    return int(count or 0)
