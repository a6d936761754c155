"""The room's store writes, made: each `StoreWrite` effect as calls on the `Store`.

The actor (server/rooms/table.py) calls `make_write(store, write, retry)`. After a failed
attempt (`retry=True`) a write first looks for its own row: the failed attempt may have
committed after all (its connection dropped just after), or may still commit (a write
that timed out), and the table must apply each write exactly once.
"""

from __future__ import annotations

import logging
from typing import Any, assert_never

from server.rooms.effects import (
    AddPlayer,
    AppendHostEvent,
    FinishDeal,
    HandSeatToBot,
    LogAction,
    SaveTableLog,
    SeatHuman,
    SetHost,
    SetRoomStatus,
    SetSpectatorsAllowed,
    StartDeal,
    StoreWrite,
)
from server.store import DealFinishedError, DuplicateRecordError, Store

# The outage's whole story (pause, retries found saved, return) is told in one logger.
log = logging.getLogger("server.rooms.store_outage")


async def make_write(store: Store, write: StoreWrite, retry: bool) -> Any:
    """Make `write`; its answer (a new deal's id, else None)."""
    match write:
        case LogAction():
            await _log_action(store, write, retry)
            return None
        case StartDeal():
            return await _start_deal(store, write, retry)
        case FinishDeal():
            try:
                await store.finish_deal(write.deal_id, write.result, write.at, write.player_scores)
            except DealFinishedError:
                if not retry:
                    raise  # else the failed attempt had committed after all
            return None
        case SetRoomStatus():  # the same write twice is harmless
            await store.set_room_status(write.room_id, write.status)
            return None
        case SaveTableLog():  # the whole log each time: a second write changes nothing
            await store.save_table_log(write.room_id, write.table_log)
            return None
        case AppendHostEvent():
            await _append_host_event(store, write, retry)
            return None
        case AddPlayer():
            await store.add_player(
                write.room_id,
                write.player_index,
                write.name,
                write.token_hash,
                write.is_bot,
                write.at,
            )
            return None
        case SetHost():
            await store.set_host(write.room_id, write.player_index)
            return None
        case SetSpectatorsAllowed():  # the same write twice is harmless
            await store.set_spectators_allowed(write.room_id, write.allowed)
            return None
        case HandSeatToBot():
            await store.hand_seat_to_bot(write.room_id, write.player_index)
            return None
        case SeatHuman():
            await store.seat_human(write.room_id, write.player_index, write.name, write.token_hash)
            return None
        case _:
            assert_never(write)


async def _log_action(store: Store, write: LogAction, retry: bool) -> None:
    async def already_logged() -> bool:
        logged = await store.action_logged(write.deal_id, write.seq)
        if logged is not None and logged != (write.seat, write.action):
            raise DuplicateRecordError(f"deal {write.deal_id} seq {write.seq} holds another action")
        if logged is not None:
            log.info("deal %s: action %d was saved by an earlier attempt", write.deal_id, write.seq)
        return logged is not None

    if retry and await already_logged():
        return
    try:
        await store.append_action(
            write.deal_id,
            write.seq,
            write.seat,
            write.action,
            write.at,
            write.by_bot,
            write.bot_reason,
            write.deal_seconds_left,
        )
    except DuplicateRecordError:
        if not (retry and await already_logged()):
            raise


async def _append_host_event(store: Store, write: AppendHostEvent, retry: bool) -> None:
    if retry:
        logged = await store.host_event_logged(write.room_id, write.seq)
        if logged == write.event:
            return  # the failed attempt had committed after all
        if logged is not None:
            raise DuplicateRecordError(
                f"room {write.room_id} host event {write.seq} holds another event"
            )
    await store.append_host_event(write.room_id, write.seq, write.event)


async def _start_deal(store: Store, write: StartDeal, retry: bool) -> int:
    if retry:
        found = await store.find_deal(write.room_id, 1, write.deal_no)
        if found is not None and found[1] == write.seed:
            return found[0]  # the failed attempt had committed after all
    return await store.start_deal(
        write.room_id,
        1,
        write.deal_no,
        write.variant,
        write.dealt,
        write.seed,
        write.seat_players,
        write.at,
        write.deal_seconds,
    )
