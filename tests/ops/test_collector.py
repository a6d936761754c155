"""The collector policy `serve` runs (server/observability/collector.py): settings, and a
frozen heap that still finds its cyclic garbage once it has grown."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from server.observability.collector import (
    DEFAULT_THRESHOLDS,
    MAX_GROWTH,
    MIN_GROWTH_BLOCKS,
    CollectorSettings,
    FrozenHeap,
    next_growth,
)


@pytest.fixture
def thawed() -> Iterator[None]:
    """The test process's heap is thawed again afterwards, whatever the test froze."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_defaults_freeze_every_second_and_collect_in_full_after_a_quarter() -> None:
    settings = CollectorSettings.from_environ({})
    assert settings.thresholds == DEFAULT_THRESHOLDS == (100_000, 50, 1_000)
    assert settings.freeze_seconds == 1.0
    assert settings.full_growth == 0.25
    assert settings.slow_log_ms is None


def test_settings_from_the_environment() -> None:
    settings = CollectorSettings.from_environ(
        {
            "MAHJONG_GC_THRESHOLDS": "700, 10, 10",
            "MAHJONG_GC_FREEZE_SECONDS": "0.5",
            "MAHJONG_GC_FULL_GROWTH": "1",
            "MAHJONG_GC_LOG_MS": "5",
        }
    )
    assert settings == CollectorSettings((700, 10, 10), 0.5, 1.0, 5.0)


@pytest.mark.parametrize("text", ["0", "off"])
def test_freezing_can_be_turned_off(text: str) -> None:
    settings = CollectorSettings.from_environ({"MAHJONG_GC_FREEZE_SECONDS": text})
    assert settings.freeze_seconds is None


@pytest.mark.parametrize(
    ("name", "text", "complaint"),
    [
        ("MAHJONG_GC_THRESHOLDS", "700,10", "three whole numbers"),
        ("MAHJONG_GC_THRESHOLDS", "a,b,c", "three whole numbers"),
        ("MAHJONG_GC_THRESHOLDS", "700,-1,10", "three whole numbers"),
        ("MAHJONG_GC_FREEZE_SECONDS", "-1", "positive number"),
        ("MAHJONG_GC_FREEZE_SECONDS", "soon", "positive number"),
        ("MAHJONG_GC_FREEZE_SECONDS", "inf", "positive number"),
        ("MAHJONG_GC_FREEZE_SECONDS", "nan", "positive number"),
        ("MAHJONG_GC_FULL_GROWTH", "0", "positive number"),
        ("MAHJONG_GC_LOG_MS", "-3", "milliseconds"),
    ],
)
def test_malformed_settings_are_refused_by_name(name: str, text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint) as refusal:
        CollectorSettings.from_environ({name: text})
    assert name in str(refusal.value)


class Knot:
    """A cycle: only the collector can free it."""

    def __init__(self) -> None:
        self.me = self


def test_a_tick_freezes_survivors_and_restarts_the_young_count(thawed: None) -> None:
    heap = FrozenHeap()
    heap.baseline = 10**12  # no full collection in this test
    survivors: list[list[int]] = [[] for _ in range(1_000)]
    before = gc.get_freeze_count()
    assert heap.tick() is False
    assert gc.get_freeze_count() >= before + len(survivors)
    assert gc.get_count()[0] < 100


def test_frozen_cyclic_garbage_waits_for_growth_then_a_full_collection_frees_it(
    thawed: None,
) -> None:
    heap = FrozenHeap(full_growth=0.01)
    knot = Knot()
    alive = weakref.ref(knot)
    assert heap.tick() is False  # the knot is frozen now
    del knot
    gc.collect()  # (frees whatever earlier tests left: the bound counts from here)
    assert alive() is not None, "a frozen cycle is out of the collector's sight"
    heap.baseline = sys.getallocatedblocks()

    needed = max(MIN_GROWTH_BLOCKS, int(0.01 * heap.baseline)) + 1_000
    growth: list[list[int]] = [[] for _ in range(needed)]  # an empty list is one block
    assert heap.tick() is True
    assert alive() is None, "the full collection found the frozen cycle"
    assert heap.full_collections == 1
    assert heap.baseline >= len(growth)  # the next bound counts from the heap as it is now
    assert heap.tick() is False


def test_the_bound_doubles_while_collections_find_live_data_and_resets_on_garbage() -> None:
    assert next_growth(0.25, 0.02, 0.25) == 0.5
    assert next_growth(0.5, 0.1, 0.25) == 1.0
    assert next_growth(1.0, 0.0, 0.25) == MAX_GROWTH == 1.0, "never beyond the whole heap"
    assert next_growth(1.0, 0.6, 0.25) == 0.25, "garbage found: back to the quarter"
    assert next_growth(0.25, 0.0, 2.0) == 2.0, "an operator's larger share is kept"


def test_a_full_collection_that_finds_only_live_growth_doubles_the_next_bound(
    thawed: None,
) -> None:
    heap = FrozenHeap(full_growth=0.01)
    gc.collect()
    heap.baseline = sys.getallocatedblocks()
    needed = max(MIN_GROWTH_BLOCKS, int(0.01 * heap.baseline)) + 1_000
    live: list[list[int]] = [[] for _ in range(needed)]  # kept: live data, not garbage
    assert heap.tick() is True
    assert heap.growth == 0.02, "the pause found little, so the next one waits longer"

    heap.growth = 0.01
    gc.disable()  # the knots must wait for the tick, not for an automatic collection
    try:
        knots = [Knot() for _ in range(2 * needed)]  # a growth that is all cyclic garbage
        del knots
        assert heap.tick() is True
    finally:
        gc.enable()
    assert heap.growth == 0.01, "the collection found garbage: the bound stays"
    assert len(live) == needed
