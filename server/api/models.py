"""Request bodies of the HTTP interface, validated by pydantic (unknown fields are refused)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator


class CreateRoom(BaseModel):
    """`POST /api/rooms`: every field but `variant` is optional (CONTRACTS.md §2)."""

    model_config = ConfigDict(extra="forbid")

    variant: Literal["hk", "kaki3"]
    turn_seconds: float = Field(default=40, ge=1, le=3600)
    deal_seconds: float = Field(default=300, ge=10, le=36000)
    rounds: int = Field(default=1, ge=1, le=4)
    name: str = Field(default="", max_length=60)
    hints: StrictBool = False  # issue 18: hints allowed at this table


class JoinRoom(BaseModel):
    """`POST /api/rooms/{id}/join`: the player's name, shown to the table."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)

    @field_validator("name")
    @classmethod
    def _trimmed_name(cls, name: str) -> str:
        trimmed = " ".join(name.split())
        if not 1 <= len(trimmed) <= 32:
            raise ValueError("the name must have 1 to 32 characters")
        if not trimmed.isprintable():
            raise ValueError("the name must be printable text")
        return trimmed
