"""The pure night (server/ledger): the deal moving round, the rounds of a long Hong Kong
night, drawn hands, and entries that round-trip; no server involved."""

from __future__ import annotations

import pytest

from server.ledger import LedgerError, LedgerSetup, reckon_night
from tests.ledger.hands import HK_SOUTH_SELF_DRAW

HK_PLAYERS = ["Ana", "Bo", "Cy", "Di"]


def hk_self_draw_by(player: int) -> dict[str, object]:
    # Seat wind set, dragon pung, self-draw: 3 fan only for the player sitting South.
    return {**HK_SOUTH_SELF_DRAW, "winner": player}


def test_a_long_hong_kong_night_goes_round_the_winds_and_starts_again() -> None:
    setup = LedgerSetup.checked("hk", HK_PLAYERS)
    entries = []
    winds = []
    for _ in range(17):
        night = reckon_night(setup, entries)
        winds.append(night.coming.round_wind(setup.variant))
        # Whoever sits South wins, so the deal passes every hand.
        south = night.coming.player_at("S")
        entries.append(setup.read_entry(hk_self_draw_by(south)))
    assert winds == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4 + ["E"]
    night = reckon_night(setup, entries)
    # A non-dealer won every hand: the deal passed to the next seat each time.
    assert [hand.seating.dealer for hand in night.hands] == [n % 4 for n in range(17)]
    assert sum(night.totals) == 0 and night.totals[1] == 5 * 24 - 12 * 8


def test_a_ledger_opened_in_the_south_round_scores_the_round_wind() -> None:
    east = reckon_night(LedgerSetup.checked("hk", HK_PLAYERS), [])
    south = LedgerSetup.checked("hk", HK_PLAYERS, round_wind="S")
    assert east.coming.round_wind(east.setup.variant) == "E"
    # Bo sits South in the South round: his South pung scores twice, 4 fan, 16 each.
    hand = reckon_night(south, [south.read_entry(HK_SOUTH_SELF_DRAW)]).hands[0]
    assert hand.reckoning.winners[0].score.fan == 4
    assert hand.net == (-16, 48, -16, -16)


def test_a_drawn_three_kaki_hand_passes_the_deal_to_the_last_to_draw() -> None:
    setup = LedgerSetup.checked("kaki3", ["Ana", "Bo", "Cy"])
    drawn = {
        "outcome": "draw",
        "last_to_draw": 2,
        "kongs": [{"player": 0, "kind": "concealed"}],
        "families": [{"player": 1, "family": "faces", "in_deal": True}],
    }
    night = reckon_night(setup, [setup.read_entry(drawn)])
    # The concealed kong (2 from each) and the family complete in the deal (4 from each)
    # stand though nobody won.
    assert night.hands[0].net == (4 - 4, 8 - 2, -2 - 4)
    assert night.coming.dealer == 2
    with pytest.raises(LedgerError, match="last_to_draw"):
        setup.read_entry({"outcome": "draw"})
    hk = LedgerSetup.checked("hk", HK_PLAYERS)
    with pytest.raises(LedgerError, match="dealer keeps"):
        hk.read_entry({"outcome": "draw", "last_to_draw": 1})
    assert reckon_night(hk, [hk.read_entry({"outcome": "draw"})]).coming.dealer == 0


def test_stored_entries_read_back_as_the_same_hand() -> None:
    setup = LedgerSetup.checked("hk", HK_PLAYERS)
    entry = setup.read_entry(
        {
            "outcome": "win",
            "winner": 1,
            "discarder": 0,
            "hand": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "9s", "9s"],
                     "melds": [{"kind": "pong", "tiles": "222z"}, {"kind": "kong", "tiles": "5555z"}],
                     "winning_tile": "9s", "win": {"last_discard": True, "self_drawn": False}},
            "more_winners": [{"winner": 2, "hand": {"concealed": "11s 22s 33s 55s 66s 77s 99s", "winning_tile": "9s"}}],
            "kongs": [{"player": 1, "kind": "exposed", "from": 3}],
        }
    )  # fmt: skip
    assert setup.read_entry(entry.to_json()) == entry
    assert entry.to_json()["hand"]["concealed"] == "123m 456p 99s"
    with pytest.raises(LedgerError, match="names a discarder"):
        setup.read_entry(
            {**entry.to_json(), "hand": {**entry.to_json()["hand"], "win": {"self_drawn": True}}}
        )
