"""``GET /metrics`` (Prometheus text) and ``GET /readyz`` (the database answers).

The app may keep its own registry in ``app.state.metrics`` (tests do, to stay
independent); otherwise the process-wide ``metrics`` is served. Readiness asks
``app.state.store.ping()``, the store's own cheap round trip to the database.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from server.observability.metrics import HallMetrics, metrics

log = logging.getLogger(__name__)

router = APIRouter(tags=["operations"])

PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
READY_TIMEOUT_SECONDS = 3.0


def metrics_of(request: Request) -> HallMetrics:
    """The registry this app reports: ``app.state.metrics`` or the process-wide one."""
    registry = getattr(request.app.state, "metrics", None)
    return registry if isinstance(registry, HallMetrics) else metrics


@router.get("/metrics", response_class=PlainTextResponse)
async def prometheus_metrics(request: Request) -> PlainTextResponse:
    """Every Mahjong Hall metric in the Prometheus text exposition format."""
    return PlainTextResponse(metrics_of(request).render(), media_type=PROMETHEUS_CONTENT_TYPE)


@router.get("/readyz")
async def readiness(request: Request) -> JSONResponse:
    """200 once the database answers; 503 (with the reason) while it does not."""
    store = getattr(request.app.state, "store", None)
    if store is None:
        return JSONResponse({"status": "unavailable", "reason": "no store"}, status_code=503)
    try:
        await asyncio.wait_for(store.ping(), timeout=READY_TIMEOUT_SECONDS)
    except Exception as error:  # any failure means "not ready", never a crash
        log.warning("readiness check failed: %s", type(error).__name__)
        return JSONResponse(
            {"status": "unavailable", "reason": f"database: {type(error).__name__}"},
            status_code=503,
        )
    return JSONResponse({"status": "ok"})
