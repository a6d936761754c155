"""The bot's fast shanten against the engine's reference `shanten`."""

from __future__ import annotations

import random

import pytest

from server.bots.quick_shanten import quick_shanten, shanten_with_each
from server.engine.hand import shanten
from server.engine.tiles import hk_tile_set, kaki3_tile_set


def _hand_tiles(variant: str) -> list[str]:
    if variant == "hk":
        return hk_tile_set()
    return [t for t in kaki3_tile_set() if t[-1] in "pzj"]


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
@pytest.mark.parametrize("size", [14, 13, 11, 10, 8, 7, 5, 4, 2, 1])
def test_equals_the_engine_without_fei(variant: str, size: int) -> None:
    rng = random.Random(size)
    tiles = [t for t in _hand_tiles(variant) if t != "j"]
    for _ in range(150):
        hand = tuple(rng.sample(tiles, size))
        assert quick_shanten(hand, variant) == shanten(hand, variant), hand


@pytest.mark.parametrize("size", [14, 13, 11, 10, 7, 4])
def test_with_fei_never_worse_and_at_most_one_step_optimistic(size: int) -> None:
    rng = random.Random(100 + size)
    tiles = _hand_tiles("kaki3")
    checked = 0
    for _ in range(300):
        hand = tuple(rng.sample(tiles, size))
        if "j" not in hand:
            continue
        checked += 1
        reference = shanten(hand, "kaki3")
        quick = quick_shanten(hand, "kaki3")
        assert reference - 1 <= quick <= reference, hand
        assert quick >= (-1 if size % 3 == 2 else 0), hand  # only 3n+2 tiles complete
    assert checked > 50


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_one_more_tile_matches_a_fresh_reading(variant: str) -> None:
    rng = random.Random(7)
    tiles = _hand_tiles(variant)
    kinds = sorted(set(tiles))
    for size in (13, 10, 7):
        for _ in range(40):
            hand = tuple(rng.sample(tiles, size))
            after = shanten_with_each(hand, variant, kinds)
            for kind in kinds:
                assert after[kind] == quick_shanten((*hand, kind), variant), (hand, kind)
