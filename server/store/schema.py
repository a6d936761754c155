"""The tables, as SQLAlchemy Core metadata. Alembic migrations in `migrations/` build them.

Layout, from the room down:
- `rooms`: one row per room, its settings, status, privacy (public flag, invite hash) and host.
- `room_players`: who holds each player index, the hash of their token, and their running score.
- `deals`: one row per deal, its seed and settings (enough to replay it) and, once finished,
  its outcome, winners, fan, patterns and payments.
- `deal_actions`: the append-only log of each deal, keyed by (deal_id, seq).
- `deal_players`: one row per player per finished deal, denormalised (variant, ended_at,
  player name) so a dashboard computes standings without joins.
- `player_totals`, `chart_counts`: the dashboard's all-time sums per variant, kept up to
  date by `finish_deal` in the same transaction (see `summaries.py`).
- `store_heartbeat`: one row the readiness check rewrites, to prove the database writes.
- `room_leases`: which server process owns each open room, until when (docs/scaling.md).
- `host_events`: what each room's host (and its players' requests) did, one row per event.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy.sql.expression import true
from sqlalchemy.types import TypeDecorator

from server.store.write_checks import check_moment

# Fixed constraint names, so migrations written by hand match what autogenerate would emit
# on both SQLite and Postgres.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python.

    SQLite keeps no zone, so values are normalised to UTC on the way in and marked UTC on
    the way out; Postgres stores `timestamptz`. Naive datetimes are refused: guessing
    their zone is how logs end up an hour off.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        check_moment(value)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


SEAT = String(2)
VARIANT = String(16)
NAME = String(100)

rooms = Table(
    "rooms",
    metadata,
    Column("room_id", String(64), primary_key=True),
    Column("variant", VARIANT, nullable=False, index=True),
    Column("status", String(16), nullable=False, index=True),
    Column("settings", JSON, nullable=False),
    Column("created_at", UtcDateTime, nullable=False, index=True),
    # Private tables: only public ones are listed; the others are reached with the invite
    # secret, whose SHA-256 is kept (never the secret). Rooms older than the flag are public.
    Column("public", Boolean, nullable=False, server_default=true()),
    Column("invite_hash", String(64), nullable=True),
    # The player index of the table's host: the first human seated, until handed on.
    Column("host_index", Integer, nullable=True),
)

room_players = Table(
    "room_players",
    metadata,
    Column(
        "room_id",
        String(64),
        ForeignKey("rooms.room_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("player_index", Integer, primary_key=True),
    Column("name", NAME, nullable=False, index=True),
    Column("token_hash", String(64), nullable=True),
    Column("is_bot", Boolean, nullable=False),
    Column("joined_at", UtcDateTime, nullable=False),
    # The running score: the player's total over every finished deal of the room.
    Column("score", Integer, nullable=False, server_default="0"),
)

deals = Table(
    "deals",
    metadata,
    Column("deal_id", Integer, primary_key=True, autoincrement=True),
    Column(
        "room_id",
        String(64),
        ForeignKey("rooms.room_id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("game_no", Integer, nullable=False),
    Column("deal_no", Integer, nullable=False),
    Column("variant", VARIANT, nullable=False, index=True),
    Column("settings", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    # Which player index sits in each seat for this deal: {"E": 2, "S": 0, ...}.
    Column("seat_players", JSON, nullable=False),
    Column("started_at", UtcDateTime, nullable=False),
    Column("start_seconds_left", Float, nullable=True),
    Column("ended_at", UtcDateTime, nullable=True, index=True),
    Column("outcome", String(16), nullable=True, index=True),
    Column("winners", JSON, nullable=True),
    Column("fan", Integer, nullable=True),
    Column("patterns", JSON, nullable=True),
    Column("payments", JSON, nullable=True),
    # The whole result object as the engine produced it, so nothing is lost to the columns.
    Column("result", JSON, nullable=True),
    UniqueConstraint("room_id", "game_no", "deal_no"),
)

deal_actions = Table(
    "deal_actions",
    metadata,
    Column(
        "deal_id",
        Integer,
        ForeignKey("deals.deal_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("seat", SEAT, nullable=True),
    Column("action", JSON, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Column("by_bot", Boolean, nullable=False),
    Column("bot_reason", String(32), nullable=True),
    Column("deal_seconds_left", Float, nullable=True),
)

deal_players = Table(
    "deal_players",
    metadata,
    Column(
        "deal_id",
        Integer,
        ForeignKey("deals.deal_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("player_index", Integer, primary_key=True),
    Column(
        "room_id",
        String(64),
        ForeignKey("rooms.room_id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("player_name", NAME, nullable=False, index=True),
    Column("seat", SEAT, nullable=False),
    Column("variant", VARIANT, nullable=False),
    Column("outcome", String(16), nullable=False, index=True),
    Column("ended_at", UtcDateTime, nullable=False, index=True),
    Column("net_points", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("self_drawn", Boolean, nullable=False),
    Column("dealt_in", Boolean, nullable=False),
    Column("is_bot", Boolean, nullable=False),
    # The player's turns a bot played in this deal because their turn timer ran out, or
    # because they were away: counted from the log when the deal finishes.
    Column("timed_out", Integer, nullable=False, server_default="0"),
    Column("disconnected", Integer, nullable=False, server_default="0"),
)

# A dashboard's commonest question, "this variant's standings over a date range".
Index(None, deal_players.c.variant, deal_players.c.ended_at)
# "This player's latest deals" (the deals list and deal-limit endings filtered by player).
Index(None, deal_players.c.player_name, deal_players.c.ended_at)

# The dashboard's all-time figures per variant, so its default views read a few rows
# instead of the whole history. Maintained by `finish_deal` (server/store/summaries.py);
# migration 0002 fills them from the rows already stored.
player_totals = Table(
    "player_totals",
    metadata,
    Column("player_name", NAME, primary_key=True),
    Column("is_bot", Boolean, primary_key=True),
    Column("variant", VARIANT, primary_key=True),
    *(
        Column(counter, Integer, nullable=False, server_default="0")
        for counter in (
            "deals",
            "points",
            "wins",
            "self_draws",
            "dealt_in",
            "rooms",  # rooms of this variant the player has finished a deal in
            "fan_sum",  # the deal's fan summed over the deals they won
            "fan_count",
            "timed_out",
            "disconnected",
        )
    ),
)

# One row per (variant, player, figure, label): figure "outcome" (label win/draw/timeout),
# "fan" (label the winning fan, finished wins only), "pattern" (label the pattern id,
# counted per winning hand that scored it) or "duration" (label the bucket index).
# player_name "" counts every deal; a name counts the deals that name sat in.
chart_counts = Table(
    "chart_counts",
    metadata,
    Column("variant", VARIANT, primary_key=True),
    Column("player_name", NAME, primary_key=True),
    Column("figure", String(16), primary_key=True),
    Column("label", String(64), primary_key=True),
    Column("deals", Integer, nullable=False, server_default="0"),
)

# One row (`beat_id` 1) rewritten by every readiness check: a real committed write, so a
# full disk or a read-only database shows in `/readyz`, not only a lost connection.
store_heartbeat = Table(
    "store_heartbeat",
    metadata,
    Column("beat_id", Integer, primary_key=True, autoincrement=False),
    Column("beat_at", UtcDateTime, nullable=False),
    Column("beats", BigInteger, nullable=False, server_default="0"),
)

# Several server processes on one Postgres (docs/scaling.md): each open room has one
# owner, the process holding its lease until `expires_at` (the database's clock). The
# owner renews it; another process takes it only once it has expired or was handed over.
# `wanted_by`: the process the proxy now routes the room to, asking the owner to let go.
room_leases = Table(
    "room_leases",
    metadata,
    Column(
        "room_id",
        String(64),
        ForeignKey("rooms.room_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("owner", String(100), nullable=False, index=True),
    Column("expires_at", UtcDateTime, nullable=False),
    Column("wanted_by", String(100), nullable=True),
    # The room as its owner last saw it (a `RoomSnapshot` as JSON, written at each renewal):
    # the dashboard's live view of every process.
    Column("live", JSON, nullable=True),
)

# What the host did, and the players' pause and resume requests (docs/persistence.md,
# "The table log"): one row per event, appended once and never rewritten, numbered per
# room from 0. `event` is the event as the table shows it (`at` in ms, `by`, `kind`,
# `text` and its details); `at`, `by_player` and `kind` are copied out to be read.
host_events = Table(
    "host_events",
    metadata,
    Column(
        "room_id",
        String(64),
        ForeignKey("rooms.room_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("at", UtcDateTime, nullable=False),
    Column("by_player", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("event", JSON, nullable=False),
)
