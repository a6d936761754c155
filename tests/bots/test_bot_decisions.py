"""Targeted bot decisions from fixed deals, played by the real engine."""

from __future__ import annotations

from server.bots import choose_action
from server.bots.claiming import claimed_meld, forced_discards
from server.bots.own_turn import without
from server.bots.seat_view import read_view
from server.engine import apply, legal_actions
from tests.bots.bot_positions import decision, discard, everyone_passes, fixed_deal

# East's hand when only South's decision matters: honours nobody else can use.
QUIET_EAST_HK = "5z 1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s"
QUIET_EAST_KAKI3 = "1z 1z 2z 4z 4z 5z 6z 7z 7z 2z 1z 4z 5z 6z"


def test_takes_a_winning_discard() -> None:
    # South waits on 9m or 5z with a half flush; East throws the White dragon.
    state = fixed_deal("hk", {"E": QUIET_EAST_HK, "S": "123m 345m 678m 99m 55z"})
    state = discard(state, "E", "5z")
    seat_view, legal = decision(state, "S")
    assert {a.type for a in legal} >= {"win", "pong", "pass"}
    for level in ("baseline", "full"):
        assert choose_action(seat_view, legal, level).type == "win"


def test_pongs_a_dragon() -> None:
    # A pair of White and a hand leaning to characters: the pong is fan and a step closer.
    state = fixed_deal("hk", {"E": QUIET_EAST_HK, "S": "55z 123m 456m 78m 1z 3p 9s"})
    state = discard(state, "E", "5z")
    seat_view, legal = decision(state, "S")
    choice = choose_action(seat_view, legal, "full")
    assert choice.type == "pong"
    assert choice.tiles == ("5z", "5z")


def test_keeps_the_tiles_that_reach_the_minimum() -> None:
    # Throwing the Red dragon makes a ready hand (4p-7p) with no fan: it could never win.
    # Throwing a dot instead keeps a half flush (3 fan) in characters and honours.
    state = fixed_deal("hk", {"E": "123m 456m 789m 22z 5p 6p 7z"})
    seat_view, legal = decision(state, "E")
    assert choose_action(seat_view, legal, "baseline").tile == "7z"  # shape only
    assert choose_action(seat_view, legal, "full").tile in ("5p", "6p")


def test_sinks_a_fei_when_that_reaches_five_fan() -> None:
    # South: three animals (3 fan) and a West pung (no fan for South). With the Fei the hand
    # is complete but scores 4 (half flush and animals), so no win is offered. Sinking
    # the Fei adds its fan and leaves a 2p/5p wait worth exactly 5.
    state = fixed_deal(
        "kaki3",
        {"E": QUIET_EAST_KAKI3, "S": "333z 456p 789p j 1a 2a 3a"},
        front="4p",
        back="2p 2p 3p 5p",
    )
    state = everyone_passes(discard(state, "E", "7z"))
    seat_view, legal = decision(state, "S")
    assert "win" not in {a.type for a in legal}
    assert "sink" in {a.type for a in legal}
    assert choose_action(seat_view, legal, "full").type == "sink"


def test_passes_a_chow_that_breaks_a_ready_hand() -> None:
    # South is ready (9m or 5z) with a half flush; chowing East's 4m would break it.
    state = fixed_deal(
        "hk", {"E": "4m 1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s", "S": "123m 345m 678m 99m 55z"}
    )
    state = discard(state, "E", "4m")
    seat_view, legal = decision(state, "S")
    assert "chow" in {a.type for a in legal}
    assert choose_action(seat_view, legal, "full").type == "pass"


def test_every_choice_is_one_of_the_legal_actions() -> None:
    state = fixed_deal("hk", {"E": QUIET_EAST_HK, "S": "55z 123m 456m 78m 1z 3p 9s"})
    state = discard(state, "E", "5z")
    seat_view, legal = decision(state, "S")
    for level in ("baseline", "full"):
        assert choose_action(seat_view, legal, level) in legal


def _discards_after_claim(
    variant: str, hands: dict[str, str], thrown: str, claim_type: str
) -> tuple[set[str | None], set[str | None]]:
    """What the bot thinks it may throw after the claim, and what the engine then allows."""
    state = discard(fixed_deal(variant, hands), "E", thrown)
    raw_view, legal = decision(state, "S")
    claim = next(a for a in legal if a.type == claim_type)
    bot_view = read_view(raw_view)
    meld = claimed_meld(bot_view, claim, thrown)
    bot_choices = forced_discards(
        bot_view, tuple(without(bot_view.concealed, list(claim.tiles or ()))), meld
    )
    state = everyone_passes(apply(state, claim)[0])
    engine_choices = [a for a in legal_actions(state, "S") if a.type == "discard"]
    return {a.tile for a in bot_choices}, {a.tile for a in engine_choices}


def test_the_bot_weighs_a_claim_with_the_throws_the_engine_allows() -> None:
    # Hong Kong has no same-turn throw ban: after chowing 6m with 4m 5m, South may throw its
    # spare 5m, and the bot must count that throw when it values the chow.
    hk_bot, hk_engine = _discards_after_claim(
        "hk",
        {"E": "6m 1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s", "S": "4m 5m 5m 123s 456s 789s 1z"},
        "6m",
        "chow",
    )
    assert "5m" in hk_engine
    assert hk_bot == hk_engine
    # At 3 Kaki the ban holds, and the bot leaves the set's tiles out, as the engine does.
    kaki3_bot, kaki3_engine = _discards_after_claim(
        "kaki3",
        {"E": "6p 1z 2z 4z 4z 5z 6z 7z 7z 2z 1z 4z 5z 6z", "S": "4p 5p 5p 123p 789p 99p 3z 3z"},
        "6p",
        "chow",
    )
    assert "5p" not in kaki3_engine
    assert kaki3_bot == kaki3_engine
