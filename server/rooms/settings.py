"""A room's own settings (chosen by whoever creates it) and the server-wide table settings."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from server.engine.rules import TableRules
from server.engine.variants import get_variant


@dataclass(frozen=True)
class RoomSettings:
    """What a room's creator picks: table variant, its two timers and the game length."""

    variant: str
    turn_seconds: float = 40.0
    deal_seconds: float = 300.0
    rounds: int = 1
    name: str = ""
    # issue 18: the host lets players ask for the full bot's move (off by default).
    hints: bool = False
    # The house rules chosen at creation, as `TableRules.to_json` wrote them; None: the
    # seed's rules of the variant (rooms older than house rules read back so).
    rules: dict[str, Any] | None = None

    @property
    def table_rules(self) -> TableRules:
        """The house rules in force at this table."""
        if self.rules is None:
            return TableRules.default(self.variant)
        return TableRules.from_json(self.rules, self.variant)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat winds of this table, dealer first."""
        return get_variant(self.variant).seats

    def to_json(self) -> dict[str, Any]:
        """The form stored with the room."""
        return asdict(self)

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> RoomSettings:
        """Read back what `to_json` stored (unknown keys from older versions are ignored)."""
        known = {
            key: stored[key]
            for key in (
                "variant",
                "turn_seconds",
                "deal_seconds",
                "rounds",
                "name",
                "hints",
                "rules",
            )
            if key in stored
        }
        return cls(**known)


@dataclass(frozen=True)
class TableSettings:
    """Server-wide knobs of every table: how humans experience the pace of bots and rooms."""

    bot_delay: float = 0.5
    # A human who joined but has not connected yet (the page is still loading) is not
    # played by the bot until this many seconds after joining.
    join_grace_seconds: float = 5.0
    next_deal_seconds: float = 10.0
    idle_close_seconds: float = 30 * 60.0
    bot_level: str = "full"
    # A room whose humans are all away does not play deal after deal for nobody: between
    # deals it waits until a human has connected since the last deal began, and a room
    # reopened with no human seated closes. Off only where tests watch bots-only tables.
    hold_deals_without_humans: bool = True
    # A failed store write is tried again after this pause, doubled at each failure up to
    # the cap, on the room's clock (docs/operations.md, "Faults").
    store_retry_seconds: float = 0.25
    store_retry_max_seconds: float = 4.0
    # A store write still unanswered after this long counts as failed (a hung connection
    # must not hold the table forever); its retry recognises it if it landed after all.
    store_timeout_seconds: float = 10.0
    # A player who is not the host asks for a pause (or to play on) at most once in this
    # many seconds of the room's clock; while a request is pending, asking again is
    # refused (docs/protocol.md, "The host's controls").
    pause_request_cooldown_seconds: float = 60.0
