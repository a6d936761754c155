"""The quick win filters never rule out a hand that the full shape check accepts."""

import random

import pytest

from server.engine.deal_filters import could_be_complete, could_complete_with
from server.engine.hand import is_complete
from server.engine.variants import get_variant


def complete_hand(variant: str, rng: random.Random) -> list[str] | None:
    """Four random sets and a pair from the table's tiles (Fei in them at 3 Kaki)."""
    pool = list(get_variant(variant).tile_set)
    rng.shuffle(pool)
    counts = {tile: pool.count(tile) for tile in set(pool)}
    hand: list[str] = []

    def take(tiles: list[str]) -> bool:
        needed = {t: tiles.count(t) for t in tiles}
        if any(counts.get(t, 0) < n for t, n in needed.items()):
            return False
        for t in tiles:
            counts[t] -= 1
        hand.extend(tiles)
        return True

    kinds = [t for t in counts if t[-1] in "mpsz"]
    for _ in range(200):
        if len(hand) == 12:
            break
        base = rng.choice(kinds)
        if base[-1] != "z" and int(base[0]) <= 7 and rng.random() < 0.5:
            run = [f"{int(base[0]) + k}{base[-1]}" for k in range(3)]
            if variant == "kaki3" and rng.random() < 0.3:
                run[rng.randrange(3)] = "j"
            take(run)
        else:
            pong = [base] * 3
            if variant == "kaki3" and rng.random() < 0.3:
                pong[0] = "j"
            take(pong)
    if len(hand) != 12 or not take([rng.choice(kinds)] * 2):
        return None
    return hand


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_the_filters_pass_every_complete_hand(variant):
    rng = random.Random(variant)
    checked = 0
    for _ in range(1500):
        hand = complete_hand(variant, rng)
        if hand is None:
            continue
        assert is_complete(hand, variant)
        assert could_be_complete(hand)
        for index in range(len(hand)):
            rest = hand[:index] + hand[index + 1 :]
            assert could_complete_with(tuple(rest), hand[index]), (rest, hand[index])
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_the_filters_agree_on_random_hands(variant):
    rng = random.Random(f"random-{variant}")
    tiles = list(get_variant(variant).tile_set)
    kinds = sorted({t for t in tiles if t[-1] in "mpszj"})
    playable = [t for t in tiles if t[-1] in "mpszj"]
    ruled_out = 0
    for _ in range(500):
        rest = rng.sample(playable, 13)
        for tile in kinds:
            if rest.count(tile) == 4 or (tile == "j" and rest.count("j") == 4):
                continue
            if not could_complete_with(tuple(rest), tile):
                ruled_out += 1
                assert not is_complete([*rest, tile], variant)
    assert ruled_out > 0


def test_thirteen_orphans_always_goes_to_the_full_check():
    orphans = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert could_complete_with(tuple(orphans), "7z")
    assert could_be_complete([*orphans, "1m"])
