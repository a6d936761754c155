"""A driver for the room core's tests: a `Room` fed commands by hand, with no event loop.

`CoreTable` plays the actor's part the way a sans-I/O test does: it hands each command to
`Room.handle(command, now)` and answers every store write with the outcome the test
chooses (saved, by default, with deal ids counted up), keeping every effect it saw, in
order, so a test can assert on them. Nothing here awaits: the tests are plain functions.
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from server.observability.metrics import HallMetrics
from server.rooms import commands as cmd
from server.rooms.effects import (
    Effect,
    Persist,
    Refuse,
    Reply,
    Schedule,
    Send,
    StartDeal,
    StoreWrite,
)
from server.rooms.room import Chance, Room
from server.rooms.settings import RoomSettings, TableSettings

START = 1_800_000_000.0


@dataclass(eq=False)
class Link:
    """A connection as the core sees it: an identity with a player index (the core never
    calls it; what it would receive is read from the `Send` effects). `token` is the one
    its socket would have brought (None for a spectator)."""

    player_index: int | None
    token: str | None = None

    def push(self, text: str) -> None:
        raise AssertionError("the core must not push: it returns Send effects")

    def close(self, code: int, reason: str) -> None:
        raise AssertionError("the core must not close: it returns Close effects")


@dataclass
class CoreTable:
    """One room core and everything it asked for."""

    room: Room
    now: float = START
    effects: list[Effect] = field(default_factory=list)
    writes: list[StoreWrite] = field(default_factory=list)
    deal_ids: Any = field(default_factory=lambda: count(1))
    # Store writes the test wants to answer itself (see `hold_writes`).
    holding: bool = False
    held: StoreWrite | None = None

    def handle(self, command: cmd.Command) -> list[Effect]:
        """Hand `command` to the core at `now`; answer its store writes as they come.
        Returns every effect this produced (the writes' sequels included)."""
        produced = self.room.handle(command, self.now)
        collected = list(produced)
        while produced and isinstance(produced[-1], Persist):
            write = produced[-1].write
            self.writes.append(write)
            if self.holding:
                self.held = write
                break
            produced = self.room.handle(cmd.Persisted(self.outcome(write)), self.now)
            collected.extend(produced)
        self.effects.extend(collected)
        return collected

    def outcome(self, write: StoreWrite) -> Any:
        """What the store answers a write: a new deal's id, else None."""
        return next(self.deal_ids) if isinstance(write, StartDeal) else None

    def answer_held(self, command: cmd.Command) -> list[Effect]:
        """Feed the outcome of the held write (`Persisted`, `StoreFailed`...)."""
        self.holding = False
        produced = self.room.handle(command, self.now)
        self.effects.extend(produced)
        if produced and isinstance(produced[-1], Persist):
            # The sequel's own writes are saved as usual.
            write = produced[-1].write
            self.writes.append(write)
            more = self.handle(cmd.Persisted(self.outcome(write)))
            return [*produced, *more]
        return produced

    def advance_to(self, moment: float) -> None:
        self.now = moment

    def ask(self, make: Any) -> Any:
        """`make(answer)`'s command handled; the answer the core gave (or raises its refusal)."""
        answer: Future[Any] = Future()
        for effect in self.handle(make(answer)):
            if isinstance(effect, Reply) and effect.answer is answer:
                return effect.value
            if isinstance(effect, Refuse) and effect.answer is answer:
                raise effect.error
        raise AssertionError("the core gave no answer")


def make_table(
    variant: str = "kaki3",
    *,
    turn_seconds: float = 40,
    deal_seconds: float = 300,
    rules: dict[str, Any] | None = None,
    bot_delay: float = 0.5,
    next_deal_seconds: float = 5,
    hints: bool = False,
    deal_seed: int = 12345,
    **table_options: Any,
) -> CoreTable:
    tokens = count(1)
    room = Room(
        room_id="room-1",
        settings=RoomSettings(
            variant=variant,
            turn_seconds=turn_seconds,
            deal_seconds=deal_seconds,
            rules=rules,
            hints=hints,
        ),
        table_settings=TableSettings(
            bot_delay=bot_delay,
            next_deal_seconds=next_deal_seconds,
            bot_level="baseline",
            hold_deals_without_humans=False,
            **table_options,
        ),
        created_at=START,
        registry=HallMetrics(),
        chance=Chance(deal_seed=lambda: deal_seed, player_token=lambda: f"token-{next(tokens)}"),
    )
    return CoreTable(room)


def seated_table(**options: Any) -> tuple[CoreTable, Link]:
    """A table with Ana (player 0, the host) connected and bots in the other seats; the
    first deal is dealt."""
    table = make_table(**options)
    seated = table.ask(lambda answer: cmd.Join(name="Ana", reply=answer))
    ana = Link(0, seated["token"])
    table.handle(cmd.Connect(ana, ana.token))
    table.ask(lambda answer: cmd.AddBots(reply=answer))
    assert table.room.deal is not None and not table.room.deal.ended
    return table, ana


def sent_to(effects: list[Effect], link: Link) -> list[dict[str, Any]]:
    """The messages `effects` send to `link`, decoded."""
    return [json.loads(e.text) for e in effects if isinstance(e, Send) and link in e.to]


def states_to(effects: list[Effect], link: Link) -> list[dict[str, Any]]:
    return [m for m in sent_to(effects, link) if m["type"] == "state"]


def schedules(effects: list[Effect], kind: type) -> list[Schedule]:
    return [e for e in effects if isinstance(e, Schedule) and isinstance(e.command, kind)]


def replies(effects: list[Effect]) -> list[Any]:
    return [e.value for e in effects if isinstance(e, Reply)]
