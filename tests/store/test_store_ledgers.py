"""The ledgers' store on SQLite and Postgres: opening, replacing hands whole with their
figures, the history, and a write from a stale revision that changes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from server.store import Store
from server.store.errors import DuplicateRecordError
from server.store.ledger_schema import ledger_figures
from server.store.ledgers import (
    HandFigure,
    LedgerChange,
    LedgerChangedError,
    LedgerStore,
    NewLedger,
    StoredHand,
    UnknownLedgerError,
)

OPENED = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def new_ledger(ledger_id: str = "night1") -> NewLedger:
    return NewLedger(
        ledger_id=ledger_id,
        variant="kaki3",
        name="Friday at Ana's",
        players=("Ana", "Bo", "Cy"),
        rules={"variant": "kaki3", "min_fan": 4},
        round_wind="E",
        point_value={"currency": "MYR", "minor_per_point": 10},
        invite_hash="a" * 64,
        host_hash="b" * 64,
        in_standings=False,
        created_at=OPENED,
    )


def figure(hand_no: int, player: int, net: int) -> HandFigure:
    return HandFigure(
        hand_no, player, ("Ana", "Bo", "Cy")[player], "win", OPENED, net, net > 0, False, net < -5,
        6 if net > 0 else None,
    )  # fmt: skip


async def test_a_ledger_keeps_its_setup_hands_and_history(store: Store) -> None:
    ledgers = LedgerStore(store)
    await ledgers.create(new_ledger(), LedgerChange("open", OPENED, "Ana"))
    with pytest.raises(DuplicateRecordError):
        await ledgers.create(new_ledger(), LedgerChange("open", OPENED, "Ana"))
    record = await ledgers.read("night1")
    assert record is not None and record.revision == 0 and record.hands == ()
    assert record.ledger == new_ledger()

    later = OPENED + timedelta(minutes=20)
    hand = StoredHand({"outcome": "draw", "last_to_draw": 2}, later, "Bo")
    figures = [figure(1, 0, -4), figure(1, 1, 12), figure(1, 2, -8)]
    change = LedgerChange("add", later, "Bo", 1, None, hand.entry)
    assert await ledgers.replace_hands("night1", 0, [hand], figures, change) == 1
    record = await ledgers.read("night1")
    assert record is not None and record.revision == 1 and record.hands == (hand,)
    assert record.updated_at == later

    edited = StoredHand({"outcome": "draw", "last_to_draw": 1}, later, "Bo")
    change = LedgerChange("edit", later, "Cy", 1, hand.entry, edited.entry)
    assert await ledgers.replace_hands("night1", 1, [edited], figures[:2], change) == 2
    history = await ledgers.history("night1")
    assert [(c["change_no"], c["action"], c["by"]) for c in history] == [
        (1, "open", "Ana"),
        (2, "add", "Bo"),
        (3, "edit", "Cy"),
    ]
    assert history[2]["before"] == hand.entry and history[2]["after"] == edited.entry
    assert history[1]["at"] == int(later.timestamp() * 1000)
    async with store.engine.connect() as conn:
        rows = await conn.scalar(select(func.count()).select_from(ledger_figures))
    assert rows == 2

    assert (
        await ledgers.set_in_standings("night1", 2, True, LedgerChange("standings", later, "Ana"))
        == 3
    )
    record = await ledgers.read("night1")
    assert (
        record is not None and record.ledger.in_standings and await ledgers.revision("night1") == 3
    )


async def test_a_stale_revision_writes_nothing(store: Store) -> None:
    ledgers = LedgerStore(store)
    await ledgers.create(new_ledger(), LedgerChange("open", OPENED, None))
    hand = StoredHand({"outcome": "draw", "last_to_draw": 0}, OPENED, None)
    add = LedgerChange("add", OPENED, None, 1, None, hand.entry)
    # Two phones read revision 0 and both write: one lands, the other is refused whole.
    outcomes = await asyncio.gather(
        ledgers.replace_hands("night1", 0, [hand], [], add),
        ledgers.replace_hands("night1", 0, [hand, hand], [], add),
        return_exceptions=True,
    )
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["LedgerChangedError", "int"]
    record = await ledgers.read("night1")
    assert record is not None and record.revision == 1
    assert len(await ledgers.history("night1")) == 2
    with pytest.raises(LedgerChangedError):
        await ledgers.set_in_standings("night1", 0, True, LedgerChange("standings", OPENED, None))
    with pytest.raises(UnknownLedgerError):
        await ledgers.replace_hands("nobody", 0, [], [], add)
    assert await ledgers.read("nobody") is None and await ledgers.revision("nobody") is None
