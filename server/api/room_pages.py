"""`GET /api/rooms` one page at a time, so the answer stays small however many rooms are open.

The cursor is opaque to clients: today it is the position of the next room in the
newest-first order. Rooms opening or closing between two pages shift that order, so a
client that follows `next_cursor` may see a room twice (the lobby drops repeats) or miss
one that opened meanwhile (it is on the first page).
"""

from __future__ import annotations

from typing import Any

from server.api.query_values import whole_number

PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
STATUSES = ("waiting", "playing", "finished")


def room_page(
    summaries: list[dict[str, Any]], status: str | None, limit: str | None, cursor: str
) -> dict[str, Any]:
    """One page of room summaries: `rooms`, `total` (matching rooms), `next_cursor` or None.

    `status` is one status or several separated by commas; a bad one raises ValueError, a
    bad `limit` or `cursor` the 422 of `whole_number`.
    """
    wanted = None
    if status:
        wanted = {part.strip() for part in status.split(",")}
        unknown = sorted(wanted.difference(STATUSES))
        if unknown:
            raise ValueError(f"status: {unknown[0][:20]!r} is not one of {', '.join(STATUSES)}")
    size = PAGE_SIZE if limit in (None, "") else whole_number(limit, "limit", 1, MAX_PAGE_SIZE)
    start = 0 if cursor == "" else whole_number(cursor, "cursor", 0, 1_000_000)
    matching = [room for room in summaries if wanted is None or room["status"] in wanted]
    page = matching[start : start + size]
    more = start + size < len(matching)
    return {
        "rooms": page,
        "total": len(matching),
        "limit": size,
        "next_cursor": str(start + size) if more else None,
    }
