"""Live gauges read from the room manager at scrape time: rooms, tables and connections.

Reading the manager's own maps, instead of counting opens and closes, means a gauge can
never drift from what the server really holds.
"""

from __future__ import annotations

from collections import Counter as Tally
from typing import Any

from server.observability.metrics import HallMetrics, LabelValues, metrics


def watch_rooms(manager: Any, registry: HallMetrics = metrics) -> None:
    """Feed the rooms, tables and connections gauges of ``registry`` from ``manager``.

    ``manager.rooms`` maps room ids to actors with ``status``, ``deal`` (with ``ended``),
    ``player_connections`` and ``spectators``, as ``server.rooms`` provides them.
    """

    def actors() -> list[Any]:
        return list(getattr(manager, "rooms", {}).values())

    def rooms_by_status() -> dict[LabelValues, float]:
        counted = Tally(str(actor.status) for actor in actors() if actor.status != "closed")
        return {(status,): float(count) for status, count in counted.items()}

    def tables() -> float:
        return float(
            sum(
                1
                for actor in actors()
                if actor.deal is not None and not getattr(actor.deal, "ended", False)
            )
        )

    def connections() -> dict[LabelValues, float]:
        live = actors()
        return {
            ("player",): float(sum(len(actor.player_connections) for actor in live)),
            ("spectator",): float(sum(len(actor.spectators) for actor in live)),
        }

    registry.rooms.set_function(rooms_by_status)
    registry.tables.set_function(tables)
    registry.connections.set_function(connections)
