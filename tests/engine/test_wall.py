"""Starting a deal: the seeded shuffle, and fixed deals checked tile for tile."""

import pytest

from server.engine import DealSettings, EngineError, WallError, deal_from_wall, new_deal
from server.engine.tiles import hk_tile_set


def test_new_deal_is_deterministic_and_seed_dependent():
    assert new_deal(DealSettings("kaki3"), 4) == new_deal(DealSettings("kaki3"), 4)
    assert new_deal(DealSettings("hk"), 4).wall != new_deal(DealSettings("hk"), 5).wall


def test_kaki3_deal_sizes_and_no_bonus_tile_left_in_a_hand():
    for seed in range(30):
        state = new_deal(DealSettings("kaki3"), seed)
        assert [len(state.players[s].hand) for s in "ESW"] == [14, 13, 13]
        assert not any(t[-1] in "fnac" for s in "ESW" for t in state.players[s].hand)


def test_deal_from_wall_names_missing_and_extra_tiles():
    tiles = hk_tile_set()
    hands = {"E": tiles[:14], "S": tiles[14:27], "W": tiles[27:40], "N": tiles[40:53]}
    wall = tiles[53:-1] + ["1m"]
    with pytest.raises(WallError) as error:
        deal_from_wall(DealSettings("hk"), hands, wall)
    assert "missing 7z" in str(error.value) and "extra 1m" in str(error.value)


def test_deal_from_wall_checks_hand_sizes_and_seats():
    tiles = hk_tile_set()
    hands = {"E": tiles[:13], "S": tiles[13:27], "W": tiles[27:40], "N": tiles[40:53]}
    with pytest.raises(WallError, match="E must be dealt 14 tiles, got 13"):
        deal_from_wall(DealSettings("hk"), hands, tiles[53:])
    with pytest.raises(WallError, match="seats"):
        deal_from_wall(DealSettings("kaki3"), hands, tiles[53:])


def test_bad_settings_are_refused():
    with pytest.raises(EngineError):
        DealSettings("riichi")
    with pytest.raises(EngineError):
        DealSettings("kaki3", round_wind="S")
