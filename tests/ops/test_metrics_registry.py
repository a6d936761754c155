"""The in-process metrics registry and its Prometheus text exposition."""

from __future__ import annotations

import pytest

from server.observability.metrics import Counter, Gauge, HallMetrics, Histogram
from tests.ops.prometheus_text import parse, value


def test_a_fresh_registry_shows_every_series_at_zero() -> None:
    samples = parse(HallMetrics().render())
    for variant in ("hk", "kaki3"):
        for outcome in ("win", "draw", "timeout"):
            assert (
                value(samples, "mahjong_deals_finished_total", variant=variant, outcome=outcome)
                == 0
            )
    assert value(samples, "mahjong_actions_total", by="human") == 0
    assert value(samples, "mahjong_action_latency_seconds_count") == 0
    assert ("mahjong_turn_timeouts_total", frozenset()) in samples


def test_counters_and_histogram_move_as_events_are_counted() -> None:
    registry = HallMetrics()
    registry.actions.inc(by="human")
    registry.actions.inc(by="human")
    registry.actions.inc(by="bot")
    registry.timeouts.inc()
    registry.bot_takeovers.inc(reason="timeout")
    registry.deal_outcomes.inc(variant="kaki3", outcome="timeout")
    for seconds in (0.004, 0.02, 0.02, 3.0):
        registry.action_latency.observe(seconds)
    samples = parse(registry.render())
    assert value(samples, "mahjong_actions_total", by="human") == 2
    assert value(samples, "mahjong_actions_total", by="bot") == 1
    assert value(samples, "mahjong_turn_timeouts_total") == 1
    assert value(samples, "mahjong_bot_takeovers_total", reason="timeout") == 1
    assert value(samples, "mahjong_deals_finished_total", variant="kaki3", outcome="timeout") == 1
    bucket = "mahjong_action_latency_seconds_bucket"
    # Buckets are cumulative: 0.004 is under 0.005; both 0.02 under 0.025; 3.0 only in +Inf.
    assert value(samples, bucket, le="0.0025") == 0
    assert value(samples, bucket, le="0.005") == 1
    assert value(samples, bucket, le="0.025") == 3
    assert value(samples, bucket, le="2.5") == 3
    assert value(samples, bucket, le="+Inf") == 4
    assert value(samples, "mahjong_action_latency_seconds_count") == 4
    assert value(samples, "mahjong_action_latency_seconds_sum") == pytest.approx(3.044)


def test_gauges_read_live_values_from_functions() -> None:
    registry = HallMetrics()
    open_rooms = {("playing",): 2, ("waiting",): 1}
    registry.rooms.set_function(lambda: open_rooms)
    registry.tables.set_function(lambda: 2)
    samples = parse(registry.render())
    assert value(samples, "mahjong_rooms", status="playing") == 2
    assert value(samples, "mahjong_tables") == 2
    open_rooms[("playing",)] = 5
    assert value(parse(registry.render()), "mahjong_rooms", status="playing") == 5


def test_a_broken_gauge_function_does_not_break_the_scrape() -> None:
    registry = HallMetrics()
    registry.tables.set_function(lambda: 1 / 0)
    samples = parse(registry.render())
    assert ("mahjong_tables", frozenset()) not in samples
    assert value(samples, "mahjong_actions_total", by="bot") == 0


def test_bad_use_is_refused_and_changes_nothing() -> None:
    counter = Counter("c", "a counter", ["by"])
    with pytest.raises(ValueError, match="takes labels"):
        counter.inc(who="x")
    with pytest.raises(ValueError, match="only goes up"):
        counter.inc(-1, by="x")
    assert counter.value(by="x") == 0
    gauge = Gauge("g", "a gauge")
    gauge.inc(3)
    gauge.dec()
    assert gauge.value() == 2
    histogram = Histogram("h", "a histogram", buckets=[1, 2])
    histogram.observe(1.5)
    assert (histogram.count, histogram.sum) == (1, 1.5)


def test_label_values_are_escaped() -> None:
    counter = Counter("odd", "odd labels", ["name"])
    counter.inc(name='say "hi"\\\n')
    assert 'odd_total{name="say \\"hi\\"\\\\\\n"} 1' in "\n".join(counter.render())
