"""Property tests of hand analysis: decompositions, is_complete, shanten and waits agree."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.hand import decompositions, is_complete, shanten, waits
from tests.engine.scoring.hand_strategies import KINDS, complete_hands, hands

VARIANTS = st.sampled_from(["hk", "kaki3"])


def _reassembled(decomposition) -> Counter[str]:
    tiles: Counter[str] = Counter()
    for hand_set in decomposition.sets:
        for position, tile in enumerate(hand_set.tiles):
            tiles["j" if position in hand_set.fei_positions else tile] += 1
    tiles["j"] += decomposition.eye_fei
    if decomposition.eye_fei < 2:
        tiles[decomposition.eye] += 2 - decomposition.eye_fei
    return +tiles


def _candidates(variant: str) -> list[str]:
    return KINDS[variant] + (["j"] if variant == "kaki3" else [])


def _fits(tiles: list[str]) -> bool:
    counts = Counter(tiles)
    return all(count <= 4 for count in counts.values())


@settings(max_examples=150, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_every_decomposition_reassembles_to_the_hand_and_keeps_the_fei_limits(data, variant):
    tiles = data.draw(complete_hands(variant))
    found = decompositions(tiles, variant)
    assert found, f"a hand built as sets and an eye must decompose: {tiles}"
    for decomposition in found:
        assert _reassembled(decomposition) == Counter(tiles)
        assert len(decomposition.sets) == 4
        for hand_set in decomposition.sets:
            assert hand_set.fei_count <= (1 if hand_set.kind == "chow" else 2)
            assert hand_set.fei_count < 3
        assert decomposition.eye_fei in (0, 1, 2)
        assert (decomposition.eye == "j") == (decomposition.eye_fei == 2)
    assert len(set(found)) == len(found)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_is_complete_agrees_with_decompositions_and_shanten(data, variant):
    if data.draw(st.booleans()):
        tiles = data.draw(complete_hands(variant, sets=data.draw(st.integers(0, 4))))
    else:
        tiles = data.draw(hands(variant, min_size=2, max_size=14))
    complete = is_complete(tiles, variant)
    standard = bool(decompositions(tiles, variant))
    if variant == "kaki3" or len(tiles) != 14:
        assert complete == standard
    else:
        assert standard <= complete  # seven pairs and thirteen orphans add to the standard shape
    assert (shanten(tiles, variant) == -1) == complete


@settings(max_examples=200, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_waits_are_exactly_the_tiles_that_complete(data, variant):
    if data.draw(st.booleans()):
        tiles = data.draw(complete_hands(variant, sets=data.draw(st.integers(0, 4))))
        tiles = tiles[1:]  # a ready or nearly ready hand of 3n + 1 tiles
    else:
        size = data.draw(st.sampled_from([1, 4, 7, 10, 13]))
        tiles = data.draw(hands(variant, min_size=size, max_size=size))
    if len(tiles) % 3 != 1:
        return
    expected = [
        tile
        for tile in _candidates(variant)
        if _fits([*tiles, tile]) and is_complete([*tiles, tile], variant)
    ]
    assert sorted(waits(tiles, variant)) == sorted(expected)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_ready_means_some_tile_wins(data, variant):
    # With at most three of a kind no wait can be a fifth copy, so ready == some wait.
    size = data.draw(st.sampled_from([1, 4, 7, 10, 13]))
    tiles = data.draw(hands(variant, min_size=size, max_size=size, copies=3))
    if len(tiles) % 3 != 1:
        return
    assert (shanten(tiles, variant) == 0) == bool(waits(tiles, variant))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_drawing_a_tile_lowers_shanten_by_at_most_one_and_never_raises_it(data, variant):
    size = data.draw(st.sampled_from([1, 4, 7, 10, 13]))
    tiles = data.draw(hands(variant, min_size=size, max_size=size, copies=3))
    if len(tiles) % 3 != 1:
        return
    before = shanten(tiles, variant)
    tile = data.draw(st.sampled_from(_candidates(variant)))
    if not _fits([*tiles, tile]) or (tile == "j" and tiles.count("j") >= 4):
        return
    after = shanten([*tiles, tile], variant)
    assert before - 1 <= after <= before


@settings(max_examples=120, deadline=None)
@given(data=st.data(), variant=VARIANTS)
def test_shanten_is_the_exact_distance_by_single_tile_swaps(data, variant):
    # A swap (discard one tile, draw another) changes shanten by at most one, and from any
    # hand that is not complete some swap lowers it: so shanten counts swaps to complete.
    size = data.draw(st.sampled_from([2, 5, 8, 11, 14]))
    tiles = data.draw(hands(variant, min_size=size, max_size=size, copies=3))
    if len(tiles) % 3 != 2:
        return
    current = shanten(tiles, variant)
    best = current + 1
    for index in range(len(tiles)):
        rest = tiles[:index] + tiles[index + 1 :]
        for tile in _candidates(variant):
            swapped = [*rest, tile]
            if not _fits(swapped) or swapped.count("j") > 4:
                continue
            value = shanten(swapped, variant)
            assert abs(value - current) <= 1, (tiles, swapped)
            best = min(best, value)
    if current >= 0:
        assert best == current - 1, f"no swap lowers shanten {current} of {tiles}"
