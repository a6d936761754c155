"""`GET /api/house-rules/{variant}`: what the lobby offers and what the table panels show
of a house-rules table is the engine's own (`TableRules`, the settlement)."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.engine.rules import FAN_CAP_CHOICES, MIN_FAN_CHOICES, TableRules


async def test_the_seed_rules_and_the_choices_of_each_table(http: httpx.AsyncClient) -> None:
    for variant in ("hk", "kaki3"):
        answer = (await http.get(f"/api/house-rules/{variant}")).json()
        assert answer["rules"] == answer["seed"] == TableRules.default(variant).to_json()
        assert answer["changes"] == {}
        assert answer["choices"]["min_fan"] == list(MIN_FAN_CHOICES[variant])
        assert answer["choices"]["fan_cap"] == list(FAN_CAP_CHOICES[variant])
    kaki3 = (await http.get("/api/house-rules/kaki3")).json()
    assert kaki3["choices"]["points"] == ["seed"] and kaki3["choices"]["win_payment"] == ["seed"]


async def test_a_house_rules_table_is_worked_out_by_the_engine(http: httpx.AsyncClient) -> None:
    query = {"min_fan": "1", "fan_cap": "10", "points": "half", "win_payment": "everyone_full"}
    answer = (await http.get("/api/house-rules/hk", params=query)).json()
    rules = TableRules.from_json(
        {"min_fan": 1, "fan_cap": 10, "points": "half", "win_payment": "everyone_full"}, "hk"
    )
    assert answer["changes"] == {
        "min_fan": 1, "fan_cap": 10, "points": "half", "win_payment": "everyone_full",
    }  # fmt: skip
    assert [(row["fan"], row["points"]) for row in answer["points"]] == list(
        rules.points_table().items()
    )
    assert answer["points"][-1] == {"fan": 10, "points": 64, "limit": True}
    assert answer["points"][0] == {"fan": 1, "points": 1}
    payments = {rule["id"]: rule for rule in answer["payments"]}
    # Everyone pays the full value of a discard win under this house rule.
    assert payments["discard_win"] == {
        "id": "discard_win", "shooter_share": 1.0, "others_share": 1.0,
    }  # fmt: skip
    assert payments["kong_exposed"]["points"] >= 1


async def test_a_rule_the_table_does_not_offer_is_a_422_naming_it(
    http: httpx.AsyncClient,
) -> None:
    for variant, query, field in (
        ("kaki3", {"min_fan": "1"}, "min_fan"),
        ("kaki3", {"points": "half"}, "points"),
        ("hk", {"fan_cap": "ten"}, "fan_cap"),
        ("hk", {"time_bank_seconds": "301"}, "time_bank_seconds"),
    ):
        answer = await http.get(f"/api/house-rules/{variant}", params=query)
        assert answer.status_code == 422, (variant, query)
        assert answer.json()["error"]["code"] == "validation_error"
        assert f"rules.{field}" in answer.json()["error"]["message"]
    assert (await http.get("/api/house-rules/riichi")).status_code == 404


async def test_the_half_table_halves_win_values_and_keeps_kong_payments(
    http: httpx.AsyncClient,
) -> None:
    """Issue 25, point 13: what the Rules panel shows under the half table is what the deal
    pays (scenario hk_house_half_points_keeps_kong_payments) and what docs/rules.md says."""
    seed = (await http.get("/api/house-rules/hk")).json()
    half = (await http.get("/api/house-rules/hk", params={"points": "half"})).json()
    seed_points = {row["fan"]: row["points"] for row in seed["points"]}
    assert {row["fan"]: row["points"] for row in half["points"]} == {
        fan: (points + 1) // 2 for fan, points in seed_points.items()
    }
    kongs = ("kong_exposed", "kong_added", "kong_concealed")
    paid = {rule["id"]: rule["points"] for rule in half["payments"] if rule["id"] in kongs}
    assert paid == {"kong_exposed": 2, "kong_added": 1, "kong_concealed": 2}
    assert paid == {rule["id"]: rule["points"] for rule in seed["payments"] if rule["id"] in kongs}
    rules_doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    entry = rules_doc.split("- **`points`** (Hong Kong)", 1)[1].split("\n- **", 1)[0]
    assert "kong payments" in entry and "stay" in entry
    assert "hk_house_half_points_keeps_kong_payments" in entry
