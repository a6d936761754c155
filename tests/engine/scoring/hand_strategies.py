"""Hypothesis strategies for concealed hands, shared by the hand and scoring tests."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume
from hypothesis import strategies as st

HK_KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
KAKI3_KINDS = [f"{r}p" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
KINDS = {"hk": HK_KINDS, "kaki3": KAKI3_KINDS}


def _within(tiles: list[str], copies: int) -> bool:
    counts = Counter(tiles)
    fei = counts.pop("j", 0)
    return fei <= 4 and all(count <= copies for count in counts.values())


@st.composite
def hands(
    draw: st.DrawFn, variant: str, min_size: int = 1, max_size: int = 14, copies: int = 4
) -> list[str]:
    """Any concealed hand of the table (Fei allowed at 3 Kaki), at most `copies` of a kind."""
    pool = KINDS[variant] + (["j"] if variant == "kaki3" else [])
    tiles = draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size))
    # Fei are rarer at the table than in a uniform draw; keep at most four.
    if not _within(tiles, copies):
        counts: Counter[str] = Counter()
        kept = []
        for tile in tiles:
            limit = 4 if tile == "j" else copies
            if counts[tile] < limit:
                counts[tile] += 1
                kept.append(tile)
        tiles = kept
    return tiles


@st.composite
def complete_hands(draw: st.DrawFn, variant: str, sets: int = 4) -> list[str]:
    """A hand built as `sets` sets and an eye, some real tiles then turned into Fei at 3 Kaki
    within the Fei limits (at most one per chow, two per pong, every set keeps a real tile)."""
    kinds = KINDS[variant]
    suits = "mps" if variant == "hk" else "p"
    groups: list[list[str]] = []
    for _ in range(sets):
        if draw(st.booleans()):
            suit = draw(st.sampled_from(suits))
            start = draw(st.integers(1, 7))
            groups.append([f"{start + k}{suit}" for k in range(3)])
        else:
            groups.append([draw(st.sampled_from(kinds))] * 3)
    groups.append([draw(st.sampled_from(kinds))] * 2)
    if variant == "kaki3":
        fei_budget = draw(st.integers(0, 4))
        for group in groups:
            is_chow = len(group) == 3 and group[0] != group[1]
            limit = 1 if is_chow else 2
            turn = min(fei_budget, draw(st.integers(0, limit)))
            for position in draw(st.permutations(range(len(group))))[:turn]:
                group[position] = "j"
            fei_budget -= turn
    tiles = [tile for group in groups for tile in group]
    assume(_within(tiles, 4))
    return draw(st.permutations(tiles))
