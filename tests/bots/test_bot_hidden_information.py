"""The bot decides from its seat's view alone: hidden tiles never change its choice."""

from __future__ import annotations

import random

import pytest

from server.bots import choose_action
from server.engine import DealSettings, deal_from_wall, legal_actions, view
from server.engine.tiles import hk_tile_set, kaki3_tile_set


def _two_deals_differing_only_in_hidden_tiles(variant: str, seed: int):
    """Two deals where East holds the same 14 tiles but every other hand and the wall differ.

    Bonus tiles stay out of the hands, so nothing is laid out and the table shows the same.
    """
    rng = random.Random(seed)
    tiles = hk_tile_set() if variant == "hk" else kaki3_tile_set()
    rng.shuffle(tiles)
    playable = [t for t in tiles if t[-1] in "mpszj"]
    bonus = [t for t in tiles if t[-1] in "fnac"]
    east, rest = playable[:14], playable[14:]
    others = ("S", "W", "N") if variant == "hk" else ("S", "W")
    deals = []
    for shuffle_seed in (1, 2):
        hidden = list(rest)
        random.Random(shuffle_seed * 1000 + seed).shuffle(hidden)
        hands = {"E": east}
        for index, seat in enumerate(others):
            hands[seat] = hidden[13 * index : 13 * (index + 1)]
        wall = hidden[13 * len(others) :] + bonus
        deals.append(deal_from_wall(DealSettings(variant=variant), hands, wall))
    return deals


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
@pytest.mark.parametrize("seed", range(6))
def test_same_view_same_choice_whatever_the_hidden_tiles(variant: str, seed: int) -> None:
    first, second = _two_deals_differing_only_in_hidden_tiles(variant, seed)
    assert first.players["S"].hand != second.players["S"].hand  # the hidden part differs
    first_view, second_view = view(first, "E"), view(second, "E")
    assert first_view == second_view
    legal = legal_actions(first, "E")
    assert legal == legal_actions(second, "E")
    for level in ("baseline", "full"):
        assert choose_action(first_view, legal, level) == choose_action(second_view, legal, level)


def test_the_view_given_to_the_bot_holds_no_other_hand() -> None:
    first, _ = _two_deals_differing_only_in_hidden_tiles("hk", 0)
    seat_view = view(first, "E")
    for seat in ("S", "W", "N"):
        assert "hand" not in seat_view["players"][seat]
    assert "wall" not in seat_view


def test_rejects_a_spectator_view_and_bad_input() -> None:
    first, _ = _two_deals_differing_only_in_hidden_tiles("hk", 0)
    legal = legal_actions(first, "E")
    with pytest.raises(ValueError, match="spectator"):
        choose_action(view(first, None), legal, "full")
    with pytest.raises(ValueError, match="no legal action"):
        choose_action(view(first, "E"), [], "full")
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(view(first, "E"), legal, "grandmaster")
