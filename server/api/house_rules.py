"""`GET /api/house-rules/{variant}`: the house rules a table offers, and what a choice means.

The lobby builds its form from `choices` and `seed` (the defaults); the table's Rules
panel and result panel send the room's own `rules` as the query and show the answer: the
points table and the win payments worked out by the engine (`TableRules`, the
settlement's functions) for exactly those rules, and `changes`, the fields that differ
from the seed's. So no client keeps a copy of a rule constant (docs/protocol.md,
"House rules").
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from server.api.rules_query import rules_query
from server.api.variant_info import variant_rules
from server.engine.rules import (
    FAN_CAP_CHOICES,
    MAX_TIME_BANK_SECONDS,
    MIN_FAN_CHOICES,
    PAYMENT_CHOICES,
    POINTS_CHOICES,
    TableRules,
)

router = APIRouter()


def rule_changes(rules: TableRules) -> dict[str, Any]:
    """The fields of `rules` that differ from the seed's rules of its table."""
    seed = TableRules.default(rules.variant).to_json()
    return {name: value for name, value in rules.to_json().items() if seed[name] != value}


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
    variant: str, rules: Annotated[TableRules | None, Depends(rules_query)]
) -> dict[str, Any]:
    """The rules asked for (the seed's where a field is left out), worked out."""
    return house_rules_json(rules or TableRules.default(variant))
