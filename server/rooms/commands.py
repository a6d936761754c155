"""The messages a room's actor takes from its queue.

Everything that may change a table, from a player's discard to a timer running out,
reaches the room as one of these, so the actor applies them one at a time in arrival order.
Timer commands carry the token of the timer that sent them; a timer that has been
superseded since (the seat already acted, the deal already ended) is recognised and ignored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol


class Connection(Protocol):
    """A live link to one client, as the room sees it: it only queues text and asks to close."""

    player_index: int | None  # None for a spectator

    def push(self, text: str) -> None:
        """Queue one message for the client without waiting."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Ask for the link to close with a WebSocket close code."""
        ...


class Answer(Protocol):
    """Where an `ask` waits for the room's answer (an asyncio future, as the actor makes)."""

    def done(self) -> bool:
        """Whether the answer was given already."""
        ...

    def set_result(self, result: Any) -> None:
        """Give the answer."""
        ...

    def set_exception(self, exception: BaseException) -> None:
        """Give a refusal, raised to whoever asked."""
        ...


@dataclass
class Connect:
    """A client connected: a player with the token the socket checked at its handshake,
    or a spectator (`token` None). The room checks the token again against the seat as it
    stands when this arrives (the host may have removed the player in between)."""

    connection: Connection
    token: str | None = field(repr=False)


@dataclass
class Disconnect:
    """A client's link went away."""

    connection: Connection


@dataclass
class PlayerAction:
    """A player sent `{"type": "action"}`; `action` is the raw object they sent."""

    connection: Connection
    action: Any
    message_id: Any = None
    # When the message arrived, for the action latency metric (queue wait included).
    received_at: float = field(default_factory=time.perf_counter)


@dataclass
class HintRequest:
    """A player asked for a hint (issue 18; answered by server/rooms/hints.py)."""

    connection: Connection
    message_id: Any = None


@dataclass
class NextDealReady:
    """A player is ready for the next deal."""

    connection: Connection
    message_id: Any = None


@dataclass
class HostCommand:
    """A seated player's host control (`pause`, `resume`, `end_game`, `make_host`,
    `remove_player`, `offer_seat`, `bot_level`, `spectators`); `fields` is the message as sent."""

    connection: Connection
    kind: str
    fields: dict[str, Any]
    message_id: Any = None


# A player's request over their socket: refused, it is answered on that very connection,
# carrying the message's id (`Room.refuse`).
ConnectionRequest = PlayerAction | HintRequest | NextDealReady | HostCommand


@dataclass
class Join:
    """Seat a new human player; the answer comes back through `reply`."""

    name: str
    reply: Answer = field(repr=False)


@dataclass
class AddBots:
    """Fill every empty seat with a bot; the answer comes back through `reply`."""

    reply: Answer = field(repr=False)


@dataclass
class TurnTimeout:
    """A seat's turn timer ran out."""

    seat: str
    token: int


@dataclass
class BotTurn:
    """A seat covered by its bot is due to act."""

    seat: str
    token: int


@dataclass
class DealTimeout:
    """The deal timer of deal `deal_id` ran out."""

    deal_id: int


@dataclass
class NextDealDue:
    """The pause after deal `after_deal_no` is over."""

    after_deal_no: int


@dataclass
class IdleCheck:
    """The room has been without any connection since `idle_since`; close it if still so."""

    idle_since: float


@dataclass
class Resume:
    """A room reopened after a restart: re-arm its clocks, or start the next deal."""


@dataclass
class Shutdown:
    """The server is stopping: close connections (1012) and end the actor, keeping the room open."""


@dataclass
class StoreRetry:
    """Time to try the store again after round `round` of an outage failed."""

    round: int


@dataclass
class Persisted:
    """From the actor: the store write the core waited for is saved; `value` is what the
    store answered (a new deal's id, else None)."""

    value: Any = None


@dataclass
class StoreRefused:
    """From the actor: the store answered the write with `error` (not an outage): the
    command that asked for it fails, the table goes on."""

    error: Exception


@dataclass
class StoreFailed:
    """From the actor: the store is unreachable for the write the core waits for; the
    actor retries it while the core pauses the table."""

    reason: str


@dataclass
class StoreRestored:
    """From the actor: the write went through after an outage; the table resumes."""


# Everything a room's mailbox holds; the actor's dispatch is checked against it to be
# exhaustive (mypy: `assert_never`), so a new command cannot be forgotten there.
Command = (
    Connect
    | Disconnect
    | PlayerAction
    | NextDealReady
    | HintRequest
    | HostCommand
    | Join
    | AddBots
    | TurnTimeout
    | BotTurn
    | DealTimeout
    | NextDealDue
    | IdleCheck
    | Resume
    | Shutdown
    | StoreRetry
    | Persisted
    | StoreRefused
    | StoreFailed
    | StoreRestored
)
# The commands that carry a reply for whoever asked.
Request = Join | AddBots
