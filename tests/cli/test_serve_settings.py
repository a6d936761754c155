"""`mahjong-hall serve`'s garbage-collector thresholds (docs/benchmarks.md, "Server load")."""

from __future__ import annotations

import pytest

from server.cli.serve import DEFAULT_GC_THRESHOLDS, gc_freeze_period, gc_thresholds


def test_default_thresholds_keep_young_objects_young(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAHJONG_GC_THRESHOLDS", raising=False)
    assert gc_thresholds() == DEFAULT_GC_THRESHOLDS == (100_000, 50, 1_000)


def test_thresholds_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_GC_THRESHOLDS", "700, 10, 10")
    assert gc_thresholds() == (700, 10, 10)


@pytest.mark.parametrize("text", ["700,10", "a,b,c", "700,-1,10", "1,2,3,4"])
def test_malformed_thresholds_are_refused(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("MAHJONG_GC_THRESHOLDS", text)
    with pytest.raises(ValueError, match="three whole numbers"):
        gc_thresholds()


def test_periodic_freeze_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAHJONG_GC_FREEZE_SECONDS", raising=False)
    assert gc_freeze_period() is None
    monkeypatch.setenv("MAHJONG_GC_FREEZE_SECONDS", "0.5")
    assert gc_freeze_period() == 0.5


@pytest.mark.parametrize("text", ["0", "-1", "soon", "inf", "nan"])
def test_malformed_freeze_period_is_refused(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("MAHJONG_GC_FREEZE_SECONDS", text)
    with pytest.raises(ValueError, match="positive number of seconds"):
        gc_freeze_period()
