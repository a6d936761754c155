"""The root logger written into a buffer for one test, as `serve` configures it."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator

from server.observability.logs import configure_logging


@contextlib.contextmanager
def captured_log(log_format: str, level: str) -> Iterator[io.StringIO]:
    """Every line the root logger writes meanwhile, in `log_format`; restored afterwards."""
    stream = io.StringIO()
    root = logging.getLogger()
    previous = root.level
    handler = configure_logging(log_format, level, stream)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
