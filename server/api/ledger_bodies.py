"""The bodies of the ledger calls (docs/protocol.md, "Ledgers").

Opening a ledger is a strict pydantic model like a table's. A hand is read by the
ledger itself (`LedgerSetup.read_entry`), which names the field of any mistake; around it
the body carries the call's own fields, taken off here: the `invite`, who makes the
change (`by`), the `revision` it was made on, and for a new hand the hand it goes
`before`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from server.api.models import INVITE_LENGTH, display_name

# The players' names are shown at the table like a player's name.
NAME_LENGTH = 32


def changer_name(value: Any) -> str | None:
    """Who makes a change, as the history shows them (None: not said)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("by: the name of whoever makes the change, as text")
    return display_name(value, longest=NAME_LENGTH, what="name in 'by'") or None


class CreateLedger(BaseModel):
    """`POST /api/ledgers`: the table, the players from East, and what a point is worth."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: Literal["hk", "kaki3"]
    players: list[str] = Field(min_length=3, max_length=4)
    rules: dict[str, Any] | None = None
    # Hong Kong: the round the night starts in (a ledger opened mid-game).
    round_wind: Literal["E", "S", "W", "N"] = "E"
    name: str = Field(default="", max_length=200)
    # `{"currency": "MYR", "minor_per_point": 10}`; plain points when left out.
    point_value: dict[str, Any] | None = None
    in_standings: StrictBool = False
    by: str | None = Field(default=None, max_length=200)

    @field_validator("players")
    @classmethod
    def _clean_players(cls, players: list[str]) -> list[str]:
        cleaned = [
            display_name(name, longest=NAME_LENGTH, what="player's name") for name in players
        ]
        if not all(cleaned):
            raise ValueError("every player needs a name")
        return cleaned

    @field_validator("name")
    @classmethod
    def _clean_name(cls, name: str) -> str:
        return display_name(name, longest=60, what="ledger name")

    @field_validator("by")
    @classmethod
    def _clean_by(cls, by: str | None) -> str | None:
        return changer_name(by)


class LedgerSwitch(BaseModel):
    """`PATCH /api/ledgers/{id}`: the host lets the night's figures join the standings."""

    model_config = ConfigDict(extra="forbid", strict=True)

    in_standings: StrictBool
    invite: str | None = Field(default=None, max_length=INVITE_LENGTH)
    by: str | None = Field(default=None, max_length=200)
    revision: int | None = Field(default=None, ge=0)

    @field_validator("by")
    @classmethod
    def _clean_by(cls, by: str | None) -> str | None:
        return changer_name(by)


@dataclass(frozen=True)
class HandCall:
    """A hand body split: the hand itself, and the call's own fields."""

    hand: dict[str, Any]
    invite: str | None
    by: str | None
    revision: int | None
    before: int | None


def hand_call(body: Any) -> HandCall:
    """Split a hand body; `ValueError` naming a call field of the wrong kind."""
    if not isinstance(body, dict):
        raise ValueError("the body must be one JSON object: a hand")
    hand = dict(body)
    invite = hand.pop("invite", None)
    if invite is not None and (not isinstance(invite, str) or len(invite) > INVITE_LENGTH):
        raise ValueError("invite: the ledger's invite secret")
    by = changer_name(hand.pop("by", None))
    revision = _whole(hand.pop("revision", None), "revision")
    before = _whole(hand.pop("before", None), "before")
    return HandCall(hand, invite, by, revision, before)


def _whole(value: Any, field: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{field}: a whole number")
    return value
