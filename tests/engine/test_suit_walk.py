"""The one suit walk against a brute-force reading of a suit's tiles, on random suits.

The brute force tries every group for every tile (not only the lowest tile first), so it
shares no shortcut with `suit_shapes`; it is slow, hence short suits.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.suit_walk import MAX_PARTIALS, best_suit_shapes, suit_complete, suit_shapes


@cache
def brute_shapes(counts: tuple[int, ...], chows: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partials, eye) reachable by removing groups in any order."""
    found = {(0, 0, 0)}
    size = len(counts)
    groups: list[tuple[tuple[int, ...], tuple[int, int, int]]] = []
    for index in range(size):
        groups.append(((index, index, index), (1, 0, 0)))
        groups.append(((index, index), (0, 1, 0)))
        groups.append(((index, index), (0, 0, 1)))
        if chows and index + 2 < size:
            groups.append(((index, index + 1, index + 2), (1, 0, 0)))
        if chows and index + 1 < size:
            groups.append(((index, index + 1), (0, 1, 0)))
        if chows and index + 2 < size:
            groups.append(((index, index + 2), (0, 1, 0)))
    for indexes, (sets, partials, eye) in groups:
        rest = list(counts)
        for index in indexes:
            rest[index] -= 1
        if min(rest) < 0:
            continue
        for s, t, e in brute_shapes(tuple(rest), chows):
            if e + eye <= 1:
                found.add((s + sets, min(t + partials, MAX_PARTIALS), e + eye))
    return frozenset(found)


def suit(length: int, most: int) -> st.SearchStrategy[tuple[int, ...]]:
    return (
        st.lists(st.integers(0, 4), min_size=length, max_size=length)
        .filter(lambda counts: sum(counts) <= most)
        .map(tuple)
    )


@settings(max_examples=120, deadline=None)
@given(counts=suit(9, 8))
def test_suited_shapes_match_the_brute_force(counts: tuple[int, ...]) -> None:
    assert set(suit_shapes(counts, True)) == brute_shapes(counts, True)


@settings(max_examples=80, deadline=None)
@given(counts=suit(7, 9))
def test_honour_shapes_match_the_brute_force(counts: tuple[int, ...]) -> None:
    assert set(suit_shapes(counts, False)) == brute_shapes(counts, False)


@settings(max_examples=120, deadline=None)
@given(counts=suit(9, 8), with_eye=st.booleans())
def test_a_complete_suit_is_one_the_brute_force_reads_without_leftovers(
    counts: tuple[int, ...], with_eye: bool
) -> None:
    eye = int(with_eye)
    tiles = sum(counts)
    expected = any(
        partials == 0 and e == eye and 3 * sets + 2 * e == tiles
        for sets, partials, e in brute_shapes(counts, True)
    )
    assert suit_complete(counts, True, with_eye) == expected


def test_known_suits() -> None:
    assert suit_complete((1, 1, 1, 0, 0, 0, 0, 0, 3), True, False)
    assert suit_complete((3, 1, 1, 1, 2, 1, 1, 1, 3), True, True)  # nine gates and a 5
    assert not suit_complete((1, 1, 0, 0, 0, 0, 0, 0, 0), True, False)
    assert not suit_complete((1, 1, 1, 0, 0, 0, 0), False, False)  # honours never chow
    assert (1, 1, 0) in suit_shapes((1, 1, 1, 1, 1, 0, 0, 0, 0), True)
    assert max(s for s, _, _ in suit_shapes((4, 4, 4, 0, 0, 0, 0, 0, 0), True)) == 4


def best_value(shapes: frozenset[tuple[int, int, int]], need: int, eye: int) -> int:
    """The count a hand without Fei makes of a suit needing `need` sets (eye allowed or not)."""
    values = [2 * min(s, need) + min(t, need - min(s, need)) + e for s, t, e in shapes if e <= eye]
    return max(values)


@settings(max_examples=120, deadline=None)
@given(counts=suit(9, 8), chows=st.booleans())
def test_the_pruned_walk_keeps_every_best_reading(counts: tuple[int, ...], chows: bool) -> None:
    pruned, everything = best_suit_shapes(counts, chows), brute_shapes(counts, chows)
    assert set(pruned) <= everything
    for need in range(5):
        for eye in (0, 1):
            assert best_value(pruned, need, eye) == best_value(everything, need, eye)
