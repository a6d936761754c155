"""Views: a seat sees its own concealed tiles only; a spectator sees only the table."""

import json

from server.engine import DealSettings, new_deal, view
from server.engine.tiles import sorted_tiles

SWAP_HANDS = {
    "E": "6z 2p 4p 6p 8p 1z 2z 3z 5z 7z 11p 99p",
    "S": "66z j 4z 13579p 2z 3z 7z 1z",
    "W": "2468p 1z 2z 3z 5z 7z 3579p",
}


def test_a_seat_sees_its_hand_and_claim_window_names_only(fixed):
    state = fixed.play(fixed.deal("kaki3", SWAP_HANDS), "E", "discard", tile="6z")
    shown = view(state, "W")
    assert shown["me"] == "W" and shown["phase"] == "claim" and shown["turn"] == "E"
    assert shown["pending"] == ["S"], "the seat deciding is named, its options are not"
    assert shown["hand"] == sorted_tiles(state.players["W"].hand)
    assert shown["last_discard"] == {"seat": "E", "tile": "6z"}
    assert shown["players"]["S"] == {
        "hand_count": 13,
        "melds": [],
        "discards": [],
        "bonus": [],
        "drawn": False,
    }
    assert "legal" not in json.dumps(shown) and "options" not in shown


def test_the_drawn_tile_is_kept_apart_and_forbidden_tiles_shown_to_the_player(fixed):
    state = fixed.deal("kaki3", SWAP_HANDS, front="4z 4z 6z", back="8p 8p")
    state = fixed.play(state, "E", "discard", tile="6z")
    state = fixed.play(state, "S", "pong", tiles="6z j", fei_as="6z")
    shown = view(state, "S")
    assert shown["forbidden"] == ["6z", "j"]
    assert shown["players"]["S"]["melds"] == [
        {
            "kind": "pong",
            "tiles": ["6z", "j", "6z"],
            "concealed": False,
            "fei_as": "6z",
            "from": "E",
            "claimed": "6z",
        }
    ]
    assert view(state, "E")["forbidden"] == []
    state = fixed.play(state, "S", "discard", tile="4z")
    shown = view(state, "W")
    assert shown["drawn_tile"] == "4z" and shown["players"]["W"]["drawn"] is True
    assert "4z" not in shown["hand"] or state.players["W"].hand.count("4z") > 1


def test_a_spectator_sees_no_hand_and_never_the_wall():
    state = new_deal(DealSettings("hk"), 9)
    shown = view(state, None)
    assert shown["me"] is None
    assert not {"hand", "drawn_tile", "forbidden", "wall"} & set(shown)
    assert shown["wall_remaining"] == 136 - 53
    assert {seat: p["hand_count"] for seat, p in shown["players"].items()} == {
        "E": 14,
        "S": 13,
        "W": 13,
        "N": 13,
    }


def test_a_finished_deal_shows_the_result(fixed):
    state = new_deal(DealSettings("kaki3"), 2)
    assert view(state, "E")["result"] is None
    hands = {
        "E": "5p 1p 2p 3p 7p 8p 9p 44z 55z 66z 2z",
        "S": "123p 4p 6p 789p 111z 22z",
        "W": "123p 4p 6p 789p 333z 77z",
    }
    state = fixed.play(fixed.deal("kaki3", hands), "E", "discard", tile="5p")
    state = fixed.play(state, "S", "win")
    shown = view(state, None)
    assert shown["phase"] == "ended" and shown["pending"] == []
    assert shown["result"]["winners"][0]["seat"] == "S"
    assert shown["scores"] == state.result.scores
