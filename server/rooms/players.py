"""The people (and bots) seated in a room, and the public room object built from them."""

from __future__ import annotations

from dataclasses import dataclass

from server.rooms.names import name_key


@dataclass
class Player:
    """A seat-holder for the whole game. Humans are known by the hash of their token."""

    player_index: int
    name: str
    token_hash: str | None
    is_bot: bool
    # When the human joined, and whether they have connected since: a newcomer gets a short
    # grace to open the table page before the bot starts playing their seat.
    joined_at: float = 0.0
    has_connected: bool = False


class NameTakenError(ValueError):
    """Another player of the room already uses this name."""


class RoomFullError(ValueError):
    """Every seat of the room is taken."""


class RoomClosedError(ValueError):
    """The room has finished or closed and takes no one."""


def bot_name(players: list[Player], player_index: int) -> str:
    """A name for a new bot that reads as no name of the room yet (server/rooms/names.py)."""
    taken = {name_key(player.name) for player in players}
    number = player_index + 1
    while name_key(f"Bot {number}") in taken:
        number += 10
    return f"Bot {number}"
