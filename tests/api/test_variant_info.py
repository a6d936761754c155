"""`GET /api/variants/{variant}`: the Rules panel's data is the scorer's own."""

from __future__ import annotations

import httpx
import pytest

from server.engine.rules import TableRules
from server.engine.scoring import FAN_CAP, MIN_FAN, score_hand, win_points
from server.engine.scoring.hk import HK_FAN, HK_LIMITS
from server.engine.scoring.kaki3 import KAKI3_FAN, KAKI3_LIMITS
from server.engine.scoring.types import WinningHand
from server.engine.tiles import parse_tiles
from server.engine.variants import VARIANTS

TABLES = {"hk": (HK_FAN, HK_LIMITS), "kaki3": (KAKI3_FAN, KAKI3_LIMITS)}


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
async def test_the_pattern_table_fan_minimum_cap_and_points_are_the_scorers(
    http: httpx.AsyncClient, variant: str
) -> None:
    answer = await http.get(f"/api/variants/{variant}")
    assert answer.status_code == 200
    rules = answer.json()
    fan_table, limits = TABLES[variant]
    assert rules["min_fan"] == MIN_FAN[variant] and rules["fan_cap"] == FAN_CAP[variant]
    shown = {p["id"]: (p["fan"], p["limit"]) for p in rules["patterns"]}
    expected = {pattern_id: (fan, False) for pattern_id, fan in fan_table.items()}
    expected |= {pattern_id: (FAN_CAP[variant], True) for pattern_id in limits}
    assert shown == expected
    assert [(row["fan"], row["points"]) for row in rules["points"]] == [
        (fan, win_points(variant, fan, fan == FAN_CAP[variant]))
        for fan in range(MIN_FAN[variant], FAN_CAP[variant] + 1)
    ]


async def test_payments_are_worked_out_by_the_settlement(http: httpx.AsyncClient) -> None:
    hk = {rule["id"]: rule for rule in (await http.get("/api/variants/hk")).json()["payments"]}
    kaki3 = {
        rule["id"]: rule for rule in (await http.get("/api/variants/kaki3")).json()["payments"]
    }
    assert hk["discard_win"] == {"id": "discard_win", "shooter_share": 1.0, "others_share": 0.0}
    assert kaki3["discard_win"]["others_share"] == 0.5
    assert hk["self_draw_win"]["others_share"] == kaki3["self_draw_win"]["others_share"] == 1.0
    assert hk["kong_exposed"]["points"] == VARIANTS["hk"].exposed_kong_points
    assert hk["kong_added"]["points"] == VARIANTS["hk"].added_kong_points
    assert kaki3["family"]["points"] == 2 and kaki3["family"]["points_in_deal"] == 4
    assert kaki3["extra_fei"]["points"] == 1
    assert "family" not in hk and "extra_fei" not in hk and "liability" in kaki3


async def test_an_unknown_table_is_a_clear_404(http: httpx.AsyncClient) -> None:
    answer = await http.get("/api/variants/riichi")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "variant_not_found"


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
async def test_every_example_is_drawn_in_the_tables_own_tiles(
    http: httpx.AsyncClient, variant: str
) -> None:
    rules = (await http.get(f"/api/variants/{variant}")).json()
    tile_set = set(VARIANTS[variant].tile_set)
    drawn = 0
    for pattern in rules["patterns"]:
        tiles = parse_tiles(pattern["example"].replace(" ", ""))
        assert set(tiles) <= tile_set, pattern
        drawn += bool(tiles)
    assert drawn >= len(rules["patterns"]) * 2 // 3, "most patterns show an example"


@pytest.mark.parametrize(
    ("variant", "pattern_id"),
    [
        ("hk", "seven_pairs"),
        ("hk", "all_pungs"),
        ("hk", "full_flush"),
        ("hk", "thirteen_orphans"),
        ("hk", "nine_gates"),
        ("kaki3", "nine_gates"),
    ],
)
async def test_a_whole_hand_example_scores_its_pattern(
    http: httpx.AsyncClient, variant: str, pattern_id: str
) -> None:
    rules = (await http.get(f"/api/variants/{variant}")).json()
    example = next(p["example"] for p in rules["patterns"] if p["id"] == pattern_id)
    tiles = tuple(parse_tiles(example.replace(" ", "")))
    # Won on a discard of its first tile (so a pung it completes is not a concealed one).
    result = score_hand(WinningHand(variant, "S", tiles, tiles[0]))
    assert pattern_id in {pattern.id for pattern in result.patterns}, result


async def test_a_tables_house_rules_give_its_own_minimum_cap_points_and_payments(
    http: httpx.AsyncClient,
) -> None:
    answer = await http.get(
        "/api/variants/hk",
        params={"min_fan": 1, "fan_cap": 10, "win_payment": "everyone_full"},
    )
    assert answer.status_code == 200
    rules = answer.json()
    house = TableRules.from_json(
        {"min_fan": 1, "fan_cap": 10, "win_payment": "everyone_full"}, "hk"
    )
    assert (rules["min_fan"], rules["fan_cap"]) == (1, 10)
    assert [(row["fan"], row["points"]) for row in rules["points"]] == [
        (fan, win_points("hk", fan, fan == 10, house)) for fan in range(1, 11)
    ]
    assert {p["fan"] for p in rules["patterns"] if p["limit"]} == {10}
    discard = next(rule for rule in rules["payments"] if rule["id"] == "discard_win")
    assert discard["others_share"] == 1.0  # everyone pays the full value
    seed = (await http.get("/api/variants/hk")).json()
    assert (seed["min_fan"], seed["fan_cap"]) == (MIN_FAN["hk"], FAN_CAP["hk"])


async def test_rules_a_table_does_not_offer_are_refused(http: httpx.AsyncClient) -> None:
    answer = await http.get("/api/variants/kaki3", params={"fan_cap": 13})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "validation_error"
    assert "fan_cap" in answer.json()["error"]["message"]
    answer = await http.get("/api/variants/hk", params={"min_fan": "many"})
    assert answer.status_code == 422


async def test_both_rules_routes_read_the_query_alike(http: httpx.AsyncClient) -> None:
    """One reading of the house-rules query (server/api/rules_query.py): the same rules
    give the same minimum and cap, and the same mistake the same refusal, on both routes."""
    query = {"min_fan": "1", "fan_cap": "10"}
    panel = (await http.get("/api/variants/hk", params=query)).json()
    offered = (await http.get("/api/house-rules/hk", params=query)).json()
    assert (panel["min_fan"], panel["fan_cap"]) == (1, 10)
    assert (offered["rules"]["min_fan"], offered["rules"]["fan_cap"]) == (1, 10)
    assert panel["points"] == offered["points"]
    for bad in ({"min_fan": "many"}, {"time_bank_seconds": "-5"}, {"fan_cap": "9999999"}):
        refusals = [
            (await http.get(f"/api/{route}/hk", params=bad)).json()["error"]
            for route in ("variants", "house-rules")
        ]
        assert refusals[0] == refusals[1], bad
        assert refusals[0]["code"] == "validation_error"
        assert f"rules.{next(iter(bad))}" in refusals[0]["message"]
