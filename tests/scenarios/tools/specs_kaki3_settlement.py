"""3 Kaki settlement scenarios: each payment rule of docs/rules.md, "3 Kaki: payments", with the arithmetic by hand.

Win values (docs/rules.md): 5 fan 8, 6 fan 10, 7 fan 12, 8 fan 14, 9 fan 16, limit 24.
On a discard the shooter pays the value and the other loser half; on a self-draw both pay it.

Most deals share one frame (`BASE`): East throws 1z, South draws 4z and throws it, West
draws 3z and throws 7z, and South wins on it with 123p 456p 789p 555z 77z. Seat numbers
for bonus tiles: East 1, South 2, West 3.
"""

from __future__ import annotations

from tests.scenarios.tools.author import payments, winner

K = "kaki3"

# East: nothing that scores, no Fei. West: nothing that scores, holds the 7z it throws.
EAST = "11p 22p 33p 44p 1z 2z 3z 4z 66z"
WEST = "55p 66p 77p 88p 99p 2z 3z 7z"
# South: three animals, laid out in the deal and replaced by 5z 5z 7z from the back.
SOUTH = "123p 456p 789p 5z 1a 2a 3a"
SOUTH_BACK = "5z 5z 7z"
BASE_ACTIONS = ["E discard 1z", "S discard 4z", "W discard 7z", "S win"]
# dragon set 1 + half flush 1 + three animals 3 = 5 fan -> 8 points.
SOUTH_FIVE_FAN = "dragon_set:1 half_flush:1 animal:1 animal:1 animal:1"

SPECS = [
    {
        "name": "kaki3_discard_win_split",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": On a discard win the shooter pays the value and '
            "the other loser half. South wins on West's 7z with 123p 456p 789p 555z 77z and "
            "three animals: dragon set 1 + half flush 1 + animals 3 = 5 fan = 8 points. West "
            "(shooter) pays 8, East pays 8/2 = 4. No Fei, and the losers hold nothing that "
            "squares up (0 vs 0). Nets: S +12, W -8, E -4. The winner deals next."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4z 3z",
        "back": SOUTH_BACK,
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(("W", "S", 8, "win"), ("E", "S", 4, "win")),
            "scores": {"E": -4, "S": 12, "W": -8},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_self_draw_both_pay",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": On a self-draw (Ji Mo) both pay the value. and '
            "Self-draw scores nothing at this table. South draws the 7z it waits on: dragon set "
            "1 + half flush 1 + animals 3 = 5 fan (no self-draw fan) = 8 points from each of "
            "East and West. Nets: S +16, E -8, W -8."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "7z",
        "back": SOUTH_BACK,
        "actions": ["E discard 1z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(("E", "S", 8, "win"), ("W", "S", 8, "win")),
            "scores": {"E": -8, "S": 16, "W": -8},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_six_fan_discard_win",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": Win value by fan: 5: 8, 6: 10 and the half '
            "share. South holds three animals and a face (1c): dragon set 1 + half flush 1 + "
            "animals 3 + face 1 = 6 fan = 10 points. West (shooter) pays 10, East pays 10/2 = 5. "
            "Nets: S +15, W -10, E -5."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 1a 2a 3a 1c", "W": WEST},
        "front": "4z 3z",
        "back": "5z 5z 5z 7z",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S", 6, 10, "dragon_set:1 half_flush:1 animal:1 animal:1 animal:1 face_tile:1"
                )
            ],
            "payments": payments(("W", "S", 10, "win"), ("E", "S", 5, "win")),
            "scores": {"E": -5, "S": 15, "W": -10},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_limit_no_bonus_tiles",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": "No Bonus Tiles" is a limit hand on '
            "any winning shape and limit: 24. South wins 123p 456p 789p 555z 77z holding no "
            "bonus tile at all: limit, 10 fan, 24 points. West (shooter) pays 24, East pays 24/2 "
            "= 12. Nets: S +36, W -24, E -12."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 555z 7z", "W": WEST},
        "front": "4z 3z",
        "back": "",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "no_bonus_tiles:10", limit=True)],
            "payments": payments(("W", "S", 24, "win"), ("E", "S", 12, "win")),
            "scores": {"E": -12, "S": 36, "W": -24},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_dealer_wins_dong_set_twice",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": the East set (East is always the '
            'round wind, so it scores for everyone and twice for the dealer); docs/rules.md, "3 '
            "Kaki: the next dealer\": the winner. East wins on West's 7z with a concealed 111z, "
            "123p 456p 789p, eye 77z, holding animal 1a and its own flower 1f: dong set 1 + seat "
            "wind set 1 + half flush 1 + animal 1 + own flower 1 = 5 fan = 8 points. West pays "
            "8, South 4. Nets: E +12, W -8, S -4. East keeps the deal."
        ),
        "variant": K,
        "hands": {
            "E": "111z 123p 456p 789p 1a 1f",
            "S": "22p 33p 44p 55p 66p 2z 2z 6z",
            "W": "11p 77p 88p 99p 5z 5z 6z 6z 7z",
        },
        "front": "3z 3z",
        "back": "7z 4z",
        "actions": ["E discard 4z", "S discard 3z", "W discard 7z", "E win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("E", 5, 8, "half_flush:1 dong_set:1 seat_wind_set:1 animal:1 own_flower:1")
            ],
            "payments": payments(("W", "E", 8, "win"), ("S", "E", 4, "win")),
            "scores": {"E": 12, "S": -4, "W": -8},
            "next_dealer": "E",
        },
    },
    {
        "name": "kaki3_dragon_liability_wins_on_the_tile",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", dragon liability: a player shows two dragon '
            "sets, and you throw a tile of the third dragon. If they win on that tile ... you "
            "pay both losers' shares. South pongs 5z from East and 6z from West, then West "
            "throws 7z and South wins on it (eye 77z with 123p 456p): dragon sets 2 + little "
            "dragons 3 + half flush 1 + animal 1 = 7 fan = 12 points. West pays its shooter's "
            "share 12 (win) and East's half 6 (liability); East pays nothing. Nets: S +18, W "
            "-18, E 0."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 99p 5z 1z 22z 3z 4z",
            "S": "123p 456p 55z 66z 7z 3z 1a",
            "W": "55p 6p 77p 88p 99p 11z 6z 7z",
        },
        "front": "8p 6p",
        "back": "4z",
        "actions": [
            "E discard 5z",
            "S pong 55z",
            "S discard 3z",
            "W discard 6z",
            "S pong 66z",
            "S discard 4z",
            "W discard 7z",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S", 7, 12, "half_flush:1 little_dragons:3 dragon_set:1 dragon_set:1 animal:1"
                )
            ],
            "payments": payments(("W", "S", 12, "win"), ("W", "S", 6, "liability")),
            "scores": {"E": 0, "S": 18, "W": -18},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_dragon_liability_claimed_then_wins_later",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", dragon liability: ... or claim it and win later '
            "in the deal, you pay both losers' shares of the win payment. South shows 5z and 6z "
            "pongs; West throws 7z, South pongs it (big dragons, a limit: 24 points) and later "
            "wins on East's 1p (123p, eye 99p). East is the shooter, but West is liable: West "
            "pays its own half share 12 (win) and East's full share 24 (liability); East pays "
            "nothing. Nets: S +36, W -36, E 0."
        ),
        "variant": K,
        "hands": {
            "E": "5z 11p 44p 5p 6p 22z 3z 4z 888p",
            "S": "55z 66z 77z 23p 99p 1z 3z 1a",
            "W": "6z 7z 11z 33p 55p 66p 77p 9p",
        },
        "front": "2p 2p 2p 7p",
        "back": "4z",
        "actions": [
            "E discard 5z",
            "S pong 55z",
            "S discard 1z",
            "W discard 6z",
            "S pong 66z",
            "S discard 3z",
            "W discard 7z",
            "S pong 77z",
            "S discard 4z",
            "W discard 2p",
            "E discard 1p",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "big_dragons:10", limit=True)],
            "payments": payments(("W", "S", 12, "win"), ("W", "S", 24, "liability")),
            "scores": {"E": 0, "S": 36, "W": -36},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_concealed_kong_pays_two_each",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": Kongs, at once: concealed, 2 from each other '
            "player. East declares 9999p before its first discard, takes 3p from the back and "
            "throws 1z. South and West pay 2 each: E +4, S -2, W -2. The actions end with South "
            "to play: outcome null (docs/scenarios.md)."
        ),
        "variant": K,
        "hands": {
            "E": "9999p 123p 1z 2z 3z 4z 5z 6z 7z",
            "S": "11p 22p 44p 55p 66p 77p 8p",
            "W": "33p 88p 2z 2z 3z 3z 4z 4z 5z 6z 7z",
        },
        "front": "5p",
        "back": "3p",
        "actions": ["E concealed_kong 9p", "E discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("S", "E", 2, "kong"), ("W", "E", 2, "kong")),
            "scores": {"E": 4, "S": -2, "W": -2},
            "pending": ["S"],
        },
    },
    {
        "name": "kaki3_added_kong_pays_one_each",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": Kongs, at once: ... Added, 1 from each. South '
            "pongs East's 2z, later draws the fourth 2z and adds it (replacement 6p from the "
            "back, thrown). East and West pay 1 each: S +2, E -1, W -1. Outcome null: West is to "
            "play."
        ),
        "variant": K,
        "hands": {
            "E": "2z 11p 33p 55p 77p 99p 4z 6z 7z",
            "S": "22z 123p 456p 789p 5z 3z",
            "W": "1p 3p 5p 7p 9p 1z 1z 3z 3z 4z 5z 6z 7z",
        },
        "front": "8p 8p 2z 4p",
        "back": "6p",
        "actions": [
            "E discard 2z",
            "S pong 22z",
            "S discard 3z",
            "W discard 8p",
            "E discard 8p",
            "S added_kong 2z",
            "S discard 6p",
        ],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 1, "kong"), ("W", "S", 1, "kong")),
            "scores": {"E": -1, "S": 2, "W": -1},
            "pending": ["W"],
        },
    },
    {
        "name": "kaki3_discard_kong_paid_by_discarder",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": Kongs, at once: ... From a discard, 2 from the '
            "discarder. South holds 888p and kongs East's 8p, takes 9p from the back and throws "
            "1z. East pays 2, West nothing: S +2, E -2, W 0. Outcome null: West is to play."
        ),
        "variant": K,
        "hands": {
            "E": "8p 11p 22p 33p 44p 1z 2z 3z 4z 6z",
            "S": "888p 123p 456p 9p 5z 7z 1z",
            "W": "55p 66p 77p 99p 2z 3z 4z 5z 6z",
        },
        "front": "5z",
        "back": "9p",
        "actions": ["E discard 8p", "S kong 888p", "S discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 2, "kong")),
            "scores": {"E": -2, "S": 2, "W": 0},
            "pending": ["W"],
        },
    },
    {
        "name": "kaki3_family_complete_in_the_deal_paid_four",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", families: paid 2 by each other player. It is '
            "paid 4 if the family was complete when the deal's replacements ended, before the "
            "first discard. South is dealt all four animals: East and West pay 4 each. S +8, E "
            "-4, W -4. Outcome null after East's first discard."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 1a 2a 3a 4a", "W": WEST},
        "front": "4z",
        "back": "5z 5z 5z 7z",
        "actions": ["E discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 4, "family"), ("W", "S", 4, "family")),
            "scores": {"E": -4, "S": 8, "W": -4},
            "pending": ["S"],
        },
    },
    {
        "name": "kaki3_family_completed_by_deal_replacement_paid_four",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall" and docs/rules.md, "3 '
            'Kaki: payments": bonus tiles are replaced in the deal ... again until no hand holds '
            "a bonus tile, and a family complete when the deal's replacements ended is paid 4. "
            "South is dealt 1f 2f 3f; its first replacement is 4f, itself replaced (5z). The "
            "flowers are complete before the first discard: East and West pay 4 each. S +8, E "
            "-4, W -4."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 7z 1f 2f 3f", "W": WEST},
        "front": "4z",
        "back": "4f 5z 5z 5z",
        "actions": ["E discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 4, "family"), ("W", "S", 4, "family")),
            "scores": {"E": -4, "S": 8, "W": -4},
            "pending": ["S"],
        },
    },
    {
        "name": "kaki3_family_completed_later_paid_two",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", families: a complete family of four ... is paid '
            "2 by each other player when it is completed after the deal. South is dealt 1a 2a 3a "
            "and draws 4a on its first turn (replaced by 3z from the back, thrown): East and "
            "West pay 2 each. S +4, E -2, W -2."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4a 4z",
        "back": "5z 5z 7z 3z",
        "actions": ["E discard 1z", "S discard 3z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 2, "family"), ("W", "S", 2, "family")),
            "scores": {"E": -2, "S": 4, "W": -2},
            "pending": ["W"],
        },
    },
    {
        "name": "kaki3_extra_fei_held_in_hand",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", extra Fei: each loser pays the winner 1 point '
            "for each Fei the winner holds beyond the loser's own count ... Count Fei in hand. "
            "South wins 123p 456p 7p-j-9p 555z 77z (the Fei stands for 8p): dragon set 1 + half "
            "flush 1 + animals 3 = 5 fan = 8. West pays 8, East 4; South holds 1 Fei, East and "
            "West none: each pays 1 extra_fei. Nets: S +14, W -9, E -5."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 7p j 5z 5z 1a 2a 3a", "W": WEST},
        "front": "4z 3z",
        "back": "5z 9p 7z",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("W", "S", 8, "win"),
                ("E", "S", 4, "win"),
                ("E", "S", 1, "extra_fei"),
                ("W", "S", 1, "extra_fei"),
            ),
            "scores": {"E": -5, "S": 14, "W": -9},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_extra_fei_shown_set_both_directions",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei" and docs/rules.md, "3 Kaki: payments": A pong from a '
            "discard may use one Fei and one real copy and extra Fei beyond the loser's own "
            "count (never below 0). Count Fei ... in shown sets. South pongs East's 5p with "
            "5p+Fei and wins on West's 7z: dragon set 1 + half flush 1 + animals 3 = 5 fan = 8; "
            "West pays 8, East 4. South holds 1 Fei (in the shown pong); East holds 2 in hand: "
            "max(0, 1-2) = 0; West holds 0: pays 1. Losers square up: East 2 Fei x 2 = 4, West "
            "0: West pays East 4. Nets: S +13, E 0, W -13."
        ),
        "variant": K,
        "hands": {
            "E": "5p jj 11p 22p 33p 44p 1z 2z 4z",
            "S": "5p j 123p 789p 7z 3z 1a 2a 3a",
            "W": "55p 66p 77p 88p 99p 7z 2z 3z",
        },
        "front": "4z",
        "back": "5z 5z 5z",
        "actions": ["E discard 5p", "S pong 5p j =5p", "S discard 3z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("W", "S", 8, "win"),
                ("E", "S", 4, "win"),
                ("W", "S", 1, "extra_fei"),
                ("W", "E", 4, "square_up"),
            ),
            "scores": {"E": 0, "S": 13, "W": -13},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_extra_fei_sunk",
        "comment": (
            'docs/rules.md, "3 Kaki: in play", sinking: a sunk Fei joins your bonus tiles (1 fan '
            "each ...); extra Fei counts Fei sunk. South draws 7z, sinks its Fei (replacement 3z "
            "from the back, thrown), and wins on West's 7z: dragon set 1 + half flush 1 + "
            "animals 2 + Fei set aside 1 = 5 fan = 8. West pays 8, East 4, and each pays 1 for "
            "South's sunk Fei. Nets: S +14, W -9, E -5."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 5z j 1a 2a", "W": WEST},
        "front": "7z 4z",
        "back": "5z 5z 3z",
        "actions": ["E discard 1z", "S sink", "S discard 3z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("S", 5, 8, "dragon_set:1 half_flush:1 animal:1 animal:1 fei_set_aside:1")
            ],
            "payments": payments(
                ("W", "S", 8, "win"),
                ("E", "S", 4, "win"),
                ("E", "S", 1, "extra_fei"),
                ("W", "S", 1, "extra_fei"),
            ),
            "scores": {"E": -5, "S": 14, "W": -9},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_square_up_west_pays_east",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", squaring up: each counts their scoring bonus '
            "tiles, those that would score them fan. East holds 1f (its own flower), 2f (not "
            "East's), 4n (everyone's) and face 1c: count 3. West holds 3n (its own season): "
            "count 1. West pays East 3 - 1 = 2. South's win as in kaki3_discard_win_split: 8 "
            "from West, 4 from East. Nets: S +12, E -2, W -10."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 6z 1f 2f 4n 1c",
            "S": SOUTH,
            "W": "55p 66p 77p 88p 99p 2z 7z 3n",
        },
        "front": "4z 3z",
        "back": "2z 3z 4z 6z " + SOUTH_BACK + " 3z",
        "actions": BASE_ACTIONS,
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
        "name": "kaki3_square_up_east_pays_west",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", squaring up: scoring bonus tiles, the fan of '
            "their scoring honour sets on the table (exposed sets ...), twice their Fei; The "
            "lower count pays the other the difference. West pongs North (bei set, 1 fan for "
            "everyone) and holds 3f (own flower), 4f and one Fei: 1 + 1 + 1 + 2x1 = 5. East "
            "holds face 1c: 1. East pays West 4. South wins on West's 7z (5 fan = 8): West 8, "
            "East 4. South holds no Fei, so no extra Fei. Nets: S +12, E -8, W -4."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 6z 1c",
            "S": SOUTH,
            "W": "44z 55p 66p 77p 8p 7z j 3f 4f",
        },
        "front": "",
        "back": "6z " + SOUTH_BACK + " 8p 9p",
        "actions": ["E discard 4z", "W pong 44z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("W", "S", 8, "win"), ("E", "S", 4, "win"), ("E", "W", 4, "square_up")
            ),
            "scores": {"E": -8, "S": 12, "W": -4},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_square_up_families_and_dealer_east_set",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": families at once, and the square-up count of '
            "their scoring bonus tiles; their complete families; the fan of their scoring honour "
            "sets on the table; twice their Fei. East is dealt the four faces (paid 4 by South "
            "and West, complete in the deal) and pongs South's 1z (the East set is 2 fan for the "
            "dealer). East counts 4 faces + 1 family + 2 = 7; West holds two Fei: 2x2 = 4. West "
            "pays East 3. South wins on East's 7z (5 fan = 8): East 8, West 4. Nets: E +4+4-8+3 "
            "= +3, S -4+12 = +8, W -4-4-3 = -11."
        ),
        "variant": K,
        "hands": {
            "E": "11z 11p 22p 33p 44p 1c 2c 3c 4c",
            "S": "123p 456p 789p 1z 1a 2a 3a",
            "W": "jj 55p 66p 77p 88p 2z 3z 4z",
        },
        "front": "7z",
        "back": "5p 6p 9p 7z 5z 5z 5z",
        "actions": ["E discard 9p", "S discard 1z", "E pong 11z", "E discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("S", "E", 4, "family"),
                ("W", "E", 4, "family"),
                ("E", "S", 8, "win"),
                ("W", "S", 4, "win"),
                ("W", "E", 3, "square_up"),
            ),
            "scores": {"E": 3, "S": 8, "W": -11},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_robbed_kong_pays_as_discard",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": A robbed kong pays as a discard by the player '
            "who added the tile. East pongs South's 3p and later adds the drawn fourth 3p; South "
            "robs it (12p + 3p): dragon set 1 + half flush 1 + animals 2 + robbing the kong 1 = "
            "5 fan = 8. East pays 8 as the shooter, West 4. The robbed kong is not made and pays "
            "nothing. Nets: S +12, E -8, W -4."
        ),
        "variant": K,
        "hands": {
            "E": "33p 1z 2z 11p 22p 44p 66p 9p 4z",
            "S": "12p 3p 45p 789p 5z 77z 1a 2a",
            "W": "1p 4p 5p 5p 6p 2z 2z 3z 3z 4z 4z 6z 6z",
        },
        "front": "6p 9p 8p 3p",
        "back": "5z 5z",
        "actions": [
            "E discard 1z",
            "S discard 3p",
            "E pong 33p",
            "E discard 2z",
            "S discard 9p",
            "W discard 8p",
            "E added_kong 3p",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("S", 5, 8, "dragon_set:1 half_flush:1 animal:1 animal:1 robbing_the_kong:1")
            ],
            "payments": payments(("E", "S", 8, "win"), ("W", "S", 4, "win")),
            "scores": {"E": -8, "S": 12, "W": -4},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_all_four_flowers_fan_and_family",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands" and docs/rules.md, "3 Kaki: payments": '
            '"All four flowers" and "all four seasons" each add 1 on top of the tiles\' own fan; '
            "families paid 4 if the family was complete when the deal's replacements ended. "
            "South is dealt 1f 2f 3f 4f: East and West pay 4 each at once. South wins on West's "
            "7z: dragon set 1 + half flush 1 + own flower (2f) 1 + flower 4 1 + all four flowers "
            "1 = 5 fan = 8; West 8, East 4. Nets: S +8+12 = +20, E -4-4 = -8, W -4-8 = -12."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 1f 2f 3f 4f", "W": WEST},
        "front": "4z 3z",
        "back": "5z 5z 5z 7z",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    5,
                    8,
                    "dragon_set:1 half_flush:1 own_flower:1 flower_4:1 all_four_flowers:1",
                )
            ],
            "payments": payments(
                ("E", "S", 4, "family"),
                ("W", "S", 4, "family"),
                ("W", "S", 8, "win"),
                ("E", "S", 4, "win"),
            ),
            "scores": {"E": -8, "S": 20, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_ten_fan_by_adding_up_pays_the_limit",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": A hand that reaches 10 fan by adding '
            "up pays the limit value too. The score output marks limit only for the named limit "
            "hands. South wins on West's 7z with 123p 456p 555z 666z 77z, three animals and a "
            "face: dragon sets 2 + little dragons 3 + half flush 1 + animals 3 + face 1 = 10 "
            "fan, limit false, 24 points. West 24, East 12. Nets: S +36, W -24, E -12."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 9p 9p",
            "S": "123p 55z 666z 7z 1a 2a 3a 1c",
            "W": WEST,
        },
        "front": "4z 3z",
        "back": "5z 4p 5p 6p",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    10,
                    24,
                    "dragon_set:1 dragon_set:1 little_dragons:3 half_flush:1 animal:1 animal:1 animal:1 "
                    "face_tile:1",
                )
            ],
            "payments": payments(("W", "S", 24, "win"), ("E", "S", 12, "win")),
            "scores": {"E": -12, "S": 36, "W": -24},
            "next_dealer": "S",
        },
    },
]
