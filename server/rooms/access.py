"""Who may reach a table: its public flag, the hash of its invite secret, and its host.

A new table is unlisted: only a holder of its invite secret (the link's fragment) may
join, add bots or watch it. The secret itself is handed out once, at creation; the room
keeps only its hash, like a player's token.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from server.store import hash_token

# 24 random bytes: 192 bits, well over the 128 an unguessable link needs.
INVITE_BYTES = 24


def new_invite() -> str:
    """A fresh invite secret, URL-safe (it travels in a link's fragment and a query)."""
    return secrets.token_urlsafe(INVITE_BYTES)


@dataclass(frozen=True)
class Pause:
    """The table is paused: clocks stand still from `since`; `by` is the player who paused."""

    since: float
    by: int


@dataclass
class TableAccess:
    """A room's privacy and host, as the room actor holds them."""

    public: bool
    invite_hash: str | None
    # The player index of the host, None until a human takes a seat.
    host_index: int | None = None
    # Whether spectators may watch at all (the host can turn them off).
    spectators_allowed: bool = True

    def invite_matches(self, invite: str | None) -> bool:
        """Whether `invite` is this table's secret (compared in constant time)."""
        if not invite or self.invite_hash is None:
            return False
        return hmac.compare_digest(hash_token(invite), self.invite_hash)

    def may_enter(self, invite: str | None) -> bool:
        """Whether someone holding `invite` (or nothing) may join or watch."""
        return self.public or self.invite_matches(invite)
