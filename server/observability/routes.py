"""``GET /metrics`` (Prometheus text) and ``GET /readyz`` (the database answers).

The app may keep its own registry in ``app.state.metrics`` (tests do, to stay
independent); otherwise the process-wide ``metrics`` is served. Readiness asks
``app.state.store.beat()``: a query and a real committed write of one heartbeat row, so
a database that answers but cannot write (a full disk) is not ready either.
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
    """200 once the database reads and writes; 503 (with the reason) while it does not."""
    store = getattr(request.app.state, "store", None)
    if store is None:
        return JSONResponse({"status": "unavailable", "reason": "no store"}, status_code=503)
    try:
        await asyncio.wait_for(store.beat(), timeout=READY_TIMEOUT_SECONDS)
    except TimeoutError:
        reason = f"database: no answer within {READY_TIMEOUT_SECONDS:g} s"
    except Exception as error:  # any failure means "not ready", never a crash
        reason = f"database: {error}"[:300] if str(error) else type(error).__name__
    else:
        return JSONResponse({"status": "ok"})
    log.warning("readiness check failed: %s", reason)
    return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503)
