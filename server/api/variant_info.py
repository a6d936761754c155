"""`GET /api/variants/{variant}`: a table's rules as the scorer has them, for the Rules panel.

Everything is read from `server.engine`: the pattern ids and their fan, the limit hands,
the minimum and the cap, the points of each fan, and the payments, which are worked out by
calling the settlement's own functions on a sample table. The client keeps no copy, so
the panel can never disagree with the scorer. Only the example tiles of each pattern are
this module's own data (`pattern_examples.json`), and a test checks they are the table's
tiles.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from server.api.rules_query import rules_query
from server.engine.deal_result import Payment
from server.engine.rules import TableRules
from server.engine.scoring import win_points
from server.engine.scoring.hk import HK_FAN, HK_LIMITS
from server.engine.scoring.kaki3 import KAKI3_FAN, KAKI3_LIMITS
from server.engine.settlement import (
    ADDED,
    CONCEALED,
    EXPOSED,
    Win,
    extra_fei_payments,
    family_payments,
    hk_win_payments,
    kaki3_win_payments,
    kong_payments,
)
from server.engine.variants import HK, KAKI3, VARIANTS, Variant

router = APIRouter()

_PATTERN_TABLES: dict[str, tuple[dict[str, int], tuple[str, ...]]] = {
    HK: (HK_FAN, HK_LIMITS),
    KAKI3: (KAKI3_FAN, KAKI3_LIMITS),
}
_EXAMPLES = Path(__file__).with_name("pattern_examples.json")
# A sample win's value: large and even, so every share of it is a whole number.
_SAMPLE_POINTS = 64


@cache
def pattern_examples() -> dict[str, dict[str, str]]:
    """Each table's example tiles per pattern id (mpsz notation, sets split by spaces)."""
    examples: dict[str, dict[str, str]] = json.loads(_EXAMPLES.read_text(encoding="utf-8"))
    return examples


def _share_of(payments: list[Payment], payer: str) -> float:
    """What `payer` pays of a sample win, as a fraction of its value (0 when nothing)."""
    paid = sum(p.points for p in payments if p.payer == payer)
    return paid / _SAMPLE_POINTS


def _win_payments(variant: Variant, win: Win, rules: TableRules) -> list[Payment]:
    if variant.name == HK:
        return hk_win_payments(variant, win, rules)
    return kaki3_win_payments(variant, win)


def _payment_rules(variant: Variant, table_rules: TableRules) -> list[dict[str, Any]]:
    winner, shooter = variant.seats[0], variant.seats[1]
    other = variant.seats[2]
    on_discard = _win_payments(variant, Win(winner, _SAMPLE_POINTS, shooter), table_rules)
    self_drawn = _win_payments(variant, Win(winner, _SAMPLE_POINTS, None), table_rules)
    rules: list[dict[str, Any]] = [
        {
            "id": "discard_win",
            "shooter_share": _share_of(on_discard, shooter),
            "others_share": _share_of(on_discard, other),
        },
        {"id": "self_draw_win", "others_share": _share_of(self_drawn, other)},
    ]
    for kind in (EXPOSED, ADDED, CONCEALED):
        paid = kong_payments(variant, winner, kind, shooter if kind == EXPOSED else None)
        rules.append({"id": f"kong_{kind}", "points": paid[0].points})
    if variant.has_bonus_tiles:
        later = family_payments(variant, winner, complete_in_deal=False)[0].points
        dealt = family_payments(variant, winner, complete_in_deal=True)[0].points
        rules.append({"id": "family", "points": later, "points_in_deal": dealt})
    if variant.has_fei:
        extra = extra_fei_payments(winner, {winner: 2, shooter: 1, other: 2})
        rules.append({"id": "extra_fei", "points": extra[0].points if extra else 0})
        rules.append({"id": "square_up"})
    if variant.name == KAKI3:
        # 3 Kaki's dragon liability: the seat that threw the third dragon pays both shares.
        rules.append({"id": "liability"})
    return rules


@cache
def variant_rules(name: str, rules: TableRules | None = None) -> dict[str, Any]:
    """The table `name`'s pattern table, fan, minimum, cap, points and payments, under the
    house rules `rules` (the seed's rules of the table when None)."""
    variant = VARIANTS[name]
    table_rules = rules if rules is not None else TableRules.default(name)
    fan_table, limits = _PATTERN_TABLES[name]
    examples = pattern_examples().get(name, {})
    cap = table_rules.fan_cap
    minimum = table_rules.min_fan
    patterns = [
        {"id": pattern_id, "fan": fan, "limit": False, "example": examples.get(pattern_id, "")}
        for pattern_id, fan in fan_table.items()
    ] + [
        {"id": pattern_id, "fan": cap, "limit": True, "example": examples.get(pattern_id, "")}
        for pattern_id in limits
    ]
    points = [
        {"fan": fan, "points": win_points(name, fan, False, table_rules)}
        for fan in range(minimum, cap)
    ]
    points.append({"fan": cap, "points": win_points(name, cap, True, table_rules), "limit": True})
    return {
        "variant": name,
        "seats": list(variant.seats),
        "min_fan": minimum,
        "fan_cap": cap,
        "patterns": patterns,
        "points": points,
        "payments": _payment_rules(variant, table_rules),
    }


@router.get("/api/variants/{variant}")
async def variant_info(
    variant: str, rules: Annotated[TableRules | None, Depends(rules_query)]
) -> dict[str, Any]:
    """A table's rules for the Rules panel (docs/protocol.md); the query's house rules,
    when given, are the table's own (a room's ``rules``), so the panel shows its cap."""
    return variant_rules(variant, rules)
