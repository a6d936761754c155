"""`GET /api/house-rules/{variant}`: the house rules a table offers, and what a choice means.

The lobby builds its form from `choices` and `seed` (the defaults); the table's Rules
panel and result panel send the room's own `rules` as the query and show the answer: the
points table and the win payments worked out by the engine (`TableRules`, the
settlement's functions) for exactly those rules, and `changes`, the fields that differ
from the seed's. So no client keeps a copy of a rule constant (docs/protocol.md,
"House rules").
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.http import ApiError
from server.api.variant_info import variant_rules
from server.engine.rules import (
    FAN_CAP_CHOICES,
    MAX_TIME_BANK_SECONDS,
    MIN_FAN_CHOICES,
    PAYMENT_CHOICES,
    POINTS_CHOICES,
    RulesError,
    TableRules,
)
from server.engine.variants import VARIANTS

router = APIRouter()

_WHOLE_FIELDS = ("min_fan", "fan_cap", "time_bank_seconds")


def rule_changes(rules: TableRules) -> dict[str, Any]:
    """The fields of `rules` that differ from the seed's rules of its table."""
    seed = TableRules.default(rules.variant).to_json()
    return {name: value for name, value in rules.to_json().items() if seed[name] != value}


def _read(variant: str, query: dict[str, str | None]) -> TableRules:
    fields: dict[str, Any] = {}
    for name, text in query.items():
        if text is None:
            continue
        if name in _WHOLE_FIELDS:
            if not text.isdigit() or len(text) > 6:
                raise ApiError(422, "validation_error", f"rules.{name}: a whole number")
            fields[name] = int(text)
        else:
            fields[name] = text
    try:
        return TableRules.from_json(fields, variant)
    except RulesError as error:
        raise ApiError(422, "validation_error", str(error)) from None


def house_rules_json(rules: TableRules) -> dict[str, Any]:
    """Everything the clients show of `rules`, and what the table offers."""
    name = rules.variant
    # The points and payments are the Rules panel's own, worked out under `rules`.
    worked = variant_rules(name, rules)
    return {
        "variant": name,
        "rules": rules.to_json(),
        "seed": TableRules.default(name).to_json(),
        "changes": rule_changes(rules),
        "points": worked["points"],
        "payments": worked["payments"],
        "choices": {
            "min_fan": list(MIN_FAN_CHOICES[name]),
            "fan_cap": list(FAN_CAP_CHOICES[name]),
            "points": list(POINTS_CHOICES[name]),
            "win_payment": list(PAYMENT_CHOICES[name]),
            "time_bank_seconds": {"min": 0, "max": MAX_TIME_BANK_SECONDS},
        },
    }


@router.get("/api/house-rules/{variant}")
async def house_rules(
    variant: str,
    min_fan: str | None = None,
    fan_cap: str | None = None,
    points: str | None = None,
    win_payment: str | None = None,
    time_bank_seconds: str | None = None,
) -> dict[str, Any]:
    """The rules asked for (the seed's where a field is left out), worked out."""
    if variant not in VARIANTS:
        raise ApiError(404, "variant_not_found", f"no table {variant[:40]!r}; expected hk or kaki3")
    query = {
        "min_fan": min_fan,
        "fan_cap": fan_cap,
        "points": points,
        "win_payment": win_payment,
        "time_bank_seconds": time_bank_seconds,
    }
    return house_rules_json(_read(variant, query))
