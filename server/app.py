"""The web application: `create_app(...)` wires the store, the clock and the rooms to FastAPI."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from server.api import house_rules, http, ledgers, replays, settle_up, variant_info, ws
from server.api.address_limits import AddressBuckets, SocketCounts
from server.api.limits import LimitSettings
from server.api.request_guards import RequestGuards
from server.observability import HallMetrics, metrics, watch_rooms
from server.observability.access_log import AccessLog, RefusalLog
from server.rooms.clock import Clock, SystemClock
from server.rooms.manager import RoomManager
from server.rooms.ownership import RoomOwnership, new_owner_id
from server.rooms.settings import TableSettings
from server.settings import Settings
from server.store import Store, open_store
from server.store.leases import RoomLeases

log = logging.getLogger(__name__)

# uvicorn settings the protocol relies on (docs/protocol.md, "Limits and keepalive").
WS_PING_INTERVAL = 10.0
WS_PING_TIMEOUT = 10.0
WS_MAX_SIZE = 64 * 1024


def create_app(
    database_url: str | None = None,
    *,
    store: Store | None = None,
    clock: Clock | None = None,
    table_settings: TableSettings | None = None,
    limits: LimitSettings | None = None,
    settings: Settings | None = None,
    registry: HallMetrics | None = None,
    leased: bool = False,
) -> FastAPI:
    """The Mahjong Hall app. On startup it opens the store and reopens every unfinished room.

    Pass `store` to share an open store (then the caller closes it), `clock` to drive the
    timers (and the rate limits) by hand in tests, `table_settings` for bot pace and room
    lifetime, `limits` for the limits against abuse, `settings` for the rest (`serve`
    passes `Settings.from_environ`; the default is every setting's default, whatever the
    environment holds), `registry` for the metrics (default: the process's registry).
    `leased`: this process shares a Postgres with others and owns only the rooms it holds
    leases on (docs/scaling.md; `serve` sets it on Postgres).
    """
    the_settings = settings or Settings()
    the_clock = clock or SystemClock()
    the_limits = limits or the_settings.limits
    the_table_settings = table_settings or the_settings.table
    the_registry = registry or metrics

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own_store = store is None
        the_store = (
            await open_store(database_url, the_settings.sqlite_synchronous)
            if store is None
            else store
        )
        manager = RoomManager(the_store, the_clock, the_table_settings, the_registry)
        manager.set_caps(the_limits.open_rooms, the_limits.spectators_per_room)
        if leased:
            leases = RoomLeases(the_store.engine, new_owner_id(), the_settings.lease_seconds)
            manager.ownership = RoomOwnership(leases, the_clock, the_settings.lease_seconds)
            log.info("room leases held as %s", leases.owner)
        app.state.store = the_store
        app.state.rooms = manager
        # /metrics reads rooms, tables and connections from the rooms' snapshots.
        watch_rooms(manager.snapshots, the_registry)
        reopened = await manager.recover()
        if reopened:
            log.info("reopened %d rooms from the store", reopened)
        try:
            yield
        finally:
            refusals.flush()  # the refused handshakes not yet summed up
            await manager.shutdown()
            if own_store:
                await the_store.close()

    app = FastAPI(title="Mahjong Hall", lifespan=lifespan)
    app.state.settings = the_settings
    app.state.metrics = the_registry
    app.state.ws_rate = the_settings.socket_rate
    app.state.admin_token = the_settings.admin_token
    app.state.limits = the_limits
    app.state.room_buckets = AddressBuckets(the_limits.rooms_per_minute, the_clock)
    app.state.join_buckets = AddressBuckets(the_limits.joins_per_minute, the_clock)
    app.state.sockets = SocketCounts(the_limits.sockets_per_address)
    app.add_middleware(RequestGuards, limits=the_limits)
    # Outermost (added last), so the guards' refusals get their access line too; uvicorn's
    # own access log is off (`serve`), as it would print secrets in query strings.
    refusals = RefusalLog()
    app.add_middleware(AccessLog, refusals=refusals)
    # The sockets' rate limits run on real time even when a test drives the rooms' clock
    # by hand: a client's pace is real, and a frozen bucket would never refill.
    app.state.socket_clock = SystemClock()
    http.install_error_handlers(app)
    app.include_router(http.router)
    app.include_router(settle_up.router)
    app.include_router(variant_info.router)
    app.include_router(house_rules.router)
    app.include_router(ws.router)
    app.include_router(replays.router)  # issue 18: replay viewer and export
    ledgers.install(app)  # issue 29: the ledger of a real table
    try:
        from server.observability import router as operations_router

        app.include_router(operations_router)
    except ImportError:  # operations are optional for the tables to work
        pass
    from server.dashboard import install_error_handlers as install_dashboard_errors
    from server.dashboard import router as dashboard_router

    install_dashboard_errors(app)
    app.include_router(dashboard_router)
    return app
