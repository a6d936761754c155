import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.engine.tiles import (
    ALL_TILE_KINDS,
    TileParseError,
    format_tiles,
    hk_tile_set,
    kaki3_tile_set,
    parse_tile,
    parse_tiles,
    tile_diff,
)


def test_parse_groups_digits_under_one_suit_letter():
    assert parse_tiles("123p") == ["1p", "2p", "3p"]
    assert parse_tiles("55p j 123p") == ["5p", "5p", "j", "1p", "2p", "3p"]
    assert parse_tiles("jj") == ["j", "j"]
    assert parse_tiles(" 1 2 3 m ") == ["1m", "2m", "3m"]
    assert parse_tiles("") == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("12", "no suit letter"),
        ("p", "no digits"),
        ("8z", "8z"),
        ("5f", "5f"),
        ("0p", "0p"),
        ("1x", "'x'"),
        ("1j", "'j'"),
    ],
)
def test_parse_errors_name_the_offending_text(text, fragment):
    with pytest.raises(TileParseError) as error:
        parse_tiles(text)
    assert fragment in str(error.value)


def test_parse_tile_wants_exactly_one():
    assert parse_tile("7z") == "7z"
    with pytest.raises(TileParseError):
        parse_tile("77z")


def test_format_keeps_order_and_groups_runs():
    assert format_tiles(["5p", "5p", "j", "1p", "2p", "3p"]) == "55p j 123p"
    assert format_tiles(["2z", "j"]) == "2z j"
    assert format_tiles(["1m", "1p", "1m"]) == "1m 1p 1m"


@given(st.lists(st.sampled_from(ALL_TILE_KINDS), max_size=30))
def test_notation_round_trips(tiles):
    assert parse_tiles(format_tiles(tiles)) == tiles


def test_tile_sets_have_the_right_sizes():
    assert len(hk_tile_set()) == 136
    assert len(kaki3_tile_set()) == 84
    assert kaki3_tile_set().count("j") == 4
    assert not [t for t in kaki3_tile_set() if t[-1] in "ms"]


def test_tile_diff_names_missing_and_extra():
    assert tile_diff(["1p", "1p", "2p"], ["1p", "2p", "3p"]) == (["3p"], ["1p"])
