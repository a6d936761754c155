"""A strict little reader of the Prometheus text format, so tests check what a scraper sees."""

from __future__ import annotations

import re

SAMPLE = re.compile(
    r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>[^}]*)\})? (?P<value>[-+]?(?:\d+(?:\.\d*)?(?:e[-+]?\d+)?|Inf|NaN))$"
)
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """{(sample name, labels): value}; raises on any line a scraper would reject."""
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    declared: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            assert kind in ("counter", "gauge", "histogram"), line
            declared.add(name)
            continue
        if line.startswith("# HELP ") or not line:
            continue
        match = SAMPLE.match(line)
        assert match, f"not a Prometheus sample line: {line!r}"
        name = match["name"]
        assert any(name == d or name.startswith(d + "_") for d in declared), f"undeclared {name}"
        labels = frozenset(LABEL.findall(match["labels"] or ""))
        value = match["value"].replace("Inf", "inf")
        samples[(name, labels)] = float(value)
    return samples


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    """One sample's value (0 when absent)."""
    return samples.get((name, frozenset(labels.items())), 0.0)
