"""May this request see this room? The one answer for every route that shows a table.

A public table may be seen by anyone. An unlisted one only by whoever presents its invite
secret, or the token of a human seated there. The replay pages of finished deals ask the
same question with `may_see_room`, so a private table's history is as private as its play.

Where a secret rides: the table page sends it where no log line reaches it, an invite in
the `X-Invite` header and a token as `Authorization: Bearer <token>`; on a WebSocket,
whose headers a browser cannot set, as an offered subprotocol (`mahjong-hall.invite.<i>`,
`mahjong-hall.token.<t>`, beside `mahjong-hall`, which the server answers). The query
(`?invite=`, `?token=`) keeps working for outside clients; the server's log redacts it
(docs/operations.md, "Logs").
"""

from __future__ import annotations

import enum

from fastapi import Request
from starlette.requests import HTTPConnection

from server.rooms.manager import RoomManager
from server.store import hash_token

INVITE_REQUIRED = "this table is private: open it with its invite link"
# The WebSocket subprotocol the table page offers, and the prefixes of the secrets it
# offers beside it (a browser sets no header on a WebSocket but this one).
SUBPROTOCOL = "mahjong-hall"
_OFFERED_INVITE = f"{SUBPROTOCOL}.invite."
_OFFERED_TOKEN = f"{SUBPROTOCOL}.token."


def _offered(connection: HTTPConnection, prefix: str) -> str | None:
    """A secret offered as a WebSocket subprotocol `prefix<secret>`, if any."""
    for offer in connection.scope.get("subprotocols") or ():
        if offer.startswith(prefix) and len(offer) > len(prefix):
            return str(offer[len(prefix) :])
    return None


def answered_subprotocol(connection: HTTPConnection) -> str | None:
    """The subprotocol to accept a WebSocket with: ours when the client offered it (a
    browser fails a connection whose offer goes unanswered), else none."""
    return SUBPROTOCOL if SUBPROTOCOL in (connection.scope.get("subprotocols") or ()) else None


def presented_invite(connection: HTTPConnection) -> str | None:
    """The invite secret the request carries: `X-Invite`, an offered subprotocol, `?invite=`."""
    header = connection.headers.get("x-invite", "").strip()
    return (
        header
        or _offered(connection, _OFFERED_INVITE)
        or connection.query_params.get("invite")
        or None
    )


def presented_token(connection: HTTPConnection) -> str | None:
    """A player's token: `Authorization: Bearer ...`, an offered subprotocol, `?token=`."""
    header = connection.headers.get("authorization", "")
    scheme, _, credential = header.partition(" ")
    if scheme.lower() == "bearer" and credential.strip():
        return credential.strip()
    return _offered(connection, _OFFERED_TOKEN) or connection.query_params.get("token") or None


class Sight(enum.Enum):
    """What a request may know of a room."""

    NO_ROOM = "no_room"  # there is none (its existence is no secret: a 404)
    REFUSED = "refused"  # it exists, and the request may learn nothing more (a 403)
    SEEN = "seen"  # public, or the request carries its invite or a seated player's token


async def room_sight(connection: HTTPConnection, room_id: str) -> Sight:
    """What the request may know of room `room_id`, open or closed.

    Open rooms answer from memory; others (finished, closed, or on a restarted server)
    from the store. A removed player's token no longer counts: its hash is gone from both.
    """
    manager: RoomManager = connection.app.state.rooms
    invite = presented_invite(connection)
    token = presented_token(connection)
    actor = manager.rooms.get(room_id)
    if actor is not None:
        if actor.access.may_enter(invite):
            return Sight.SEEN
        seated = token is not None and actor.player_for_token(token) is not None
        return Sight.SEEN if seated else Sight.REFUSED
    record = await manager.store.room_access(room_id)
    if record is None:
        return Sight.NO_ROOM
    if record.public:
        return Sight.SEEN
    if invite is not None and record.invite_hash == hash_token(invite):
        return Sight.SEEN
    seated = token is not None and hash_token(token) in record.token_hashes
    return Sight.SEEN if seated else Sight.REFUSED


async def may_see_room(connection: HTTPConnection, room_id: str) -> bool:
    """Whether the request may see room `room_id`, open or closed (False: no such room)."""
    return await room_sight(connection, room_id) is Sight.SEEN


def seated_player_index(request: Request, room_id: str) -> int | None:
    """The player index of the open room's seated human whose token the request carries."""
    manager: RoomManager = request.app.state.rooms
    actor = manager.rooms.get(room_id)
    token = presented_token(request)
    if actor is None or token is None:
        return None
    player = actor.player_for_token(token)
    return None if player is None else player.player_index
