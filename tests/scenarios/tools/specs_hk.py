"""Hong Kong scenarios (docs/rules.md, "Hong Kong three fan"), and a few refusals common to both tables.

Win payment by capped fan: 3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64. On a discard win the
discarder pays; on a self-draw each of the three others pays. Fan used here: half flush 3,
full flush 6, all pungs 3, each dragon pung 1, seat-wind pung 1, round-wind pung 1, self-draw 1.
"""

from __future__ import annotations

from tests.scenarios.tools.author import payments, winner
from tests.scenarios.tools.specs_kaki3_settlement import BASE_ACTIONS, EAST, SOUTH, SOUTH_BACK, WEST

HK = "hk"
SEATS = ["E", "S", "W", "N"]
ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}

# Two hands waiting on 7z: South (m half flush + 222z, its seat wind) and North (p half flush +
# 444z, its seat wind): 3 + 1 = 4 fan each = 16 points.
TWO_WAITS = {
    "E": "7z 11m 22m 33m 44s 55p 66p 3z",
    "S": "123m 456m 789m 222z 7z",
    "W": "11s 22s 33s 55s 66s 88s 9s",
    "N": "123p 456p 789p 444z 7z",
}
# West waits on 7z with a p half flush and 333z (its seat wind); South throws 7z at once.
WEST_WAITS = {
    "E": "11m 22m 33m 44m 55m 66m 9p 1z",
    "S": "7z 11s 22s 33s 44s 55s 66s",
    "W": "123p 456p 789p 333z 7z",
    "N": "77s 88s 99s 1s 2p 3p 4m 5m 6m 2z",
}
QUIET_W = "11s 22s 33s 44s 55s 66s 7s"
QUIET_N = "77s 88s 99s 8m 9m 3z 4z 6z 6z 7z"


def draw_and_throw_whole_wall(wall: list[str], skip_back: int) -> list[str]:
    """After East's first discard, each seat in turn draws the next front tile and throws it,
    until the live wall (all but the `skip_back` tiles taken from the back) is used up."""
    live = wall[: len(wall) - skip_back]
    return [f"{SEATS[(1 + k) % 4]} discard {tile}" for k, tile in enumerate(live)]


SPECS = [
    {
        "name": "hk_two_winners_on_one_discard",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Multiple discard wins are allowed. Every '
            "player who declares a win on the discard wins, and the discarder pays each one. "
            "East's second discard, 7z, completes South's 123m 456m 789m 222z 77z and North's "
            "123p 456p 789p 444z 77z: each half flush 3 + seat wind 1 = 4 fan = 16. East pays 16 "
            "to each: E -32. The next dealer: the dealer did not win, so South."
        ),
        "variant": HK,
        "hands": TWO_WAITS,
        "front": "9s 9s 9s 1z",
        "back": "",
        "actions": [
            "E discard 3z",
            "S discard 9s",
            "W discard 9s",
            "N discard 9s",
            "E discard 7z",
            "S win",
            "N win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("S", 4, 16, "half_flush:3 seat_wind_set:1"),
                winner("N", 4, 16, "half_flush:3 seat_wind_set:1"),
            ],
            "payments": payments(("E", "S", 16, "win"), ("E", "N", 16, "win")),
            "scores": {"E": -32, "S": 16, "W": 0, "N": 16},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_dealer_among_two_winners_keeps_the_deal",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": The dealer keeps the deal after a dealer win '
            "(also as one of several winners). South throws 7z; East wins (123m 456m 789m 111z "
            "77z: half flush 3 + seat wind 1 + round wind 1 = 5 fan = 24) and West wins (123p "
            "456p 789p 333z 77z: half flush 3 + seat wind 1 = 4 fan = 16). South pays both: S "
            "-40. East deals again."
        ),
        "variant": HK,
        "hands": {
            "E": "123m 456m 789m 111z 7z 9p",
            "S": "7z 11s 22s 33s 44s 55s 66s",
            "W": "123p 456p 789p 333z 7z",
            "N": "77s 88s 99s 1s 2p 3p 4m 5m 6m 2z",
        },
        "front": "2z",
        "back": "",
        "actions": ["E discard 9p", "S discard 7z", "E win", "W win"],
        "expect": {
            "outcome": "win",
            "winners": [
                winner("E", 5, 24, "half_flush:3 seat_wind_set:1 round_wind_set:1"),
                winner("W", 4, 16, "half_flush:3 seat_wind_set:1"),
            ],
            "payments": payments(("S", "E", 24, "win"), ("S", "W", 16, "win")),
            "scores": {"E": 24, "S": -40, "W": 16, "N": 0},
            "next_dealer": "E",
        },
    },
    {
        "name": "hk_robbing_an_added_kong",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": An added kong can be robbed by any player who '
            "wins with that tile. A robbed kong is not made and pays nothing. North pongs East's "
            "3p, later draws the fourth 3p and adds it; South robs it: 123p 456p 789p 666z 77z = "
            "half flush 3 + dragon 1 = 4 fan = 16, paid by North as the discarder of the tile. "
            "No kong payment. N -16, S +16; the deal passes to South."
        ),
        "variant": HK,
        "hands": {
            "E": "3p 11m 22m 33m 44m 55m 9s 9s 1z",
            "S": "12p 456p 789p 666z 77z",
            "W": "11s 22s 44s 55s 77s 88s 6s",
            "N": "33p 1s 2s 4s 5s 7s 8s 2z 3z 4z 1z 1z",
        },
        "front": "6m 6m 6m 3p",
        "back": "",
        "actions": [
            "E discard 3p",
            "N pong 33p",
            "N discard 2z",
            "E discard 6m",
            "S discard 6m",
            "W discard 6m",
            "N added_kong 3p",
            "S win",
        ],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 4, 16, "half_flush:3 dragon_set:1")],
            "payments": payments(("N", "S", 16, "win")),
            "scores": {"E": 0, "S": 16, "W": 0, "N": -16},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_concealed_kong_pays_two_from_each",
        "comment": (
            'docs/rules.md, "Hong Kong three fan", kong payments: A concealed kong, 2 from each '
            "other player. East declares 9999s, takes 5z from the back and throws 1z: South, "
            "West and North pay 2 each, E +6. Outcome null: South is to play."
        ),
        "variant": HK,
        "hands": {
            "E": "9999s 123m 456m 1z 2z 3z 4z",
            "S": "11p 22p 33p 44p 55p 66p 7p",
            "W": QUIET_W,
            "N": "77m 88m 99m 66z 77z 8p 9p 5s",
        },
        "front": "8p",
        "back": "5z",
        "actions": ["E concealed_kong 9s", "E discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(
                ("S", "E", 2, "kong"), ("W", "E", 2, "kong"), ("N", "E", 2, "kong")
            ),
            "scores": {"E": 6, "S": -2, "W": -2, "N": -2},
            "pending": ["S"],
        },
    },
    {
        "name": "hk_added_kong_pays_one_from_each",
        "comment": (
            'docs/rules.md, "Hong Kong three fan", kong payments: An added kong, 1 from each '
            "other player. South pongs East's 5z, later draws the fourth 5z and adds it "
            "(replacement 3p, then throws 2z): East, West and North pay 1 each, S +3. Outcome "
            "null: West is to play."
        ),
        "variant": HK,
        "hands": {
            "E": "5z 11m 22m 33m 44m 55m 66m 7m",
            "S": "55z 123p 456p 789p 1z 2z",
            "W": QUIET_W,
            "N": QUIET_N,
        },
        "front": "9p 9p 9p 5z 8p",
        "back": "3p",
        "actions": [
            "E discard 5z",
            "S pong 55z",
            "S discard 1z",
            "W discard 9p",
            "N discard 9p",
            "E discard 9p",
            "S added_kong 5z",
            "S discard 2z",
        ],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(
                ("E", "S", 1, "kong"), ("W", "S", 1, "kong"), ("N", "S", 1, "kong")
            ),
            "scores": {"E": -1, "S": 3, "W": -1, "N": -1},
            "pending": ["W"],
        },
    },
    {
        "name": "hk_exposed_kong_paid_by_discarder",
        "comment": (
            'docs/rules.md, "Hong Kong three fan", kong payments: an exposed kong from a '
            "discard, 2 from the discarder. South kongs East's 8m with 888m, takes 3p from the "
            "back and throws 1z: East pays 2. Outcome null."
        ),
        "variant": HK,
        "hands": {
            "E": "8m 11m 22m 33m 44m 55m 66m 7m",
            "S": "888m 123p 456p 789p 1z",
            "W": QUIET_W,
            "N": "77s 88s 99s 1p 9m 3z 4z 6z 6z 7z",
        },
        "front": "8p",
        "back": "3p",
        "actions": ["E discard 8m", "S kong 888m", "S discard 1z"],
        "expect": {
            "outcome": None,
            "winners": [],
            "payments": payments(("E", "S", 2, "kong")),
            "scores": {"E": -2, "S": 2, "W": 0, "N": 0},
            "pending": ["W"],
        },
    },
    {
        "name": "hk_exhaustive_draw_dealer_keeps",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": All undealt tiles are live. A deal is drawn '
            "when a player must draw and the wall is empty. Kong payments ... stand even when "
            "the deal is later drawn. The dealer keeps the deal after ... a drawn deal. East "
            "declares 9999s (2 from each: E +6) and takes the last tile of the wall; the other "
            "82 are drawn and thrown in turn (South first), the 82nd by West; North must draw "
            "from an empty wall: drawn, nothing else paid. East deals again."
        ),
        "variant": HK,
        "hands": {
            "E": "9999s 123m 456m 1z 2z 3z 4z",
            "S": "11p 22p 33p 44p 55p 66p 7p",
            "W": QUIET_W,
            "N": "77m 88m 99m 66z 77z 8p 9p 5s",
        },
        "front": "",
        "back": "",
        "actions": lambda wall: [
            "E concealed_kong 9s",
            "E discard 1z",
            *draw_and_throw_whole_wall(wall, 1),
        ],
        "expect": {
            "outcome": "draw",
            "winners": [],
            "payments": payments(
                ("S", "E", 2, "kong"), ("W", "E", 2, "kong"), ("N", "E", 2, "kong")
            ),
            "scores": {"E": 6, "S": -2, "W": -2, "N": -2},
            "next_dealer": "E",
        },
    },
    {
        "name": "hk_self_draw_paid_by_each",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": On a self-draw, each other player pays the '
            "value. South draws its 7z: half flush 3 + seat wind 1 + self-draw 1 = 5 fan = 24, "
            "from each of East, West and North: S +72."
        ),
        "variant": HK,
        "hands": TWO_WAITS,
        "front": "7z",
        "back": "",
        "actions": ["E discard 3z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 24, "half_flush:3 seat_wind_set:1 self_draw:1")],
            "payments": payments(
                ("E", "S", 24, "win"), ("W", "S", 24, "win"), ("N", "S", 24, "win")
            ),
            "scores": {"E": -24, "S": 72, "W": -24, "N": -24},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_non_dealer_win_passes_the_deal",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Otherwise the deal passes to the next seat. '
            "West wins on South's 7z (123p 456p 789p 333z 77z: half flush 3 + seat wind 1 = 4 "
            "fan = 16, paid by South). The next dealer is South, the seat after the dealer, not "
            "the winner."
        ),
        "variant": HK,
        "hands": WEST_WAITS,
        "front": "2z",
        "back": "",
        "actions": ["E discard 9p", "S discard 7z", "W win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("W", 4, 16, "half_flush:3 seat_wind_set:1")],
            "payments": payments(("S", "W", 16, "win")),
            "scores": {"E": 0, "S": -16, "W": 16, "N": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_timeout_dealer_keeps",
        "comment": (
            'docs/rules.md, "Both tables": When the deal limit passes, the deal ends at once, '
            'drawn, with no winner. and "Hong Kong three fan": The dealer keeps the deal after '
            "... a timed-out deal. The room's timeout action ends the deal after East's and "
            "South's discards: outcome timeout, nothing paid, East deals again."
        ),
        "variant": HK,
        "hands": WEST_WAITS,
        "front": "2z",
        "back": "",
        "actions": ["E discard 9p", "S discard 2z", "T timeout"],
        "expect": {
            "outcome": "timeout",
            "winners": [],
            "payments": [],
            "scores": ZERO,
            "next_dealer": "E",
        },
    },
    {
        "name": "hk_round_wind_south",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Round-wind pung 1 and replay\'s optional '
            "round_wind. In the South round West wins on South's 7z with 123p 456p 789p 222z "
            "77z: half flush 3 + round wind (South) 1 = 4 fan = 16 (it would be 3 fan = 8 in the "
            "East round). South pays 16."
        ),
        "variant": HK,
        "round_wind": "S",
        "hands": {
            "E": "11m 22m 33m 44m 55m 66m 9p 1z",
            "S": "7z 11s 22s 33s 44s 55s 66s",
            "W": "123p 456p 789p 222z 7z",
            "N": "77s 88s 99s 1s 2p 3p 4m 5m 6m 3z",
        },
        "front": "3z",
        "back": "",
        "actions": ["E discard 9p", "S discard 7z", "W win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("W", 4, 16, "half_flush:3 round_wind_set:1")],
            "payments": payments(("S", "W", 16, "win")),
            "scores": {"E": 0, "S": -16, "W": 16, "N": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_fan_capped_at_eight",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Fan add up, and payment caps at 8 and 8: 64 '
            "points. North wins on West's 9p with 111p 333p 555p 77p + 999p: full flush 6 + all "
            "pungs 3 = 9 fan, capped at 8 = 64, paid by West. The 999p pung is completed by the "
            "discard, so it is not four concealed pungs: no limit."
        ),
        "variant": HK,
        "hands": {
            "E": "11m 22m 33m 44m 55m 66m 7m 1z",
            "S": "11s 22s 33s 44s 55s 66s 7s",
            "W": "9p 2p 4p 6p 8p 77s 88s 99s 1z 2z",
            "N": "111p 333p 555p 77p 99p",
        },
        "front": "3z 3z",
        "back": "",
        "actions": ["E discard 1z", "S discard 3z", "W discard 9p", "N win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("N", 8, 64, "full_flush:6 all_pungs:3")],
            "payments": payments(("W", "N", 64, "win")),
            "scores": {"E": 0, "S": 0, "W": -64, "N": 64},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_kong_replacement_win_is_self_drawn",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": a win on a replacement tile is self-drawn and '
            "A concealed kong, 2 from each other player. South declares 2222z (2 from each of E, "
            "W, N) and its replacement 6m completes 123m 456m 678m 99m: half flush 3 + seat wind "
            "1 + self-draw 1 = 5 fan = 24 from each. S +6 +72 = +78."
        ),
        "variant": HK,
        "hands": {
            "E": "11p 22p 33p 44p 55p 66p 7p 1z",
            "S": "2222z 123m 456m 78m 9m",
            "W": QUIET_W,
            "N": "77s 88s 99s 8p 9p 3z 4z 6z 6z 7z",
        },
        "front": "9m",
        "back": "6m",
        "actions": ["E discard 1z", "S concealed_kong 2z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 5, 24, "half_flush:3 seat_wind_set:1 self_draw:1")],
            "payments": payments(
                ("E", "S", 2, "kong"),
                ("W", "S", 2, "kong"),
                ("N", "S", 2, "kong"),
                ("E", "S", 24, "win"),
                ("W", "S", 24, "win"),
                ("N", "S", 24, "win"),
            ),
            "scores": {"E": -26, "S": 78, "W": -26, "N": -26},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_earthly_hand",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": These limit hands score the cap, 8: ... '
            "earthly hand (a win on the dealer's first discard) and 8: 64 points, paid by the "
            "discarder. East's first discard, 7z, completes South's hand: E -64, S +64."
        ),
        "variant": HK,
        "hands": TWO_WAITS,
        "front": "",
        "back": "",
        "actions": ["E discard 7z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 8, 64, "earthly_hand:8", limit=True)],
            "payments": payments(("E", "S", 64, "win")),
            "scores": {"E": -64, "S": 64, "W": 0, "N": 0},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_four_concealed_pungs_on_the_pair",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Four concealed pungs: a pung completed by a '
            "discard is not concealed. On a discard win the winning tile must complete the pair. "
            "North holds 111p 333p 555p 777p 9p and wins on West's 9p, the pair: limit, 8 fan = "
            "64, paid by West. (Compare hk_fan_capped_at_eight, where the discard completes a "
            "pung: no limit.)"
        ),
        "variant": HK,
        "hands": {
            "E": "11m 22m 33m 44m 55m 66m 7m 1z",
            "S": "11s 22s 33s 44s 55s 66s 7s",
            "W": "9p 2p 4p 6p 8p 77s 88s 99s 1z 2z",
            "N": "111p 333p 555p 777p 9p",
        },
        "front": "3z 3z",
        "back": "",
        "actions": ["E discard 1z", "S discard 3z", "W discard 9p", "N win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("N", 8, 64, "four_concealed_pungs:8", limit=True)],
            "payments": payments(("W", "N", 64, "win")),
            "scores": {"E": 0, "S": 0, "W": -64, "N": 64},
            "next_dealer": "S",
        },
    },
    {
        "name": "hk_seven_pairs",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": Special hands, closed only: seven pairs and '
            "Fan: seven pairs 4. South holds 11m 33m 55p 77p 99s 22z 6z and wins on West's 6z: 4 "
            "fan = 16, paid by West."
        ),
        "variant": HK,
        "hands": {
            "E": "11s 22s 33s 44s 55s 66s 7s 8s",
            "S": "11m 33m 55p 77p 99s 22z 6z",
            "W": "6z 7s 8s 9s 1p 2p 3p 4m 5m 6m 1z 2z 3z",
            "N": "77m 88m 99m 4p 5p 6p 4z 1s 2s 3s",
        },
        "front": "4z 5z",
        "back": "",
        "actions": ["E discard 8s", "S discard 4z", "W discard 6z", "S win"],
        "expect": {
            "outcome": "win",
            "winners": [winner("S", 4, 16, "seven_pairs:4")],
            "payments": payments(("W", "S", 16, "win")),
            "scores": {"E": 0, "S": 16, "W": -16, "N": 0},
            "next_dealer": "S",
        },
    },
    # Refusals common to both tables.
    {
        "name": "refused_wall_not_the_tile_set",
        "comment": (
            'docs/cli.md, "mahjong-hall replay": The hands and the wall together hold the whole '
            "tile set exactly once. The wall of kaki3_discard_win_split with its last tile (5z, "
            "the first taken from the back) written as 6z: exit 2, naming the missing 5z and the "
            "extra 6z."
        ),
        "variant": "kaki3",
        "bad_wall": {"last_tile": "6z"},
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4z 3z",
        "back": SOUTH_BACK,
        "actions": BASE_ACTIONS,
        "expect_error": "missing 5z; extra 6z",
    },
    {
        "name": "refused_action_out_of_turn",
        "comment": (
            'docs/cli.md, "mahjong-hall replay": An action that is not legal where it stands '
            "exits 2. East deals and must discard first; South's discard as action 0 is refused."
        ),
        "variant": "kaki3",
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4z 3z",
        "back": SOUTH_BACK,
        "actions": ["S discard 4z"],
        "expect_error": "action 0:",
    },
    {
        "name": "refused_win_without_a_winning_hand",
        "comment": (
            'docs/rules.md, "Hong Kong three fan": a win needs a complete hand of at least the '
            "table's minimum. South draws 4z, which does not complete its hand, and declares a "
            "self-drawn win anyway: action 1 is refused, exit 2."
        ),
        "variant": "kaki3",
        "hands": {"E": EAST, "S": SOUTH, "W": WEST},
        "front": "4z 3z",
        "back": SOUTH_BACK,
        "actions": ["E discard 1z", "S win"],
        "expect_error": "action 1: S has no winning hand",
    },
]
