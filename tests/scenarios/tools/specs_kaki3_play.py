"""3 Kaki play scenarios: claims with Fei, the swap, sinking, the same-turn restriction, the
7-tile end, bonus tiles, one winner per discard and the next dealer (docs/rules.md, the 3 Kaki sections).

"Refused" scenarios expect exit 2 and a fragment of the one-line error: the action's index
(counting from 0) and the words of the reason.
"""

from __future__ import annotations

from tests.scenarios.tools.author import payments, winner
from tests.scenarios.tools.specs_kaki3_settlement import (
    EAST,
    SOUTH,
    SOUTH_BACK,
    SOUTH_FIVE_FAN,
    WEST,
)

K = "kaki3"

# A frame for claims on East's first discard, 5p: South holds 5p and a Fei, West 55p.
CLAIM_EAST = "5p 11p 22p 33p 44p 1z 2z 3z 6z 4z"
CLAIM_SOUTH = "5p j 123p 789p 1z 2z 3z 77z"
CLAIM_WEST = "55p 66p 77p 88p 99p 2z 3z 4z"

# The 7-tile end: every bonus tile and Fei starts in a hand, so the wall holds only Tong and
# honours and nobody ever draws a bonus tile. 15 bonus tiles are dealt (4c stays in the
# wall, never drawn) and replaced from the back: 44 - 15 = 29 tiles, of which 29 - 7 = 22
# can be drawn. South draws 1st, 4th, ... 22nd; West then has to draw with 7 left.
END_EAST = "999p 1z 2z 3z 4z 8p 1f 2f 1n 2n 1a 1c"
END_SOUTH = "11p 22p 33p jj 3f 3n 2a 3a 2c"
END_WEST = "44p 55p 66p 7p jj 4f 4n 4a 3c"
END_FRONT = "1p 2p 3p 4p 5p 6p 7p 8p 1p 2p 3p 4p 5p 6p 7p 5z 5z 5z 5z 6z 6z 6z"
END_BACK = "7z 7z 7z 7z 6z 4z 4z 3z 3z 2z 2z 1z 1z 8p 8p"


def draw_and_throw(front: str, first_seat: str) -> list[str]:
    """Each seat in turn draws the next front tile and throws it straight back."""
    from server.engine.tiles import parse_tiles

    order = ["E", "S", "W"]
    start = order.index(first_seat)
    return [f"{order[(start + k) % 3]} discard {tile}" for k, tile in enumerate(parse_tiles(front))]


SPECS = [
    {
        "name": "kaki3_pong_with_two_fei_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: a pong from a discard may use one '
            "Fei and one real copy ... A shown set never holds more than one Fei. South holds a "
            "real 1z and two Fei; it may pong East's 1z with 1z + Fei, but tries two Fei: "
            "refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "1z jj 123p 456p 789p 5z", "W": WEST},
        "front": "",
        "back": "",
        "actions": ["E discard 1z", "S pong jj =1z"],
        "expect_error": "action 1: S cannot pong with j j",
    },
    {
        "name": "kaki3_chow_with_two_fei_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: A chow from a discard may use one '
            "Fei. South tries to chow East's 2p with two Fei: refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "jj 123p 456p 789p 5z 7z", "W": WEST},
        "front": "",
        "back": "",
        "actions": ["E discard 2p", "S chow jj =3p"],
        "expect_error": "action 1: S cannot chow with j j",
    },
    {
        "name": "kaki3_chow_with_one_fei_then_win",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: A chow from a discard may use one '
            "Fei. South chows East's 2p with 1p + Fei (as 3p), throws 4z, and wins on West's 7z: "
            "1-2-j(3p) 456p 789p 555z 77z = dragon set 1 + half flush 1 + animals 3 = 5 fan = 8. "
            "West 8, East 4; South holds 1 Fei (in the shown chow), East and West none: 1 each. "
            "Nets: S +14, W -9, E -5."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "1p j 456p 789p 4z 5z 1a 2a 3a", "W": WEST},
        "front": "3z",
        "back": SOUTH_BACK,
        "actions": ["E discard 2p", "S chow 1p j =3p", "S discard 4z", "W discard 7z", "S win"],
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
        "name": "kaki3_kong_claim_with_fei_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: A kong claim needs three real '
            "tiles. (and a kong never holds a Fei). South tries to kong East's 4p with 44p + "
            "Fei: refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "44p j 123p 567p 9p 5z 7z 3z", "W": WEST},
        "front": "",
        "back": "",
        "actions": ["E discard 4p", "S kong 44p j"],
        "expect_error": "action 1: S cannot kong with 44p j",
    },
    {
        "name": "kaki3_real_pong_beats_fei_pong",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: When two players pong the same '
            "discard, the one using two real tiles gets it. East throws 5p; South (nearer) pongs "
            "with 5p + Fei, West with 55p. West gets the tile, so West's discard is legal next; "
            "East then draws. Nothing is paid: outcome null, East to play."
        ),
        "variant": K,
        "hands": {"E": CLAIM_EAST, "S": CLAIM_SOUTH, "W": CLAIM_WEST},
        "front": "9p",
        "back": "",
        "actions": ["E discard 5p", "S pong 5p j =5p", "W pong 55p", "W discard 2z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "pending": ["E"],
        },
    },
    {
        "name": "kaki3_fei_pong_loses_so_south_cannot_discard",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei", claiming with Fei: two real tiles beat a Fei pong on '
            "the same discard. As in kaki3_real_pong_beats_fei_pong, but South then tries to "
            "discard as if its Fei pong had won: it is West's turn, so action 3 is refused, exit "
            "2."
        ),
        "variant": K,
        "hands": {"E": CLAIM_EAST, "S": CLAIM_SOUTH, "W": CLAIM_WEST},
        "front": "",
        "back": "",
        "actions": ["E discard 5p", "S pong 5p j =5p", "W pong 55p", "S discard 1z"],
        "expect_error": "action 3:",
    },
    {
        "name": "kaki3_pong_beats_chow",
        "comment": (
            'docs/rules.md, "Both tables": Priority: win, then kong or pong, then chow. East '
            "throws 6p; South (next) chows with 45p, West pongs with 66p. West gets it and "
            "discards; East draws next. Outcome null."
        ),
        "variant": K,
        "hands": {
            "E": "6p 11p 22p 33p 44p 1z 2z 3z 4z 6z",
            "S": "45p 123p 789p 55z 77z 1z",
            "W": "66p 77p 88p 99p 2z 3z 4z 6z 5p",
        },
        "front": "9p",
        "back": "",
        "actions": ["E discard 6p", "S chow 45p", "W pong 66p", "W discard 2z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "pending": ["E"],
        },
    },
    {
        "name": "kaki3_chow_only_from_the_player_before",
        "comment": (
            'docs/rules.md, "Both tables": Chow only by the next player. West throws 3p; South '
            "(before West, not after) tries to chow it with 12p: refused, exit 2 (the issue's "
            "example S cannot chow from W)."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": SOUTH, "W": "55p 66p 77p 88p 99p 2z 3z 3p"},
        "front": "4z 3z",
        "back": SOUTH_BACK,
        "actions": ["E discard 1z", "S discard 4z", "W discard 3p", "S chow 12p"],
        "expect_error": "action 3: S cannot chow from W",
    },
    {
        "name": "kaki3_swap_then_added_kong",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei": On your turn you may swap that real tile from your '
            "hand into the set and take the Fei back and A pong holding a Fei cannot become a "
            "kong until its Fei is swapped out. South pongs 5p with 5p + Fei, later draws a 5p "
            "and swaps it in (the pong is now 555p), then draws the fourth 5p and adds it: an "
            "added kong, 1 from East and 1 from West. S +2, E -1, W -1."
        ),
        "variant": K,
        "hands": {"E": CLAIM_EAST, "S": CLAIM_SOUTH, "W": "66p 77p 88p 99p 2z 3z 4z 6z 7z"},
        "front": "6z 6z 5p 4p 4p 5p 1z",
        "back": "9p",
        "actions": [
            "E discard 5p",
            "S pong 5p j =5p",
            "S discard 1z",
            "W discard 6z",
            "E discard 6z",
            "S swap 5p",
            "S discard 2z",
            "W discard 4p",
            "E discard 4p",
            "S added_kong 5p",
            "S discard 3z",
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
        "name": "kaki3_kong_refused_until_fei_swapped_out",
        "comment": (
            'docs/rules.md, "3 Kaki: Fei": A pong holding a Fei cannot become a kong until its '
            "Fei is swapped out. As in kaki3_swap_then_added_kong, but South tries to add the "
            "drawn 5p to its 5p-5p-Fei pong without swapping first: refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": CLAIM_EAST, "S": CLAIM_SOUTH, "W": "66p 77p 88p 99p 2z 3z 4z 6z 7z"},
        "front": "6z 6z 5p",
        "back": "",
        "actions": [
            "E discard 5p",
            "S pong 5p j =5p",
            "S discard 1z",
            "W discard 6z",
            "E discard 6z",
            "S added_kong 5p",
        ],
        "expect_error": "action 5:",
    },
    {
        "name": "kaki3_sink_then_win_on_the_replacement",
        "comment": (
            'docs/rules.md, "3 Kaki: in play", sinking: the sunk Fei joins your bonus tiles (1 '
            "fan each ...). You draw a replacement from the back ... A win on that tile is a "
            "bonus replacement win. South draws 7z (a win with Fei + 7z as the eye is only 3 "
            "fan, short of 5), sinks the Fei and draws 7z from the back: dragon set 1 + half "
            "flush 1 + animal 1 + Fei set aside 1 + bonus replacement win 1 = 5 fan = 8, "
            "self-drawn: 8 from each. Extra Fei: the sunk Fei counts, 1 from each. Nets: S +18, "
            "E -9, W -9."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "123p 456p 789p 55z j 1a", "W": WEST},
        "front": "7z",
        "back": "5z 7z",
        "actions": ["E discard 1z", "S sink", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    5,
                    8,
                    "dragon_set:1 half_flush:1 animal:1 fei_set_aside:1 bonus_replacement_win:1",
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
        "name": "kaki3_chow_then_same_set_discard_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: in play": After a chow or pong, you may not throw a tile of '
            "that set in the same turn ... a chow of 4-5-6 made on the 6 forbids discarding 4, 5 "
            "or 6. South chows East's 6p with 45p, then tries to throw its other 4p: refused, "
            "exit 2."
        ),
        "variant": K,
        "hands": {
            "E": "6p 11p 22p 33p 4p 1z 2z 3z 4z 6z 7z",
            "S": "45p 4p 123p 789p 55z 77z",
            "W": WEST,
        },
        "front": "",
        "back": "",
        "actions": ["E discard 6p", "S chow 45p", "S discard 4p"],
        "expect_error": "action 2:",
    },
    {
        "name": "kaki3_chow_then_other_tile_discard_allowed",
        "comment": (
            'docs/rules.md, "3 Kaki: in play": the same-turn restriction covers only the kinds '
            "in the set. South chows East's 6p with 45p and throws 1p (not in the chow); West "
            "draws next. Outcome null, nothing paid."
        ),
        "variant": K,
        "hands": {
            "E": "6p 11p 22p 33p 4p 1z 2z 3z 4z 6z 7z",
            "S": "45p 4p 123p 789p 55z 77z",
            "W": WEST,
        },
        "front": "9p",
        "back": "",
        "actions": ["E discard 6p", "S chow 45p", "S discard 1p"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "pending": ["W"],
        },
    },
    {
        "name": "kaki3_pong_then_fourth_copy_discard_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: in play": After a chow or pong, you may not throw a tile of '
            "that set in the same turn: not the kinds in it. South pongs East's 2z with two of "
            "its three 2z, then tries to throw the third: refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": "222z 123p 456p 789p 5z", "W": "55p 66p 77p 88p 99p 3z 7z 7z"},
        "front": "",
        "back": "",
        "actions": ["E discard 2z", "S pong 22z", "S discard 2z"],
        "expect_error": "action 2:",
    },
    {
        "name": "kaki3_fei_pong_then_sink_refused",
        "comment": (
            'docs/rules.md, "3 Kaki: in play": after a pong you may not throw a tile of that set '
            "in the same turn: ... not a Fei if the set holds one. South pongs East's 5p with 5p "
            "+ Fei and at once tries to throw (sink) its second Fei: refused, exit 2."
        ),
        "variant": K,
        "hands": {"E": CLAIM_EAST, "S": "5p jj 123p 789p 1z 2z 3z 7z", "W": CLAIM_WEST},
        "front": "",
        "back": "",
        "actions": ["E discard 5p", "S pong 5p j =5p", "S sink"],
        "expect_error": "action 2:",
    },
    {
        "name": "kaki3_seven_tile_end_drawn",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": The last 7 tiles are '
            "never drawn ... A player who must draw with 7 left ends the deal, drawn. and "
            'docs/rules.md, "3 Kaki: the next dealer": After a drawn deal (wall or time limit), '
            "the last player who drew. 15 dealt bonus tiles are replaced from the back (44 - 15 "
            "= 29 left); East throws, then 22 draws bring the wall to 7. The 22nd is South's; "
            "West must draw with 7 left: drawn. No win, so nothing is settled. South deals next."
        ),
        "variant": K,
        "hands": {"E": END_EAST, "S": END_SOUTH, "W": END_WEST},
        "front": END_FRONT,
        "back": END_BACK,
        "actions": ["E discard 8p", *draw_and_throw(END_FRONT, "S")],
        "expect": {
            "outcome": "draw",
            "winners": [],
            "payments": [],
            "scores": {"E": 0, "S": 0, "W": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_sink_refused_with_no_replacement",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": No kong and no sinking '
            "when no replacement can be had. As in kaki3_seven_tile_end_drawn, but South, having "
            "drawn the last drawable tile (7 left), tries to sink one of its Fei: refused, exit "
            "2. Action 22 is that sink (action 0 is East's discard, 1-21 the first 21 draws "
            "thrown)."
        ),
        "variant": K,
        "hands": {"E": END_EAST, "S": END_SOUTH, "W": END_WEST},
        "front": END_FRONT,
        "back": END_BACK,
        "actions": ["E discard 8p", *draw_and_throw(END_FRONT, "S")[:21], "S sink"],
        "expect_error": "action 22:",
    },
    {
        "name": "kaki3_drawn_deal_pays_nothing_more",
        "comment": (
            'docs/rules.md, "3 Kaki: payments" and docs/rules.md, "Both tables": A drawn deal '
            "settles nothing more. and Kong payments ... stand even when the deal is later "
            "drawn. East declares a concealed kong of 9p at once (2 from South and West) and "
            "takes 8p from the back. With 15 + 1 tiles taken from the back, 44 - 16 - 7 = 21 can "
            "be drawn; the 21st is East's, South must draw with 7 left: drawn. Only the kong is "
            "paid: E +4, S -2, W -2. East, the last to draw, deals next."
        ),
        "variant": K,
        "hands": {"E": "9999p 1z 2z 3z 8p 1f 2f 1n 2n 1a 1c", "S": END_SOUTH, "W": END_WEST},
        "front": END_FRONT[: -len(" 6z")],
        "back": END_BACK + " 4z",
        "actions": [
            "E concealed_kong 9p",
            "E discard 3z",
            *draw_and_throw(END_FRONT[: -len(" 6z")], "S"),
        ],
        "expect": {
            "outcome": "draw",
            "winners": [],
            "payments": payments(("S", "E", 2, "kong"), ("W", "E", 2, "kong")),
            "scores": {"E": 4, "S": -2, "W": -2},
            "next_dealer": "E",
        },
    },
    {
        "name": "kaki3_bonus_tiles_replaced_in_turn_in_the_deal",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": In the deal, East '
            "replaces first, then South, then West, and again until no hand holds a bonus tile. "
            "East holds 1f and gets 1n (a bonus tile again) from the back; South's three bonus "
            "tiles take the next three (5z 5z 5z); only then does East replace 1n (4z). South "
            "wins on West's 7z with 555z: dragon set 1 + half flush 1 + 2a + 3a + 1c = 5 fan = "
            "8: West 8, East 4. Square-up: East's 1f and 1n are its own flower and season (2), "
            "West 0: West pays East 2. Nets: S +12, E -2, W -10."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 66z 1f",
            "S": "123p 456p 789p 7z 2a 3a 1c",
            "W": WEST,
        },
        "front": "4z 3z",
        "back": "1n 5z 5z 5z 4z",
        "actions": ["E discard 1z", "S discard 4z", "W discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("S", 5, 8, "dragon_set:1 half_flush:1 animal:1 animal:1 face_tile:1")
            ],
            "payments": payments(
                ("W", "S", 8, "win"), ("E", "S", 4, "win"), ("W", "E", 2, "square_up")
            ),
            "scores": {"E": -2, "S": 12, "W": -10},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_bonus_tile_drawn_then_win_on_replacement",
        "comment": (
            'docs/rules.md, "3 Kaki: the tiles, the deal and the wall": a bonus tile is laid '
            "face up and replaced from the back of the wall, in the deal and after it; "
            'docs/scoring.md, "3 Kaki patterns": Bonus Replacement Win 1. South draws 4n (flower '
            "4 and season 4 count for everyone), takes 7z from the back and wins: dragon set 1 + "
            "half flush 1 + animals 3 + season 4 1 + bonus replacement win 1 = 7 fan = 12, "
            "self-drawn: 12 from each. Nets: S +24, E -12, W -12."
        ),
        "variant": K,
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4n",
        "back": SOUTH_BACK + " 7z",
        "actions": ["E discard 1z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner(
                    "S",
                    7,
                    12,
                    SOUTH_FIVE_FAN + " season_4:1 bonus_replacement_win:1",
                )
            ],
            "payments": payments(("E", "S", 12, "win"), ("W", "S", 12, "win")),
            "scores": {"E": -12, "S": 24, "W": -12},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_one_winner_per_discard",
        "comment": (
            'docs/rules.md, "3 Kaki: in play": One winner per discard: when several can win, the '
            "nearest after the discarder wins. East's second discard, 7z, completes both South's "
            "hand (5 fan, 8) and West's (666z, 3 faces: dragon set 1 + half flush 1 + faces 3 = "
            "5 fan). West declares first, but South is nearer after East: South alone wins. East "
            "pays 8, West (a loser now) 4. Square-up: West's three faces count 3, East 0: East "
            "pays West 3. Nets: S +12, E -11, W -1."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 7z 9p",
            "S": SOUTH,
            "W": "234p 567p 888p 7z 1c 2c 3c",
        },
        "front": "9p 9p 4z",
        "back": SOUTH_BACK + " 6z 6z 6z",
        "actions": [
            "E discard 1z",
            "S discard 9p",
            "W discard 9p",
            "E discard 7z",
            "W win",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 8, SOUTH_FIVE_FAN)],
            "payments": payments(
                ("E", "S", 8, "win"), ("W", "S", 4, "win"), ("E", "W", 3, "square_up")
            ),
            "scores": {"E": -11, "S": 12, "W": -1},
            "next_dealer": "S",
        },
    },
    {
        "name": "kaki3_next_dealer_is_the_winner_west",
        "comment": (
            'docs/rules.md, "3 Kaki: the next dealer": the winner. West wins on South\'s 7z with '
            "234p 567p 888p 666z 77z and three faces: dragon set 1 + half flush 1 + faces 3 = 5 "
            "fan = 8. South (shooter) pays 8, East 4. West deals next. Nets: W +12, S -8, E -4."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 9p 9p",
            "S": "123p 456p 99p 55z 6z 7z 2z",
            "W": "234p 567p 888p 7z 1c 2c 3c",
        },
        "front": "4z",
        "back": "6z 6z 6z",
        "actions": ["E discard 1z", "S discard 7z", "W win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("W", 5, 8, "dragon_set:1 half_flush:1 face_tile:1 face_tile:1 face_tile:1")
            ],
            "payments": payments(("S", "W", 8, "win"), ("E", "W", 4, "win")),
            "scores": {"E": -4, "S": -8, "W": 12},
            "next_dealer": "W",
        },
    },
    {
        "name": "kaki3_win_beats_a_nearer_pong",
        "comment": (
            'docs/rules.md, "Both tables": Priority: win, then kong or pong, then chow. East\'s '
            "second discard, 7z, is ponged by South (nearer) and won on by West: West wins (234p "
            "567p 888p 666z 77z, dragon set 1 + half flush 1 + faces 3 = 5 fan = 8). East pays "
            "8, South 4; the losers hold nothing that squares up. Nets: W +12, E -8, S -4."
        ),
        "variant": K,
        "hands": {
            "E": "11p 22p 33p 44p 1z 2z 3z 4z 7z 9p",
            "S": "123p 456p 789p 77z 5z 3z",
            "W": "234p 567p 888p 7z 1c 2c 3c",
        },
        "front": "9p 9p 4z",
        "back": "6z 6z 6z",
        "actions": [
            "E discard 1z",
            "S discard 9p",
            "W discard 9p",
            "E discard 7z",
            "S pong 77z",
            "W win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("W", 5, 8, "dragon_set:1 half_flush:1 face_tile:1 face_tile:1 face_tile:1")
            ],
            "payments": payments(("E", "W", 8, "win"), ("S", "W", 4, "win")),
            "scores": {"E": -8, "S": -4, "W": 12},
            "next_dealer": "W",
        },
    },
]
