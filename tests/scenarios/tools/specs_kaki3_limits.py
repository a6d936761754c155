"""3 Kaki edge scenarios: liability variants, the end of the wall, limit hands, the time limit.

The end-of-wall deals reuse the 7-tile-end frame of `specs_kaki3_play` (every bonus tile
and Fei dealt, 22 drawable tiles, South draws the 22nd).
"""

from __future__ import annotations

from tests.scenarios.tools.author import payments, winner
from tests.scenarios.tools.specs_kaki3_play import (
    END_BACK,
    END_EAST,
    END_FRONT,
    END_SOUTH,
    END_WEST,
    draw_and_throw,
)
from tests.scenarios.tools.specs_kaki3_settlement import BASE_ACTIONS, EAST, WEST

K = "kaki3"
# The first 21 drawable tiles of the frame; each scenario picks the 22nd.
FIRST_21 = END_FRONT[: -len(" 6z")]
# East and West without any 2z, for South's 2222z.
EAST_NO_2Z = "11p 22p 33p 44p 1z 3z 4z 66z 9p"
WEST_NO_2Z = "55p 66p 77p 88p 99p 3z 3z 7z"
# East for South's four concealed pongs (333p 888p 555z and a pair): no 3p, 8p or 5z.
KKH_EAST = "11p 22p 44p 55p 1z 2z 3z 66z 9p"

SPECS = [
    {
        "name": "kaki3_dragon_liability_then_self_draw",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", dragon liability: ... or claim it and win later '
            "in the deal, you pay both losers' shares. As in "
            "kaki3_dragon_liability_claimed_then_wins_later, but South then draws its winning "
            "1p: a self-draw, where each loser's share is the full value 24. West pays both: 24 "
            "(win) + 24 (liability) = 48; East pays nothing. Nets: S +48, W -48, E 0."
        ),
        "variant": K,
        "hands": {
            "E": "5z 11p 44p 5p 6p 22z 3z 4z 888p",
            "S": "55z 66z 77z 23p 99p 1z 3z 1a",
            "W": "6z 7z 11z 33p 55p 66p 77p 9p",
        },
        "front": "2p 2p 2p 7p 1p",
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
            "E discard 7p",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "big_dragons:10", limit=True)],
            "payments": payments(("W", "S", 24, "win"), ("W", "S", 24, "liability")),
            "scores": {"E": 0, "S": 48, "W": -48},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_no_liability_before_two_sets_are_shown",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": dragon liability applies when a player shows two '
            "dragon sets, and you throw a tile of the third dragon. West throws 6z while South "
            "shows only its 5z pong; South pongs it (its second set) and later wins on East's 1p "
            "with a concealed 777z: big dragons, limit, 24. No liability: East (shooter) pays "
            "24, West half, 12. Nets: S +36, E -24, W -12."
        ),
        "variant": K,
        "hands": {
            "E": "5z 11p 44p 5p 6p 22z 3z 4z 888p",
            "S": "55z 66z 777z 23p 9p 1z 3z 1a",
            "W": "6z 7z 11z 33p 55p 66p 77p 9p",
        },
        "front": "2p 2p 7p",
        "back": "9p",
        "actions": [
            "E discard 5z",
            "S pong 55z",
            "S discard 1z",
            "W discard 6z",
            "S pong 66z",
            "S discard 3z",
            "W discard 2p",
            "E discard 1p",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "big_dragons:10", limit=True)],
            "payments": payments(("E", "S", 24, "win"), ("W", "S", 12, "win")),
            "scores": {"E": -24, "S": 36, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_last_tile_win_is_a_limit",
        "comment": (
            'docs/scoring.md, "3 Kaki patterns": Last Tile Win, Limit: winning on the last tile '
            'there is to draw; docs/rules.md, "3 Kaki: payments", extra Fei and squaring up. In '
            "the 7-tile-end frame South's 22nd draw, the last drawable tile, is 4z and completes "
            "123p 123p 2z2z-Fei 3z3z-Fei 44z: limit, 24 from each (self-drawn). Extra Fei: South "
            "holds 2, East 0 (pays 2), West 2 (pays 0). Square-up: East 1f 1n 1a 1c = 4; West 4f "
            "4n 4a 3c + 2 Fei x 2 = 8: East pays West 4. Nets: S +50, E -24-2-4 = -30, W -24+4 = "
            "-20."
        ),
        "variant": K,
        "hands": {"E": END_EAST, "S": END_SOUTH, "W": END_WEST},
        "front": FIRST_21 + " 4z",
        "back": END_BACK,
        "actions": ["E discard 8p", *draw_and_throw(FIRST_21, "S"), "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "last_tile_win:10", limit=True)],
            "payments": payments(
                ("E", "S", 24, "win"),
                ("W", "S", 24, "win"),
                ("E", "S", 2, "extra_fei"),
                ("E", "W", 4, "square_up"),
            ),
            "scores": {"E": -30, "S": 50, "W": -20},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_last_discard_win_is_a_limit",
        "comment": (
            'docs/scoring.md, "3 Kaki patterns": Last Discard Win, Limit: winning on the hand\'s '
            'last discard; docs/rules.md, "3 Kaki: fan and limit hands": any limit hand is 10 '
            "and limit: 24. South draws the last drawable tile, 9p, and throws it; West wins on "
            "it (44p 55p 66p 7p 88p 11z + two Fei): limit, 24. South (shooter) pays 24, East 12. "
            "Extra Fei: West holds 2, South 2 (pays 0), East 0 (pays 2). Square-up: East 1f 1n "
            "1a 1c = 4; South 2a 3a 2c + 2 Fei x 2 = 7: East pays South 3. Nets: W +38, S -24+3 "
            "= -21, E -12-2-3 = -17."
        ),
        "variant": K,
        "hands": {"E": END_EAST, "S": END_SOUTH, "W": END_WEST},
        "front": FIRST_21 + " 9p",
        "back": END_BACK,
        "actions": ["E discard 8p", *draw_and_throw(FIRST_21 + " 9p", "S"), "W win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("W", 10, 24, "last_discard_win:10", limit=True)],
            "payments": payments(
                ("S", "W", 24, "win"),
                ("E", "W", 12, "win"),
                ("E", "W", 2, "extra_fei"),
                ("E", "S", 3, "square_up"),
            ),
            "scores": {"E": -17, "S": -21, "W": 38},
            "next_dealer": "W",
        },
    },
    {
        "name": "kaki3_bonus_tile_with_no_replacement_ends_drawn",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": A bonus tile that needs '
            "a replacement when none can be had ends the deal, drawn. South's 22nd draw, the "
            "last drawable tile, is the face 4c; with 7 tiles left it cannot be replaced: drawn, "
            "nothing paid. South, the last to draw, deals next."
        ),
        "variant": K,
        "hands": {"E": END_EAST, "S": END_SOUTH, "W": END_WEST},
        "front": FIRST_21 + " 4c",
        "back": END_BACK,
        "actions": ["E discard 8p", *draw_and_throw(FIRST_21, "S")],
        "expect": {
            "outcome": "draw",
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_kong_refused_with_no_replacement",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": No kong and no sinking '
            "when no replacement can be had. In kaki3_drawn_deal_pays_nothing_more East holds "
            "four 7z from its deal replacements; having drawn the last drawable tile (the 21st, "
            "7 left) it tries to declare them: refused, exit 2 (action 22: 0 the 9p kong, 1 "
            "East's discard, 2-21 the first 20 draws thrown)."
        ),
        "variant": K,
        "hands": {"E": "9999p 1z 2z 3z 8p 1f 2f 1n 2n 1a 1c", "S": END_SOUTH, "W": END_WEST},
        "front": FIRST_21,
        "back": END_BACK + " 4z",
        "actions": [
            "E concealed_kong 9p",
            "E discard 3z",
            *draw_and_throw(FIRST_21, "S")[:20],
            "E concealed_kong 7z",
        ],
        "expect_error": "action 22: no kong",
    },
    {
        "name": "kaki3_timeout_next_dealer_is_last_to_draw",
        "comment": (
            'docs/rules.md, "3 Kaki: the next dealer": After a drawn deal (wall or time limit), '
            "the last player who drew. The room's timeout ends the deal when South has drawn "
            "(nobody could claim East's 1z) and not yet thrown: outcome timeout, nothing "
            "settled, South deals next."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 5z 1a 2a 3a", "W": WEST},
        "front": "4z",
        "back": "5z 5z 7z",
        "actions": ["E discard 1z", "T timeout"],
        "expect": {
            "outcome": "timeout",
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_square_up_counts_shown_fei_pong_not_concealed_pong",
        "comment": (
            'docs/rules.md, "3 Kaki: payments": the square-up counts the fan of their scoring '
            "honour sets on the table (exposed sets and concealed kongs) and twice their Fei. "
            "West pongs East's 6z with 6z + Fei (a dragon set on the table: 1) and keeps a "
            "concealed 111z in hand (not on the table: 0); its Fei counts 2: total 3. East: 0. "
            "East pays West 3. South wins on West's 7z (5 fan = 8): West 8, East 4; South holds "
            "no Fei. Nets: S +12, W -8+3 = -5, E -4-3 = -7."
        ),
        "variant": K,
        "hands": {
            "E": EAST,
            "S": "123p 456p 789p 5z 1a 2a 3a",
            "W": "6z j 111z 55p 66p 77p 8p 7z",
        },
        "front": "",
        "back": "5z 5z 7z",
        "actions": ["E discard 6z", "W pong 6z j =6z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, "dragon_set:1 half_flush:1 animal:1 animal:1 animal:1")],
            "payments": payments(
                ("W", "S", 8, "win"), ("E", "S", 4, "win"), ("E", "W", 3, "square_up")
            ),
            "scores": {"E": -7, "S": 12, "W": -5},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_four_fei_limit_and_extra_fei",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands" and docs/rules.md, "3 Kaki: payments": '
            '"Four Fei" counts every Fei the winner holds (a limit, 24) and extra Fei. South '
            "holds all four Fei and wins on West's 7z: 123p 456p 78p-Fei 5z-Fei-Fei 7z-Fei. West "
            "24, East 12; each loser holds 0 Fei: 4 extra_fei each. Nets: S +44, W -28, E -16."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 78p jjjj 1a", "W": WEST},
        "front": "4z 3z",
        "back": "5z",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "four_fei:10", limit=True)],
            "payments": payments(
                ("W", "S", 24, "win"),
                ("E", "S", 12, "win"),
                ("W", "S", 4, "extra_fei"),
                ("E", "S", 4, "extra_fei"),
            ),
            "scores": {"E": -16, "S": 44, "W": -28},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_kong_replacement_win",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", kongs: concealed, 2 from each other player; '
            'docs/scoring.md, "3 Kaki patterns": Kong Replacement Win 1. South draws 5z, '
            "declares 2222z (2 from East and West) and its replacement 9p completes 123p 456p "
            "789p 55z: seat wind set 1 + half flush 1 + kong replacement win 1 + animals 2 = 5 "
            "fan = 8, self-drawn: 8 from each. Nets: S +4 +16 = +20, E -10, W -10."
        ),
        "variant": K,
        "hands": {"E": EAST_NO_2Z, "S": "2222z 123p 456p 8p 1a 2a", "W": WEST_NO_2Z},
        "front": "5z",
        "back": "7p 5z 9p",
        "actions": ["E discard 1z", "S concealed_kong 2z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    5,
                    8,
                    "seat_wind_set:1 half_flush:1 kong_replacement_win:1 animal:1 animal:1",
                )
            ],
            "payments": payments(
                ("E", "S", 2, "kong"),
                ("W", "S", 2, "kong"),
                ("E", "S", 8, "win"),
                ("W", "S", 8, "win"),
            ),
            "scores": {"E": -10, "S": 20, "W": -10},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_heavenly_hand_after_deal_replacement",
        "comment": (
            'docs/scoring.md, "3 Kaki patterns": Heavenly Hand, Limit: the Dealer wins on the '
            'dealt tiles.; docs/rules.md, "3 Kaki: the tiles, the deal and the wall" and '
            'docs/rules.md, "3 Kaki: payments": bonus tiles are replaced in the deal, any limit '
            "hand is 10, limit: 24. East's dealt 1a is laid out and replaced (7z) in the deal, "
            "as every bonus tile is; East then holds 123p 456p 789p 555z 77z and wins before any "
            "discard. The deal's replacement is part of the dealt hand, not a bonus-replacement "
            "win: heavenly hand, limit, 24 from each. Nets: E +48, S -24, W -24."
        ),
        "variant": K,
        "hands": {
            "E": "123p 456p 789p 555z 7z 1a",
            "S": "11p 22p 33p 44p 1z 1z 2z 4z 4z",
            "W": WEST,
        },
        "front": "",
        "back": "7z",
        "actions": ["E win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("E", 10, 24, "heavenly_hand:10", limit=True)],
            "payments": payments(("S", "E", 24, "win"), ("W", "E", 24, "win")),
            "scores": {"E": 48, "S": -24, "W": -24},
            "next_dealer": "E",
        },
    },
    {
        "name": "kaki3_earthly_hand",
        "comment": (
            'docs/scoring.md, "3 Kaki patterns": Earthly Hand, Limit: winning on the Dealer\'s '
            'first discard; docs/rules.md, "3 Kaki: fan and limit hands" and docs/rules.md, "3 '
            "Kaki: payments\": limit: 24 and the discard split. East's very first discard, 7z, "
            "completes South's hand: limit, 24 from East (shooter), 12 from West. Nets: S +36, E "
            "-24, W -12."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 6z 7z",
            "S": "123p 456p 789p 5z 1a 2a 3a",
            "W": WEST,
        },
        "front": "",
        "back": "5z 5z 7z",
        "actions": ["E discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "earthly_hand:10", limit=True)],
            "payments": payments(("E", "S", 24, "win"), ("W", "S", 12, "win")),
            "scores": {"E": -24, "S": 36, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_sunk_fei_is_a_bonus_tile_for_no_bonus_tiles",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": "No Bonus Tiles" is a limit hand ... '
            "A Fei held in the hand or in a shown set is not a bonus tile; a sunk Fei is. South "
            "is dealt no bonus tile, sinks its Fei and wins on the replacement 4z: 123p 456p "
            "555z 666z 44z = dragon sets 2 + half flush 1 + Fei set aside 1 + bonus replacement "
            "win 1 = 5 fan = 8, not the limit. Self-drawn: 8 from each, and 1 each for the sunk "
            "Fei. Nets: S +18, E -9, W -9."
        ),
        "variant": K,
        "hands": {"E": "11p 22p 33p 44p 1z 2z 3z 4z 77z", "S": "123p 456p 555z 666z j", "W": WEST},
        "front": "4z",
        "back": "4z",
        "actions": ["E discard 1z", "S sink", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    5,
                    8,
                    "dragon_set:1 dragon_set:1 half_flush:1 fei_set_aside:1 bonus_replacement_win:1",
                )
            ],
            "payments": payments(
                ("E", "S", 8, "win"),
                ("W", "S", 8, "win"),
                ("E", "S", 1, "extra_fei"),
                ("W", "S", 1, "extra_fei"),
            ),
            "scores": {"E": -9, "S": 18, "W": -9},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_extra_fei_two_against_one",
        "comment": (
            'docs/rules.md, "3 Kaki: payments", extra Fei: each loser pays the winner 1 point '
            "for each Fei the winner holds beyond the loser's own count. South wins on West's 7z "
            "holding two Fei (78p-Fei, 7z-Fei eye): dragon set 1 + half flush 1 + animals 3 = 5 "
            "fan = 8; West 8, East 4. East holds one Fei: pays 2 - 1 = 1; West none: pays 2. "
            "Square-up: East's Fei counts 2, West 0: West pays East 2. Nets: S +15, E -4-1+2 = "
            "-3, W -8-2-2 = -12."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 6z j",
            "S": "123p 456p 78p jj 1a 2a 3a",
            "W": WEST,
        },
        "front": "4z 3z",
        "back": "5z 5z 5z",
        "actions": BASE_ACTIONS,
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, "dragon_set:1 half_flush:1 animal:1 animal:1 animal:1")],
            "payments": payments(
                ("W", "S", 8, "win"),
                ("E", "S", 4, "win"),
                ("E", "S", 1, "extra_fei"),
                ("W", "S", 2, "extra_fei"),
                ("W", "E", 2, "square_up"),
            ),
            "scores": {"E": -3, "S": 15, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_all_chow_full_flush",
        "comment": (
            'docs/scoring.md, "3 Kaki patterns" and docs/rules.md, "3 Kaki: fan and limit '
            'hands": All Chow needs four chows and an eye of Tong (1), full flush (3). South '
            "wins on West's 5p with 123p 234p 567p 789p 55p and one animal: 3 + 1 + 1 = 5 fan = "
            "8. West 8, East 4. Nets: S +12, W -8, E -4."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 234p 567p 789p 1a", "W": "55p 66p 77p 88p 99p 2z 3z 7z"},
        "front": "4z 3z",
        "back": "5p",
        "actions": ["E discard 1z", "S discard 4z", "W discard 5p", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, "full_flush:3 all_chow:1 animal:1")],
            "payments": payments(("W", "S", 8, "win"), ("E", "S", 4, "win")),
            "scores": {"E": -4, "S": 12, "W": -8},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_kang_kang_hu_on_a_discard_pong",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": Kang Kang Hu (four concealed pongs): '
            "four pongs ... made in the hand, with the winning tile completing one of the pongs, "
            "never the eye. A pong completed by the winning discard still counts. South holds "
            "333p 888p 555z 77z 44z and wins on West's 7z, completing 777z: limit, 24. West 24, "
            "East 12. Nets: S +36, W -24, E -12."
        ),
        "variant": K,
        "hands": {
            "E": KKH_EAST,
            "S": "333p 888p 55z 77z 44z 1a",
            "W": "66p 77p 99p 1p 2p 2z 3z 7z 6p 4p",
        },
        "front": "9p 3z",
        "back": "5z",
        "actions": ["E discard 1z", "S discard 9p", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 10, 24, "four_concealed_pongs:10", limit=True)],
            "payments": payments(("W", "S", 24, "win"), ("E", "S", 12, "win")),
            "scores": {"E": -12, "S": 36, "W": -24},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_four_pongs_won_on_the_eye_is_not_kang_kang_hu",
        "comment": (
            'docs/rules.md, "3 Kaki: fan and limit hands": Kang Kang Hu needs the winning tile '
            "completing one of the pongs, never the eye. South holds 333p 888p 555z 777z 4z and "
            "wins on West's 4z, the eye: no limit. All pong 2 + dragon sets 2 + half flush 1 + "
            "animal 1 = 6 fan = 10. West 10, East 5. Nets: S +15, W -10, E -5."
        ),
        "variant": K,
        "hands": {
            "E": KKH_EAST,
            "S": "333p 888p 55z 777z 4z 1a",
            "W": "66p 77p 99p 1p 2p 2z 3z 4z 6p 4p",
        },
        "front": "9p 3z",
        "back": "5z",
        "actions": ["E discard 1z", "S discard 9p", "W discard 4z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("S", 6, 10, "all_pong:2 dragon_set:1 dragon_set:1 half_flush:1 animal:1")
            ],
            "payments": payments(("W", "S", 10, "win"), ("E", "S", 5, "win")),
            "scores": {"E": -5, "S": 15, "W": -10},
            "next_dealer": "S",
        },
    },
]
