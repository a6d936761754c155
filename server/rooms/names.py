"""When two players' names would read as one at a table.

Scores and settle-up lines are keyed by name, so a name that looks like one already
seated ("Аna", with a Cyrillic А, beside "Ana") must be refused like that very name. The
test is Unicode's: two names are confusable when their UTS #39 skeletons are equal, the
skeleton taken by ICU's spoof checker (the maintained implementation of UTS #39, through
the PyICU wheels). Compatibility forms are folded first (NFKC: a fullwidth "Ａｎａ" is
"Ana"), and case is ignored as it always was here: a name's key is the skeleton of its
case-folded skeleton, so "B0" reads as "Bo".
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import Any

import icu


@functools.cache
def _spoof_checker() -> Any:
    # Built once, on the first join: loading ICU's data takes a few hundred milliseconds.
    return icu.SpoofChecker()


def name_key(name: str) -> str:
    """What `name` reads as: equal for names a reader could take for one another."""
    checker = _spoof_checker()
    skeleton = str(checker.getSkeleton(0, unicodedata.normalize("NFKC", name)))
    return str(checker.getSkeleton(0, skeleton.casefold()))


def look_alike(name: str, seated: Iterable[str]) -> str | None:
    """The first of `seated` that reads as `name`, if any."""
    key = name_key(name)
    return next((other for other in seated if name_key(other) == key), None)
