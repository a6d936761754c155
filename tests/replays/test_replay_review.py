"""The replay's review marks on golden deals whose decisive moments are known by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.engine import Action, DealSettings, apply, deal_from_wall, parse_tiles, pending_seats
from server.replays.review import replay_steps

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
DECISIONS = ("chow", "pong", "kong", "pass", "win")


def logged(name: str) -> dict[str, Any]:
    """A scenario as a stored deal would hold it: every pass written out, as a room logs."""
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text())
    hands = {seat: parse_tiles(tiles) for seat, tiles in scenario["hands"].items()}
    wall = parse_tiles(scenario["wall"])
    state = deal_from_wall(DealSettings(variant=scenario["variant"]), hands, wall)
    log = []
    for wire in scenario["actions"]:
        action = Action.from_json(wire)
        while state.phase in ("claim", "rob") and not (
            action.type in DECISIONS and action.seat in pending_seats(state)
        ):
            passing = Action("pass", pending_seats(state)[0])
            state, _ = apply(state, passing)
            log.append({"action": passing.to_json(), "by_bot": False})
        state, _ = apply(state, action)
        log.append({"action": action.to_json(), "by_bot": False})
    return {
        "variant": scenario["variant"],
        "hands": hands,
        "wall": wall,
        "actions": log,
        "players": [],
    }


def marks(steps: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(step["index"], mark) for step in steps for mark in step["marks"]]


def test_throwing_the_third_dragon_is_marked_as_liability_and_the_winning_discard() -> None:
    deal = logged("kaki3_dragon_liability_wins_on_the_tile")
    steps = replay_steps(deal)
    found = marks(steps)
    throw = next(
        i
        for i, s in enumerate(steps)
        if s["action"] == {"type": "discard", "seat": "W", "tile": "7z"}
    )
    assert (throw, {"kind": "winning_discard", "seat": "W", "winner": "S"}) in found
    assert (throw, {"kind": "liability", "seat": "W", "for": "S"}) in found
    assert steps[-1]["view"]["result"]["outcome"] == "win"


def test_claiming_the_third_dragon_makes_the_thrower_liable_at_the_claim() -> None:
    steps = replay_steps(logged("kaki3_dragon_liability_claimed_then_wins_later"))
    claim = next(
        i
        for i, step in enumerate(steps)
        if step["action"] and Action.from_json(step["action"]).tiles == ("7z", "7z")
    )
    assert {"kind": "liability", "seat": "W", "for": "S"} in steps[claim]["marks"]
    # Every seat's first ready moment is marked once at most.
    ready = [mark["seat"] for _, mark in marks(steps) if mark["kind"] == "ready"]
    assert len(ready) == len(set(ready))


def test_a_sunk_fei_that_led_to_the_win_helped() -> None:
    steps = replay_steps(logged("kaki3_sink_then_win_on_the_replacement"))
    sunk = [mark for _, mark in marks(steps) if mark["kind"] == "fei_sunk"]
    assert len(sunk) == 1 and sunk[0]["seat"] == "S" and sunk[0]["helped"] is True
    # Every hand is open at every step.
    assert all("hand" in seat for step in steps for seat in step["view"]["players"].values())
