"""A small in-process metrics registry with Prometheus text exposition.

The room code counts what happens at its tables by calling the objects of
``server.observability.metrics`` (``metrics.actions.inc(by="bot")``,
``metrics.action_latency.observe(0.012)``...). ``GET /metrics`` renders them in the
Prometheus text format (version 0.0.4). It is hand-written rather than taken from
``prometheus_client`` because it needs a dozen lines of that library and nothing else,
and a registry object per app keeps tests independent of each other.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Sequence

from server.engine.deal_result import DealOutcome
from server.engine.variants import VariantName

LabelValues = tuple[str, ...]

# Seconds from an action arriving to the last player's update. A table at human pace
# answers in milliseconds; anything past a second is an incident.
ACTION_LATENCY_BUCKETS: tuple[float, ...] = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
)


def _format_value(value: float) -> str:
    """Prometheus spells infinities and integral floats in its own way."""
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def _escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _label_text(names: Sequence[str], values: Sequence[str]) -> str:
    if not names:
        return ""
    pairs = ",".join(f'{n}="{_escape_label(v)}"' for n, v in zip(names, values, strict=True))
    return "{" + pairs + "}"


class Metric:
    """Shared parts of every metric: a name, a help line and fixed label names."""

    kind = "untyped"

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = ()) -> None:
        self.name = name
        self.documentation = documentation
        self.labelnames = tuple(labelnames)
        self._lock = threading.Lock()

    def _key(self, labels: dict[str, str]) -> LabelValues:
        """Turn keyword labels into the ordered tuple, refusing unknown or missing names."""
        if set(labels) != set(self.labelnames):
            raise ValueError(
                f"{self.name} takes labels {list(self.labelnames)}, got {sorted(labels)}"
            )
        return tuple(str(labels[n]) for n in self.labelnames)

    def samples(self) -> Iterable[tuple[str, LabelValues, float, tuple[str, ...]]]:
        """Yield (suffix, label values, value, extra label names+values) for rendering."""
        raise NotImplementedError

    def render(self) -> list[str]:
        """The metric's lines in the Prometheus text format."""
        lines = [
            f"# HELP {self.name} {self.documentation}",
            f"# TYPE {self.name} {self.kind}",
        ]
        for suffix, values, value, extra in self.samples():
            names = self.labelnames + extra[0::2]
            all_values = values + extra[1::2]
            lines.append(
                f"{self.name}{suffix}{_label_text(names, all_values)} {_format_value(value)}"
            )
        return lines


class Counter(Metric):
    """A count that only goes up (restarts at zero with the process)."""

    kind = "counter"

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = ()) -> None:
        super().__init__(name, documentation, labelnames)
        self._values: dict[LabelValues, float] = {} if labelnames else {(): 0.0}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        """Add ``amount`` (never negative) to the count for these labels."""
        if amount < 0:
            raise ValueError("a counter only goes up")
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        """The current count for these labels (0 when never counted)."""
        return self._values.get(self._key(labels), 0.0)

    def samples(self) -> Iterable[tuple[str, LabelValues, float, tuple[str, ...]]]:
        """One ``_total`` sample per label combination seen."""
        with self._lock:
            items = sorted(self._values.items())
        for key, value in items:
            yield "_total", key, value, ()


class Gauge(Metric):
    """A value that goes up and down, or is read from a function at scrape time."""

    kind = "gauge"

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = ()) -> None:
        super().__init__(name, documentation, labelnames)
        self._values: dict[LabelValues, float] = {} if labelnames else {(): 0.0}
        self._function: Callable[[], float | dict[LabelValues, float]] | None = None

    def set(self, value: float, **labels: str) -> None:
        """Set the value for these labels."""
        key = self._key(labels)
        with self._lock:
            self._values[key] = float(value)

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        """Raise the value for these labels."""
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def dec(self, amount: float = 1.0, **labels: str) -> None:
        """Lower the value for these labels."""
        self.inc(-amount, **labels)

    def set_function(self, function: Callable[[], float | dict[LabelValues, float]]) -> None:
        """Read the value from ``function`` at every scrape instead of stored values.

        The room manager registers e.g. ``lambda: len(manager.rooms)``, so the gauge can
        never drift from the truth the way paired inc/dec calls can. A labelled gauge's
        function returns ``{label values tuple: value}``.
        """
        self._function = function

    def value(self, **labels: str) -> float:
        """The current value for these labels."""
        key = self._key(labels)
        return dict(self._current()).get(key, 0.0)

    def _current(self) -> list[tuple[LabelValues, float]]:
        if self._function is not None:
            try:
                read = self._function()
            except Exception:  # a broken callback must not break the scrape
                return []
            if isinstance(read, dict):
                return sorted((tuple(k), float(v)) for k, v in read.items())
            return [((), float(read))]
        with self._lock:
            return sorted(self._values.items())

    def samples(self) -> Iterable[tuple[str, LabelValues, float, tuple[str, ...]]]:
        """One sample per label combination."""
        for key, value in self._current():
            yield "", key, value, ()


class Histogram(Metric):
    """Observed values counted into cumulative buckets, with their sum and count."""

    kind = "histogram"

    def __init__(
        self,
        name: str,
        documentation: str,
        buckets: Sequence[float] = ACTION_LATENCY_BUCKETS,
    ) -> None:
        super().__init__(name, documentation, ())
        self.buckets = tuple(sorted(buckets))
        self._counts = [0] * len(self.buckets)
        self._sum = 0.0
        self._count = 0

    def observe(self, value: float) -> None:
        """Count one observation (seconds, for the latency histogram)."""
        with self._lock:
            self._sum += value
            self._count += 1
            for index, bound in enumerate(self.buckets):
                if value <= bound:
                    self._counts[index] += 1
                    break

    @property
    def count(self) -> int:
        """How many observations so far."""
        return self._count

    @property
    def sum(self) -> float:
        """The total of all observations."""
        return self._sum

    def samples(self) -> Iterable[tuple[str, LabelValues, float, tuple[str, ...]]]:
        """Cumulative ``_bucket`` samples, then ``_sum`` and ``_count``."""
        with self._lock:
            counts, total, count = list(self._counts), self._sum, self._count
        running = 0
        for bound, in_bucket in zip(self.buckets, counts, strict=True):
            running += in_bucket
            yield "_bucket", (), running, ("le", _format_value(bound))
        yield "_bucket", (), count, ("le", "+Inf")
        yield "_sum", (), total, ()
        yield "_count", (), count, ()


class HallMetrics:
    """Every metric Mahjong Hall exposes, as attributes the room code calls.

    Gauges for rooms, tables and connections are best fed by ``set_function`` from the
    room manager; the counters are bumped where the event happens.
    """

    def __init__(self) -> None:
        self.rooms = Gauge("mahjong_rooms", "Open rooms, by status.", ["status"])
        self.tables = Gauge("mahjong_tables", "Tables with a deal in progress.")
        self.connections = Gauge(
            "mahjong_connections", "Live WebSocket connections, by kind.", ["kind"]
        )
        self.actions = Counter(
            "mahjong_actions",
            "Actions applied at the tables, by who took them (clock: the deal time limit).",
            ["by"],
        )
        self.action_latency = Histogram(
            "mahjong_action_latency_seconds",
            "Seconds from receiving an action to the last player's update.",
        )
        self.timeouts = Counter("mahjong_turn_timeouts", "Turns whose timer ran out.")
        self.bot_takeovers = Counter(
            "mahjong_bot_takeovers",
            "Decisions a bot made for a human seat, by reason.",
            ["reason"],
        )
        self.deal_outcomes = Counter(
            "mahjong_deals_finished",
            "Finished deals, by variant and outcome.",
            ["variant", "outcome"],
        )
        # Known label values start at zero, so a scraper sees every series from the first
        # scrape and rate() works from the first event.
        for by in ("human", "bot", "clock"):
            self.actions.inc(0, by=by)
        for reason in ("timeout", "disconnected"):
            self.bot_takeovers.inc(0, reason=reason)
        for variant in VariantName:
            for outcome in DealOutcome:
                self.deal_outcomes.inc(0, variant=variant, outcome=outcome)
        self.all: list[Metric] = [
            self.rooms,
            self.tables,
            self.connections,
            self.actions,
            self.action_latency,
            self.timeouts,
            self.bot_takeovers,
            self.deal_outcomes,
        ]

    def render(self) -> str:
        """The whole exposition, as ``GET /metrics`` serves it."""
        lines: list[str] = []
        for metric in self.all:
            lines.extend(metric.render())
        return "\n".join(lines) + "\n"


# The process-wide registry the room code imports. Tests that need isolation build
# their own HallMetrics and hand it to the app.
metrics = HallMetrics()
