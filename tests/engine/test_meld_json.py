"""A shown set goes to JSON and back unchanged (views, results and the bots read it back)."""

from __future__ import annotations

import pytest

from server.engine.melds import Meld


@pytest.mark.parametrize(
    "meld",
    [
        Meld(kind="chow", tiles=("1T", "2T", "3T"), claimed_from="N", claimed_tile="2T"),
        Meld(kind="pong", tiles=("5T", "5T", "FEI"), fei_as="5T"),
        Meld(kind="kong", tiles=("RD",) * 4, concealed=True),
    ],
)
def test_a_meld_round_trips_through_json(meld: Meld) -> None:
    assert Meld.from_json(meld.to_json()) == meld
