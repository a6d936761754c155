"""The hand analysis agrees with the engine's scorer on thousands of random ready hands.

Each hand is built as sets and an eye (some sets shown, some tiles Fei at 3 Kaki, bonus
tiles laid aside), then one concealed tile is taken out, so it is ready by construction.
The scorer is asked about every tile kind of the table: the tiles it finds a winning shape
for are the waits, and its fan and points, on a discard and on a self-draw, are the
analysis's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from server.engine.analysis import OwnTiles, hand_waits, win_value
from server.engine.melds import Meld
from server.engine.rules import TableRules
from server.engine.scoring import MIN_FAN, score_hand
from server.engine.scoring.types import WinFlags, WinningHand

HANDS_PER_TABLE = 1000
KINDS = {
    "hk": [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)],
    "kaki3": [f"{r}p" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)],
}
BONUS = [f"{r}{s}" for s in "fnac" for r in range(1, 5)]
SEATS = {"hk": "ESWN", "kaki3": "ESW"}
NO_SHAPE = "the tiles do not form a winning hand"


def random_group(rng: random.Random, variant: str) -> list[str]:
    if rng.random() < 0.5:
        suit = rng.choice("mps" if variant == "hk" else "p")
        start = rng.randint(1, 7)
        return [f"{start + k}{suit}" for k in range(3)]
    return [rng.choice(KINDS[variant])] * 3


def random_ready_hand(rng: random.Random, variant: str) -> OwnTiles | None:
    """A ready hand, or None when the draw broke the four-copies limit."""
    groups = [random_group(rng, variant) for _ in range(4)]
    eye = [rng.choice(KINDS[variant])] * 2
    if Counter(tile for group in [*groups, eye] for tile in group).most_common(1)[0][1] > 4:
        return None
    shown = rng.randint(0, 2)
    melds = []
    for group in groups[:shown]:
        kind = "chow" if group[0] != group[1] else "pong"
        melds.append(Meld(kind, tuple(group), claimed_from="E", claimed_tile=group[0]))
    concealed = [tile for group in [*groups[shown:], eye] for tile in group]
    fei = 0
    if variant == "kaki3" and rng.random() < 0.4:
        # At most one Fei, in place of a tile of a pong or of the eye (always a legal use).
        for index, tile in enumerate(concealed):
            if concealed.count(tile) >= 2 and rng.random() < 0.3:
                concealed[index] = "j"
                fei = 1
                break
    concealed.pop(rng.randrange(len(concealed)))
    bonus = tuple(rng.sample(BONUS, rng.randint(0, 4))) if variant == "kaki3" else ()
    if variant == "kaki3" and fei == 0 and rng.random() < 0.2:
        bonus += ("j",)
    return OwnTiles(
        variant=variant,
        seat=rng.choice(SEATS[variant]),
        round_wind="E",
        concealed=tuple(sorted(concealed)),
        melds=tuple(melds),
        bonus=bonus,
        rules=TableRules.default(variant),
    )


def scorer_says(own: OwnTiles, tile: str, flags: WinFlags) -> Any:
    return score_hand(
        WinningHand(
            variant=own.variant,
            seat_wind=own.seat,
            concealed=(*own.concealed, tile),
            winning_tile=tile,
            melds=own.melds,
            bonus=own.bonus,
            round_wind=own.round_wind,
            flags=flags,
        )
    )


@pytest.mark.parametrize("variant", ["hk", "kaki3"])
def test_waits_fan_and_points_match_the_scorer(variant: str) -> None:
    rng = random.Random(f"analysis {variant}")
    checked = below_minimum = 0
    kinds = KINDS[variant] + (["j"] if variant == "kaki3" else [])
    while checked < HANDS_PER_TABLE:
        own = random_ready_hand(rng, variant)
        if own is None:
            continue
        checked += 1
        held = Counter(own.concealed)
        for meld in own.melds:
            held.update(meld.tiles)
        expected = {}
        for tile in kinds:
            if tile != "j" and held[tile] >= 4:
                continue  # a fifth copy does not exist
            on_self_draw = scorer_says(own, tile, WinFlags(self_drawn=True))
            if on_self_draw.reason == NO_SHAPE:
                continue
            on_discard = None if tile == "j" else scorer_says(own, tile, WinFlags())
            expected[tile] = (on_discard, on_self_draw)
        found = {wait.tile: wait for wait in hand_waits(own)}
        assert set(found) == set(expected), own
        minimum = MIN_FAN[variant]
        for tile, (on_discard, on_self_draw) in expected.items():
            wait = found[tile]
            assert wait.on_self_draw == win_value(on_self_draw, minimum), (own, tile)
            assert wait.on_self_draw.points == on_self_draw.points
            if on_discard is None:
                assert wait.on_discard is None
            else:
                assert wait.on_discard == win_value(on_discard, minimum), (own, tile)
                assert wait.on_discard.reaches_min == on_discard.valid
                below_minimum += not on_discard.valid
    # The sample holds both kinds of wait, so the minimum check was exercised.
    assert below_minimum > 0
