"""Scenarios for four rulings of docs/rules.md that the engine once got wrong (issue 14).

- A Fei standing for a fifth copy of an honour makes no honour pattern (3 Kaki).
- The same-turn throw ban after a chow or pong is a 3 Kaki rule; Hong Kong has none.
- A sunk Fei counts 3 when the losers square up: a scoring bonus tile and a Fei.
- A bonus tile drawn as a kong's replacement keeps the chain a kong replacement, so the
  win is a Kong Replacement Win, and Kong Upon Kong when the chain holds a second kong.

Win values (3 Kaki): 5 fan 8, 6 fan 10, 7 fan 12, 8 fan 14, 9 fan 16, limit 24.
"""

from __future__ import annotations

from tests.scenarios.tools.author import payments, winner
from tests.scenarios.tools.specs_kaki3_limits import EAST_NO_2Z, WEST_NO_2Z
from tests.scenarios.tools.specs_kaki3_settlement import SOUTH, SOUTH_BACK, SOUTH_FIVE_FAN

K = "kaki3"
HK = "hk"

# East and West holding no 2z and no 4z, for South's two concealed kongs of them.
EAST_NO_2Z_4Z = "11p 22p 33p 44p 1z 3z 6p 66z 9p"

SPECS = [
    {
        "name": "kaki3_fifth_white_by_fei_is_not_little_dragons",
        "comment": (
            'docs/rules.md, "Scoring", honour patterns: a Fei may stand for a fifth copy of an honour, and such a '
            "reading scores each set's own fan and none of the honour patterns. South holds 5555z j 666z "
            "123p 4p and an animal (replaced by 5p), and draws and throws 1z; East's second discard is 6p "
            "(a win on East's first discard would be the earthly hand). Its only reading is 555z, 5z+Fei as the "
            "eye, 666z, 123p, 456p: two dragon sets 2 + half flush 1 + animal 1 = 4 fan, short of 5; the "
            "White eye beside a White set is not Little Dragons. South's win (action 4) is refused."
        ),
        "variant": K,
        "hands": {
            "E": "6p 11p 22p 33p 44p 1z 2z 3z 4z 7z",
            "S": "5555z j 666z 123p 4p 1a",
            "W": "55p 77p 88p 99p 1z 2z 3z 7z 4z",
        },
        "front": "1z 8p 9p",
        "back": "5p",
        "actions": ["E discard 7z", "S discard 1z", "W discard 2z", "E discard 6p", "S win"],
        "expect_error": "action 4:",
    },
    {
        "name": "hk_chow_then_same_set_discard_allowed",
        "comment": (
            'docs/rules.md, "A player\'s turn": the ban on throwing a tile of a set just shown is a 3 Kaki '
            "rule; Hong Kong has no such ban. East throws 6m, South "
            "chows it with 4m 5m and throws its spare 5m; nobody can claim it, so West draws. Outcome "
            "null, nothing paid."
        ),
        "variant": HK,
        "hands": {
            "E": "6m 11p 22p 33p 44s 55s 1z 2z 3z",
            "S": "4m 5m 5m 123p 789s 11z 67z",
            "W": "11s 22s 33s 44s 55s 66s 7s",
            "N": "77s 88s 99s 8m 9m 3z 4z 6z 6z 7z",
        },
        "front": "9p",
        "back": "",
        "actions": ["E discard 6m", "S chow 4m 5m", "S discard 5m"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0, "N": 0},
            "pending": ["W"],
        },
    },
    {
        "name": "kaki3_square_up_counts_a_sunk_fei_three",
        "comment": (
            'docs/rules.md, "Payments", squaring up (a sunk Fei is both a scoring bonus tile and a Fei, so it '
            "counts 3). East sinks its Fei first (replacement 6z from the back), then throws 1z; "
            "South wins on West's 7z with 123p 456p 789p 555z 77z and three animals: dragon set 1 + half "
            "flush 1 + animals 3 = 5 fan = 8. West pays 8, East 4. South holds no Fei, so no extra Fei. "
            "Square-up: East counts its sunk Fei 1 + 2 x 1 Fei = 3; West counts 3f, its own flower, = 1. "
            "West pays East 3 - 1 = 2. Nets: S +12, E -4 + 2 = -2, W -8 - 2 = -10."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 6z j",
            "S": SOUTH,
            "W": "55p 66p 77p 88p 99p 2z 7z 3f",
        },
        "front": "4z 3z",
        "back": SOUTH_BACK + " 3z 6z",
        "actions": ["E sink", "E discard 1z", "S discard 4z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("W", "S", 8, "win"), ("E", "S", 4, "win"), ("W", "E", 2, "square_up")
            ),
            "scores": {"E": -2, "S": 12, "W": -10},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_kong_replacement_bonus_tile_then_win",
        "comment": (
            'docs/rules.md, "Win flags (what scoring is told)" (a kong\'s replacement chain stays a kong replacement). '
            "South draws 5z and declares 2222z (2 from East and West); its replacement is the face 3c, laid "
            "out and replaced again by 9p, which completes 123p 456p 789p 55z. The chain began with a kong, "
            "so this is a Kong Replacement Win, not a Bonus Replacement Win: seat wind set 1 + half flush 1 "
            "+ kong replacement win 1 + animals 2 + face 1 = 6 fan = 10, self-drawn: 10 from each. "
            "Nets: S +4 +20 = +24, E -12, W -12."
        ),
        "variant": K,
        "hands": {"E": EAST_NO_2Z, "S": "2222z 123p 456p 8p 1a 2a", "W": WEST_NO_2Z},
        "front": "5z",
        "back": "7p 5z 3c 9p",
        "actions": ["E discard 1z", "S concealed_kong 2z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    6,
                    10,
                    "seat_wind_set:1 half_flush:1 kong_replacement_win:1 animal:1 animal:1 face_tile:1",
                )
            ],
            "payments": payments(
                ("E", "S", 2, "kong"),
                ("W", "S", 2, "kong"),
                ("E", "S", 10, "win"),
                ("W", "S", 10, "win"),
            ),
            "scores": {"E": -12, "S": 24, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_kong_upon_kong_through_bonus_tiles",
        "comment": (
            'docs/rules.md, "Win flags (what scoring is told)" (a second kong in the same chain makes it Kong Upon '
            "Kong). South draws 7p and declares 2222z: its replacement, face 3c, is laid out and replaced "
            "by 8p. South declares 4444z: its replacement, face 1c, is laid out and replaced by 9p, which "
            "completes 123p 789p 55z. One chain, two kongs: Kong Upon Kong, the limit, 24 self-drawn from "
            "each. Kongs: 2 + 2 from each of East and West. No Fei anywhere; East and West hold nothing "
            "that squares up. Nets: S +8 +48 = +56, E -2 -2 -24 = -28, W -28."
        ),
        "variant": K,
        "hands": {"E": EAST_NO_2Z_4Z, "S": "2222z 4444z 123p 1a 2a", "W": WEST_NO_2Z},
        "front": "7p",
        "back": "5z 5z 3c 8p 1c 9p",
        "actions": ["E discard 1z", "S concealed_kong 2z", "S concealed_kong 4z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "kong_upon_kong:10", limit=True)],
            "payments": payments(
                ("E", "S", 2, "kong"),
                ("W", "S", 2, "kong"),
                ("E", "S", 2, "kong"),
                ("W", "S", 2, "kong"),
                ("E", "S", 24, "win"),
                ("W", "S", 24, "win"),
            ),
            "scores": {"E": -28, "S": 56, "W": -28},
            "next_dealer": "S",
        },
    },
]
