"""Live gauges read from the room manager at scrape time: rooms, tables and connections.

Reading the rooms' own snapshots, instead of counting opens and closes, means a gauge can
never drift from what the server really holds.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable

from server.observability.metrics import HallMetrics, LabelValues
from server.rooms.snapshot import RoomSnapshot


def watch_rooms(snapshots: Callable[[], list[RoomSnapshot]], registry: HallMetrics) -> None:
    """Feed the rooms, tables and connections gauges of ``registry`` from ``snapshots()``
    (the room manager's open rooms)."""

    def rooms_by_status() -> dict[LabelValues, float]:
        counted = Tally(room.status.value for room in snapshots())
        return {(status,): float(count) for status, count in counted.items()}

    def tables() -> float:
        return float(sum(1 for room in snapshots() if room.deal_in_play))

    def connections() -> dict[LabelValues, float]:
        live = snapshots()
        return {
            ("player",): float(sum(room.connected_players for room in live)),
            ("spectator",): float(sum(room.spectators for room in live)),
        }

    registry.rooms.set_function(rooms_by_status)
    registry.tables.set_function(tables)
    registry.connections.set_function(connections)
