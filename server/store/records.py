"""Plain records handed from the store to the room layer when it rebuilds open rooms.

They carry no database handles, so the rooms code can keep them as long as it likes.
All datetimes are timezone-aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class ActionRecord:
    """One logged action of a deal, exactly as the room applied it."""

    seq: int
    seat: str | None
    action: dict[str, Any]
    at: datetime
    by_bot: bool
    bot_reason: str | None


@dataclass(frozen=True)
class PlayerRecord:
    """A seat-holder of a room: `token_hash` is None for bots and never the token itself."""

    player_index: int
    name: str
    token_hash: str | None
    is_bot: bool
    joined_at: datetime


@dataclass(frozen=True)
class DealRecord:
    """A deal still in progress: replaying `actions` on `seed` rebuilds its table.

    `deal_seconds_left` is the deal timer as it stood at the last logged action (or at the
    start when nothing was logged yet), so a restarted room resumes the clock from there.
    """

    deal_id: int
    game_no: int
    deal_no: int
    variant: str
    seed: int
    settings: dict[str, Any]
    seat_players: dict[str, int]
    started_at: datetime
    deal_seconds_left: float | None
    actions: list[ActionRecord] = field(default_factory=list)


@dataclass(frozen=True)
class FinishedDealRecord:
    """A finished deal, as much as the room needs to rebuild its dealer rotation.

    `next_dealer` is the seat the deal's result named to deal next (None if the result
    has none); `seat_players` maps that deal's seats to player indexes; `scores` is the
    result's net points by seat.
    """

    deal_no: int
    seat_players: dict[str, int]
    next_dealer: str | None
    scores: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RoomRecord:
    """A room that was open when the server stopped, with all it needs to reopen."""

    room_id: str
    variant: str
    settings: dict[str, Any]
    status: str
    created_at: datetime
    players: list[PlayerRecord]
    scores: dict[int, int]
    deals_played: int
    open_deal: DealRecord | None
    # The room's finished deals in play order, so a restart between two deals can rebuild
    # who deals next and the round wind (the store keeps no separate rotation column).
    finished_deals: list[FinishedDealRecord] = field(default_factory=list)
    # Private tables: rooms stored before the flag existed read back as public, no invite.
    public: bool = True
    invite_hash: str | None = None
    host_index: int | None = None
    # The last host events (for the table's panel) and how many the room has in all.
    host_events: list[dict[str, Any]] = field(default_factory=list)
    host_event_count: int = 0


@dataclass(frozen=True)
class RoomAccessRecord:
    """What decides who may see a room, open or not: its public flag, the hash of its
    invite secret, and the token hashes of the humans seated there now."""

    public: bool
    invite_hash: str | None
    token_hashes: frozenset[str]
