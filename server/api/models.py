"""Request bodies of the HTTP interface, validated by pydantic.

The models are strict: a field of the wrong JSON type (`"rounds": "2"`, `"rounds": true`)
is a 422, never coerced; unknown fields are refused. Names shown to other people (player
and table names) are cleaned the same way by `display_name`.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

# More combining marks than this on one letter is no script's spelling, only a way to
# draw over the names around it ("zalgo" text).
MAX_COMBINING_MARKS = 3
# Invite secrets are 32 characters; anything much longer is not one.
INVITE_LENGTH = 100


def display_name(text: str, *, longest: int, what: str) -> str:
    """`text` as shown to others: NFC, runs of white space made one space, trimmed.

    Refuses control and format characters (NUL, bell, right-to-left overrides, zero
    width marks: `str.isprintable`), stacks of combining marks, and more than `longest`
    characters after cleaning.
    """
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    if len(cleaned) > longest:
        raise ValueError(f"the {what} must have at most {longest} characters")
    if not cleaned.isprintable():
        raise ValueError(f"the {what} must be printable text")
    marks = 0
    for character in cleaned:
        marks = marks + 1 if unicodedata.combining(character) else 0
        if marks > MAX_COMBINING_MARKS:
            raise ValueError(f"the {what} has too many accents on one letter")
    return cleaned


class CreateRoom(BaseModel):
    """`POST /api/rooms`: every field but `variant` is optional."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: Literal["hk", "kaki3"]
    turn_seconds: float = Field(default=40, ge=1, le=3600)
    deal_seconds: float = Field(default=300, ge=10, le=36000)
    rounds: int = Field(default=1, ge=1, le=4)
    name: str = Field(default="", max_length=200)
    hints: StrictBool = False  # issue 18: hints allowed at this table
    # Tables are unlisted unless their creator makes them public.
    public: bool = False
    spectators: bool = True
    # The house rules (`TableRules.from_json`, checked in the route against the variant).
    rules: dict[str, Any] | None = None

    @field_validator("name")
    @classmethod
    def _clean_name(cls, name: str) -> str:
        return display_name(name, longest=60, what="table name")


class JoinRoom(BaseModel):
    """`POST /api/rooms/{id}/join`: the player's name, shown to the table."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=64)
    invite: str | None = Field(default=None, max_length=INVITE_LENGTH)

    @field_validator("name")
    @classmethod
    def _trimmed_name(cls, name: str) -> str:
        trimmed = display_name(name, longest=32, what="name")
        if not trimmed:
            raise ValueError("the name must have 1 to 32 characters")
        return trimmed


class AddBots(BaseModel):
    """`POST /api/rooms/{id}/bots`: optional; a private table's invite if no token is sent."""

    model_config = ConfigDict(extra="forbid", strict=True)

    invite: str | None = Field(default=None, max_length=INVITE_LENGTH)
