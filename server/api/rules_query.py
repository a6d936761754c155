"""The house rules a request names in its query, read once for every route that takes them.

`GET /api/house-rules/{variant}` and `GET /api/variants/{variant}` both take a room's
`rules` as query fields (docs/protocol.md, "House rules"). `rules_query` is their one
FastAPI dependency: the table must exist (404), each field is checked the way
`TableRules.from_json` checks a room's rules (422 naming `rules.<field>`), and a query that
names no rule answers None, the seed's rules.
"""

from __future__ import annotations

from typing import Any

from server.api.errors import ApiError
from server.api.query_values import whole_number
from server.engine.rules import RulesError, TableRules
from server.engine.variants import VARIANTS

_WHOLE_FIELDS = ("min_fan", "fan_cap", "time_bank_seconds")
_LARGEST_WHOLE = 999_999  # far past any rule a table offers; `from_json` checks the choice


def rules_query(
    variant: str,
    min_fan: str | None = None,
    fan_cap: str | None = None,
    points: str | None = None,
    win_payment: str | None = None,
    time_bank_seconds: str | None = None,
) -> TableRules | None:
    """The house rules the query names at `variant`'s table; None when it names none."""
    if variant not in VARIANTS:
        raise ApiError(404, "variant_not_found", f"no table {variant[:40]!r}; expected hk or kaki3")
    asked = {
        "min_fan": min_fan,
        "fan_cap": fan_cap,
        "points": points,
        "win_payment": win_payment,
        "time_bank_seconds": time_bank_seconds,
    }
    fields: dict[str, Any] = {}
    for name, text in asked.items():
        if text is None:
            continue
        if name in _WHOLE_FIELDS:
            fields[name] = whole_number(text, f"rules.{name}", 0, _LARGEST_WHOLE)
        else:
            fields[name] = text
    if not fields:
        return None
    try:
        return TableRules.from_json(fields, variant)
    except RulesError as error:
        raise ApiError(422, "validation_error", str(error)) from None
