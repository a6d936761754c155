"""Hands the ledger tests enter, each worked out by hand from docs/rules.md.

Players are numbered as the ledger opens: 0 Ana (the first dealer), 1 Bo, 2 Cy (, 3 Di).
"""

from __future__ import annotations

from typing import Any

# Bo wins on Cy's 7z, the eye of Little Dragons: he shows pongs of White and of Green
# (with a Fei), so Cy, who threw the third dragon, is liable. 8 fan at South (half flush,
# little dragons 3, two dragon sets, an animal, his own flower 2f) = 14 points: Cy pays
# his 14 and Ana's half, 7. Bo holds one Fei: Ana (none) pays 1 extra Fei, Cy (one) none.
# Ana counts 4 (her flower 1f and season 4 score, the East set is 2 for the dealer), Cy 3
# (his season 3n, one Fei twice): Cy pays Ana 1. Bo +22, Ana 0, Cy -22.
LIABLE_LITTLE_DRAGONS: dict[str, Any] = {
    "outcome": "win",
    "winner": 1,
    "discarder": 2,
    "hand": {
        "concealed": "123p 456p 77z",
        "melds": [{"kind": "pong", "tiles": "555z"}, {"kind": "pong", "tiles": "6z j 6z"}],
        "bonus": "2f 3a",
        "winning_tile": "7z",
    },
    "losers": [
        {"player": 0, "bonus": "1f 4n", "sets": [{"kind": "pong", "tiles": "111z"}], "fei": 0},
        {"player": 2, "bonus": "3n", "sets": [], "fei": 1},
    ],
    "liable": 2,
}


def full_flush(winner: int, discarder: int | None, bonus: str) -> dict[str, Any]:
    """A concealed full flush of Tong (3 fan) with `bonus` tiles; losers show nothing."""
    return {
        "outcome": "win",
        "winner": winner,
        "discarder": discarder,
        "hand": {"concealed": "111p 345p 567p 789p 22p", "bonus": bonus, "winning_tile": "2p"},
    }


# Two animals make 5 fan at any seat: 8 points.
ANIMALS_TWO = "1a 2a"
# Three animals: 6 fan, 10 points.
ANIMALS_THREE = "1a 2a 3a"
# An animal and flower 1: 5 fan at East only (flower 1 is East's own); 4 fan elsewhere.
EAST_FLOWER = "1a 1f"

# Hong Kong: a self-drawn 3 fan hand (seat wind South, a dragon pung, self-draw) when
# won at South; 8 points from each of the three others.
HK_SOUTH_SELF_DRAW: dict[str, Any] = {
    "outcome": "win",
    "winner": 1,
    "discarder": None,
    "hand": {"concealed": "123m 456p 99s 222z 555z", "winning_tile": "9s"},
}
