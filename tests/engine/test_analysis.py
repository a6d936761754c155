"""The hand analysis of one seat, in real deals: waits and unseen copies, a short win on a
discard or a draw, sinking a Fei, rules that refuse a move, and no hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine import Action, DealSettings, apply, deal_from_wall, legal_actions, view
from server.engine.analysis import analyse
from server.engine.deal_state import DealState
from server.engine.rules import TableRules
from server.engine.variants import get_variant
from server.engine.wall import shuffled_deal

# South waits on 1p and 4p with a full flush only: 3 fan, and the table needs 5.
SHORT_SOUTH = {"E": "1z 3z 4z 6z 7z 1z 3z 4z 6z 7z 2z 2z 4z 6z", "S": "1f 123p 567p 888p 23p 9p"}


def test_the_dealers_first_discard_is_an_earthly_hand_not_a_short_one(fixed: Any) -> None:
    state = fixed.deal(
        "kaki3", {**SHORT_SOUTH, "E": "4p 3z3z3z 4z4z4z 6z6z6z 7z7z7z 1z"}, back="9p"
    )
    state = fixed.play(state, "E", "discard", tile="4p")
    analysis = analyse(view(state, "S"))
    assert analysis is not None and analysis["short"] is None
    assert Action("win", "S") in legal_actions(state, "S")


def test_a_discard_that_completes_the_shape_below_the_minimum_is_short(fixed: Any) -> None:
    state = fixed.deal("kaki3", SHORT_SOUTH, front="5z 4p", back="9p")
    state = fixed.play(state, "E", "discard", tile="1z")
    state = fixed.play(state, "S", "discard", tile="5z")
    state = fixed.play(state, "W", "discard", tile="4p")
    shown = view(state, "S")
    # No claim window opens for a win that falls short: East has drawn already.
    assert shown["phase"] == "discard" and shown["last_discard"] == {"seat": "W", "tile": "4p"}
    analysis = analyse(shown)
    assert analysis is not None
    assert analysis["steps"] == 0
    waits = {wait["tile"]: wait for wait in analysis["waits"]}
    assert set(waits) == {"1p", "4p", "j"}
    # 4p: four copies, one on the table (West's discard): three unseen by South.
    assert waits["4p"]["unseen"] == 3 and waits["1p"]["unseen"] == 3
    assert waits["4p"]["discard"]["fan"] == 3 and not waits["4p"]["discard"]["reaches_min"]
    assert waits["j"]["discard"] is None, "a Fei is never claimed"
    assert analysis["short"] == {
        "tile": "4p",
        "on": "discard",
        "min_fan": 5,
        "shortfall": 2,
        "fan": 3,
        "points": 0,
        "limit": False,
        "reaches_min": False,
        "patterns": [{"id": "full_flush", "fan": 3}],
    }
    assert all(action.type != "win" for action in legal_actions(state, "S"))


def test_the_analysis_follows_the_tables_house_rules(fixed: Any) -> None:
    # The same 3-fan wait at a 3 Kaki table whose house minimum is 3: it wins, and pays
    # the house schedule's 3-fan value.
    rules = TableRules.from_json({"min_fan": 3}, "kaki3")
    state = fixed.deal("kaki3", SHORT_SOUTH, front="5z 4p", back="9p")
    state = fixed.play(state, "E", "discard", tile="1z")
    state = fixed.play(state, "S", "discard", tile="5z")
    state = fixed.play(state, "W", "discard", tile="4p")
    analysis = analyse(view(state, "S"), rules)
    assert analysis is not None and analysis["min_fan"] == 3
    waits = {wait["tile"]: wait for wait in analysis["waits"]}
    assert waits["4p"]["discard"]["fan"] == 3 and waits["4p"]["discard"]["reaches_min"]
    assert waits["4p"]["discard"]["points"] > 0
    assert analysis["short"] is None
    # The seed's rules are what no rules mean.
    assert analyse(view(state, "S")) == analyse(view(state, "S"), TableRules.default("kaki3"))


def test_a_draw_that_completes_the_shape_short_and_a_sink_that_lifts_it(fixed: Any) -> None:
    state = fixed.deal("kaki3", SHORT_SOUTH, front="j", back="9p")
    state = fixed.play(state, "E", "discard", tile="1z")
    shown = view(state, "S")
    assert shown["turn"] == "S" and shown["drawn_tile"] == "j"
    analysis = analyse(shown)
    assert analysis is not None
    assert analysis["steps"] == -1
    assert analysis["win_now"]["fan"] == 3 and not analysis["win_now"]["reaches_min"]
    assert analysis["short"]["on"] == "self_draw" and analysis["short"]["shortfall"] == 2
    assert all(action.type != "win" for action in legal_actions(state, "S"))
    # Sinking the Fei: 1 fan for the Fei set aside, and a win on its replacement 1 more.
    sink = analysis["sink"]
    assert sink["steps"] == 0 and sink["lifts"] is True
    replacement = {wait["tile"]: wait["self_draw"] for wait in sink["waits"]}
    assert replacement["4p"]["fan"] == 5 and replacement["4p"]["reaches_min"]
    assert [p["id"] for p in replacement["4p"]["patterns"]] == [
        "full_flush",
        "fei_set_aside",
        "bonus_replacement_win",
    ]
    # The engine agrees: sink, draw 4p from the back, and the win is offered at 5 fan.
    assert Action("sink", "S") in legal_actions(state, "S")


def test_the_same_turn_throw_ban_and_a_fei_pong_kong_are_named(fixed: Any) -> None:
    hands = {
        "E": "6z 2p 4p 6p 8p 1z 2z 3z 5z 7z 11p 99p",
        "S": "66z j 4z 13579p 2z 3z 7z 1z",
        "W": "2468p 1z 2z 3z 5z 7z 3579p",
    }
    state = fixed.deal("kaki3", hands, front="4z 4z 6z", back="8p 8p")
    state = fixed.play(state, "E", "discard", tile="6z")
    state = fixed.play(state, "S", "pong", tiles="6z j", fei_as="6z")
    rules = analyse(view(state, "S"))["rules"]  # type: ignore[index]
    assert {"id": "same_turn_throw_ban", "tiles": ["6z", "j"]} in rules
    assert analyse(view(state, "E"))["rules"] == []  # type: ignore[index]


def test_hong_kong_waits_and_spectators() -> None:
    hands, wall = shuffled_deal(get_variant("hk"), 11)
    state = deal_from_wall(DealSettings(variant="hk"), hands, wall)
    assert analyse(view(state, None)) is None
    analysis = analyse(view(state, "E"))
    assert analysis is not None and analysis["min_fan"] == 3 and analysis["sink"] is None


def random_play(state: DealState, rng: random.Random, moves: int) -> list[Action]:
    """Up to `moves` actions chosen at random among the legal ones (never a win, so the
    deal stays in play)."""
    actions = []
    for _ in range(moves):
        if state.is_over:
            break
        legal = [a for seat in state.seats for a in legal_actions(state, seat) if a.type != "win"]
        if not legal:
            break
        action = rng.choice(legal)
        state, _ = apply(state, action)
        actions.append(action)
    return actions


def hidden_twin(
    variant: str, seed: int, actions: list[Action], seat: str
) -> tuple[dict[str, list[str]], list[str]] | None:
    """The same deal with one tile of another seat's hand swapped for an undrawn wall tile,
    such that the same actions stay legal and `seat` sees exactly the same at every step."""
    settings = DealSettings(variant=variant)
    hands, wall = shuffled_deal(get_variant(variant), seed)
    states = [deal_from_wall(settings, hands, wall)]
    for action in actions:
        states.append(apply(states[-1], action)[0])
    final = states[-1]
    undrawn = range(final.front, final.back)
    for other in (s for s in final.seats if s != seat):
        played = final.players[other]
        quiet = {t for t in hands[other] if t not in played.discards and t != "j"}
        quiet -= {tile for meld in played.melds for tile in meld.tiles} | set(played.bonus)
        for index, tile in enumerate(hands[other]):
            for position in undrawn:
                if (
                    tile not in quiet
                    or wall[position] in (tile, "j")
                    or wall[position][-1] in "fnac"
                ):
                    continue
                twin_hands = {s: list(h) for s, h in hands.items()}
                twin_wall = list(wall)
                twin_hands[other][index], twin_wall[position] = wall[position], tile
                if _same_for(settings, twin_hands, twin_wall, actions, states, seat):
                    return twin_hands, twin_wall
    return None


def _same_for(
    settings: DealSettings,
    hands: dict[str, list[str]],
    wall: list[str],
    actions: list[Action],
    states: list[DealState],
    seat: str,
) -> bool:
    state = deal_from_wall(settings, hands, wall)
    if view(state, seat) != view(states[0], seat):
        return False
    for action, original in zip(actions, states[1:], strict=True):
        if action not in legal_actions(state, action.seat or ""):
            return False
        state, _ = apply(state, action)
        if view(state, seat) != view(original, seat):
            return False
    return True


@pytest.mark.parametrize("variant", ["kaki3", "hk"])
def test_deals_differing_only_in_hidden_tiles_give_the_same_analysis(variant: str) -> None:
    compared = 0
    for seed in range(20):
        rng = random.Random(seed)
        settings = DealSettings(variant=variant)
        hands, wall = shuffled_deal(get_variant(variant), seed)
        actions = random_play(deal_from_wall(settings, hands, wall), rng, 40)
        twin = hidden_twin(variant, seed, actions, "S")
        if twin is None:
            continue
        state, other = deal_from_wall(settings, hands, wall), deal_from_wall(settings, *twin)
        assert state != other, "the twin deal differs in a hidden tile"
        for action in [None, *actions]:
            if action is not None:
                state, other = apply(state, action)[0], apply(other, action)[0]
            assert analyse(view(state, "S")) == analyse(view(other, "S"))
            compared += 1
        if compared > 60:
            break
    assert compared > 60, "too few twin deals found to compare"
