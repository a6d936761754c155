"""The ledgers' tables (docs/ledger.md), on the store's one metadata. Migration 0007 builds them.

- `ledgers`: one row per night at a real table: the table, house rules, players in seat
  order, the value of a point, the hashes of its invite and host secrets, whether its
  figures join the dashboard's standings, and a revision that every change moves on.
- `ledger_hands`: the hands as entered (the canonical JSON of `HandEntry.to_json`), in
  order; everything they come to is worked out again from them.
- `ledger_changes`: the history: every change with who made it, when, and the hand
  before and after.
- `ledger_figures`: what each hand came to per player, written with every change, so the
  dashboard reads standings without reckoning a night again.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, String, Table
from sqlalchemy.sql.expression import false

from server.store.schema import NAME, SEAT, VARIANT, UtcDateTime, metadata

LEDGER_ID = String(64)


def _ledger_key() -> Column[str]:
    return Column(
        "ledger_id",
        LEDGER_ID,
        ForeignKey("ledgers.ledger_id", ondelete="CASCADE"),
        primary_key=True,
    )


ledgers = Table(
    "ledgers",
    metadata,
    Column("ledger_id", LEDGER_ID, primary_key=True),
    Column("variant", VARIANT, nullable=False, index=True),
    Column("name", NAME, nullable=False, server_default=""),
    # The players' names in seat order from East for the first hand (its dealer first).
    Column("players", JSON, nullable=False),
    # The house rules (`TableRules.to_json`), null for the seed's.
    Column("rules", JSON, nullable=True),
    Column("round_wind", SEAT, nullable=False, server_default="E"),
    # `PointValue.to_json`: the settle-up's currency and minor units per point.
    Column("point_value", JSON, nullable=False),
    # SHA-256 hex of the invite secret and of the host's secret; never the secrets.
    Column("invite_hash", String(64), nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("in_standings", Boolean, nullable=False, server_default=false()),
    Column("revision", Integer, nullable=False, server_default="0"),
    Column("created_at", UtcDateTime, nullable=False, index=True),
    Column("updated_at", UtcDateTime, nullable=False),
)

ledger_hands = Table(
    "ledger_hands",
    metadata,
    _ledger_key(),
    Column("hand_no", Integer, primary_key=True),
    Column("entry", JSON, nullable=False),
    Column("entered_at", UtcDateTime, nullable=False),
    Column("entered_by", NAME, nullable=True),
)

ledger_changes = Table(
    "ledger_changes",
    metadata,
    _ledger_key(),
    Column("change_no", Integer, primary_key=True),
    Column("at", UtcDateTime, nullable=False),
    Column("by", NAME, nullable=True),
    # "open", "add", "insert", "edit", "delete" or "standings".
    Column("action", String(16), nullable=False),
    Column("hand_no", Integer, nullable=True),
    Column("before", JSON, nullable=True),
    Column("after", JSON, nullable=True),
)

ledger_figures = Table(
    "ledger_figures",
    metadata,
    _ledger_key(),
    Column("hand_no", Integer, primary_key=True),
    Column("player_index", Integer, primary_key=True),
    Column("player_name", NAME, nullable=False, index=True),
    Column("variant", VARIANT, nullable=False),
    Column("outcome", String(16), nullable=False),
    # When the hand ended (was entered): the dashboard's date filters read it.
    Column("ended_at", UtcDateTime, nullable=False, index=True),
    Column("net_points", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("self_drawn", Boolean, nullable=False),
    Column("dealt_in", Boolean, nullable=False),
    # The winning fan, for a player who won the hand.
    Column("fan", Integer, nullable=True),
)

# The dashboard's standings by table over a date range, as for online deals.
Index(None, ledger_figures.c.variant, ledger_figures.c.ended_at)
