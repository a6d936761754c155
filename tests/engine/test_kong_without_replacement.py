"""No kong when no replacement can be had (docs/rules.md, "The deal"), at the Hong Kong table.

3 Kaki's side (its last 7 tiles are never drawn) is pinned by the scenario
`kaki3_kong_refused_with_no_replacement`; here East reaches the empty wall holding four
1p, a shown pong of 2m with the fourth 2m, and a 3s that North could kong.
"""

import pytest

from server.engine import Action, IllegalActionError, apply, pending_seats

HANDS = {
    "E": "1111p 222m 99s 33z 44z 3s",
    "S": "13579m 2468p 1578s",
    "W": "3m 4m 6m 8m 2p 4p 6p 8p 9p 1z 2z 5z 6z",
    "N": "333s 1z 5z 6z 7z 2m 5p 7p 5m 9p 8m",
}


def _pass_or_throw_drawn(fixed, state):
    seat = pending_seats(state)[0]
    if state.phase != "discard":
        return fixed.play(state, seat, "pass")
    return fixed.play(state, seat, "discard", tile=state.players[seat].drawn)


@pytest.fixture
def last_tile_drawn(fixed):
    """East to act on the last tile of the wall, after ponging North's 2m."""
    state = fixed.play(fixed.deal("hk", HANDS), "E", "discard", tile="3z")
    while state.turn != "N" or state.phase != "discard":
        state = _pass_or_throw_drawn(fixed, state)
    state = fixed.play(state, "N", "discard", tile="2m")
    state = fixed.play(state, "E", "pong", tiles="22m")
    state = fixed.play(state, "E", "discard", tile="3z")
    while state.wall_remaining > 0 or state.phase != "discard":
        state = _pass_or_throw_drawn(fixed, state)
    assert state.turn == "E" and state.drew_this_turn
    assert state.players["E"].hand.count("1p") == 4 and "2m" in state.players["E"].hand
    return state


@pytest.mark.parametrize("kind, tile", [("concealed_kong", "1p"), ("added_kong", "2m")])
def test_no_kong_of_ones_own_on_the_last_tile(fixed, last_tile_drawn, kind, tile):
    state = last_tile_drawn
    assert fixed.kinds(state, "E") == {"discard"}
    before = state.copy()
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action(kind, "E", tile=tile))
    assert error.value.code == "no_replacement"
    assert str(error.value) == "no kong: no replacement tile is left to draw"
    assert state == before


def test_no_kong_claimed_on_the_last_discard(fixed, last_tile_drawn):
    state = fixed.play(last_tile_drawn, "E", "discard", tile="3s")
    assert "N" in pending_seats(state)
    assert "kong" not in fixed.kinds(state, "N") and "pong" in fixed.kinds(state, "N")
    with pytest.raises(IllegalActionError) as error:
        apply(state, Action("kong", "N", tiles=("3s", "3s", "3s")))
    assert error.value.code == "no_replacement"
