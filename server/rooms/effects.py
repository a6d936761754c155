"""What a room's core asks the outside world to do: the `Effect` union.

`Room.handle(command, now)` (server/rooms/room.py) changes the table in memory and returns
a list of these, in the order they must happen; the actor (server/rooms/table.py) runs
them one by one. A store write is always the last effect of its list: the core waits for
its outcome (`Persisted`, `StoreRefused`, or `StoreFailed` then `StoreRestored`) before
anything that depends on it, so nothing is ever sent before it is saved.

Every effect is a frozen dataclass; connections and reply slots are carried as the
opaque objects the commands brought in (the core never calls them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from server.rooms.commands import Answer, Command, Connection


@dataclass(frozen=True, slots=True)
class Send:
    """Push `text` to each of `to`, in that order."""

    to: tuple[Connection, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Close:
    """Close `connection` with the WebSocket close `code`."""

    connection: Connection
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class Schedule:
    """Deliver `command` to the room's mailbox once the room's clock reaches `moment`."""

    key: int
    moment: float
    command: Command


@dataclass(frozen=True, slots=True)
class Cancel:
    """Disarm the timer `key` (a key already fired or cancelled is ignored)."""

    key: int


@dataclass(frozen=True, slots=True)
class CancelAll:
    """Disarm every timer of the room (the game ended, or the room closes)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """Answer an `ask` (a `Join` or `AddBots`) with `value`."""

    answer: Answer = field(repr=False)
    value: Any


@dataclass(frozen=True, slots=True)
class Refuse:
    """Answer an `ask` with a refusal: `error` is raised to whoever asked."""

    answer: Answer = field(repr=False)
    error: BaseException


@dataclass(frozen=True, slots=True)
class ActionSettled:
    """A player's action was saved and announced: the actor times it from its arrival
    (the core has no clock of its own to read)."""

    received_at: float


# ------------------------------------------------------------------ store writes
# Each write says whether the table waits for it through an outage (`retried`): those
# are retried with a growing pause until they succeed; the others fail at once, and
# the command that asked for them is refused with the store's error.


@dataclass(frozen=True, slots=True)
class LogAction:
    """Append an action to the deal's log as its `seq` (a retry first looks for its row)."""

    retried: ClassVar[bool] = True
    deal_id: int
    seq: int
    seat: str | None
    action: dict[str, Any]
    at: datetime
    by_bot: bool
    bot_reason: str | None
    deal_seconds_left: float


@dataclass(frozen=True, slots=True)
class StartDeal:
    """Store a new deal of game 1; its outcome is the deal's id."""

    retried: ClassVar[bool] = True
    room_id: str
    deal_no: int
    variant: str
    dealt: dict[str, Any]
    seed: int
    seat_players: dict[str, int]
    at: datetime
    deal_seconds: float


@dataclass(frozen=True, slots=True)
class FinishDeal:
    """Store a finished deal's result and each player's net points."""

    retried: ClassVar[bool] = True
    deal_id: int
    result: dict[str, Any]
    at: datetime
    player_scores: dict[int, int]


@dataclass(frozen=True, slots=True)
class SetRoomStatus:
    """Store the room's status (`waiting`, `playing`, `finished`, `closed`)."""

    retried: ClassVar[bool] = True
    room_id: str
    status: str


@dataclass(frozen=True, slots=True)
class SaveTableLog:
    """Store the table's log: each player's time bank left (docs/persistence.md, "The
    table log"), so a restart brings them back."""

    retried: ClassVar[bool] = True
    room_id: str
    table_log: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AppendHostEvent:
    """Append the room's host event number `seq`: one row, written once (a retry finds
    its own row)."""

    retried: ClassVar[bool] = True
    room_id: str
    seq: int
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AddPlayer:
    """Seat a human (with their token's hash) or a bot."""

    retried: ClassVar[bool] = False
    room_id: str
    player_index: int
    name: str
    token_hash: str | None
    is_bot: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class SetHost:
    """Make `player_index` the room's host."""

    retried: ClassVar[bool] = False
    room_id: str
    player_index: int


@dataclass(frozen=True, slots=True)
class SetSpectatorsAllowed:
    """The host's spectators switch, kept so a restarted server keeps it."""

    retried: ClassVar[bool] = False
    room_id: str
    allowed: bool


@dataclass(frozen=True, slots=True)
class HandSeatToBot:
    """A removed player's seat goes to a bot; their token dies."""

    retried: ClassVar[bool] = False
    room_id: str
    player_index: int


@dataclass(frozen=True, slots=True)
class SeatHuman:
    """A friend takes a bot's seat the host offered."""

    retried: ClassVar[bool] = False
    room_id: str
    player_index: int
    name: str
    token_hash: str


StoreWrite = (
    LogAction
    | StartDeal
    | FinishDeal
    | SetRoomStatus
    | SaveTableLog
    | AppendHostEvent
    | AddPlayer
    | SetHost
    | SetSpectatorsAllowed
    | HandSeatToBot
    | SeatHuman
)


@dataclass(frozen=True, slots=True)
class Persist:
    """Make `write`, then tell the core its outcome before running anything else."""

    write: StoreWrite


Effect = Send | Close | Schedule | Cancel | CancelAll | Reply | Refuse | ActionSettled | Persist
