"""Operations: the Prometheus metrics registry, ``/metrics`` and ``/readyz``, and logging.

``router`` is the FastAPI router to include; ``metrics`` the process-wide registry the
room code counts into; ``configure_logging`` / ``log_context`` set up structured logs.
"""

from server.observability.logs import (
    bind_log_context,
    configure_logging,
    log_context,
    scrub,
    uvicorn_log_config,
)
from server.observability.metrics import Counter, Gauge, HallMetrics, Histogram, metrics
from server.observability.rooms_gauges import watch_rooms
from server.observability.routes import router

__all__ = [
    "Counter",
    "Gauge",
    "HallMetrics",
    "Histogram",
    "bind_log_context",
    "configure_logging",
    "log_context",
    "metrics",
    "router",
    "scrub",
    "uvicorn_log_config",
    "watch_rooms",
]
