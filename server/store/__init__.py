"""Persistence: rooms, deals, append-only action logs and scores, in SQLite or Postgres.

`from server.store import Store, open_store, hash_token, apply_migrations`. See
docs/persistence.md for the schema and the guarantees.
"""

from server.store.database import DEFAULT_DATABASE_URL, resolve_database_url
from server.store.errors import (
    DealFinishedError,
    DuplicateRecordError,
    StoreError,
    StoreUnavailable,
    UnknownDealError,
    UnknownRoomError,
)
from server.store.ledgers import LedgerStore
from server.store.migrating import apply_migrations, downgrade_migrations
from server.store.records import ActionRecord, DealRecord, PlayerRecord, RoomRecord
from server.store.store import Store, hash_token, open_store

__all__ = [
    "DEFAULT_DATABASE_URL",
    "ActionRecord",
    "DealFinishedError",
    "DealRecord",
    "DuplicateRecordError",
    "LedgerStore",
    "PlayerRecord",
    "RoomRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "UnknownDealError",
    "UnknownRoomError",
    "apply_migrations",
    "downgrade_migrations",
    "hash_token",
    "open_store",
    "resolve_database_url",
]
