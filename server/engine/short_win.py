"""A win that falls short of the table's minimum, found where a refused `win` meant one.

The engine opens no claim window for a win below the minimum (nobody else may want the
tile, so play goes straight on), and offers no self-drawn win below it. A player who asks
for one anyway is told why: the hand's fan against the minimum, rather than whatever the
deal has moved on to (someone else's turn, a tile drawn since). `apply` uses this for its
refusal of a `win`; the room uses it for the socket's error (docs/engine.md).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from server.engine.deal_end import discard_flags, scored_hand, self_draw_flags
from server.engine.deal_state import DISCARD_PHASE, DealState
from server.engine.scoring.types import ScoreResult, WinFlags
from server.engine.tiles import Tile


@dataclass(frozen=True)
class ShortWin:
    """A complete hand worth `fan`, under the table's `min_fan`: completed by `tile`,
    drawn (`discarder` None) or thrown by `discarder`."""

    seat: str
    tile: Tile
    discarder: str | None
    fan: int
    min_fan: int

    @property
    def text(self) -> str:
        """The refusal in words."""
        how = "drawn" if self.discarder is None else f"from {self.discarder}"
        return (
            f"{self.seat}'s hand with {self.tile} {how} is worth {self.fan} fan; "
            f"this table needs {self.min_fan} to win"
        )


def short_win(state: DealState, seat: str) -> ShortWin | None:
    """The win `seat` may have meant that completes its hand below the minimum: on its own
    tiles (its turn, just drawn), else on the last discard, another seat's, not claimed."""
    if seat not in state.seats or state.is_over:
        return None
    player = state.players[seat]
    hand = list(player.hand)
    drew = state.phase == DISCARD_PHASE and seat == state.turn and state.drew_this_turn
    if drew:
        drawn = player.drawn if player.drawn is not None else hand[-1]
        found = _short(state, seat, hand, drawn, None, self_draw_flags(state, seat))
        if found is not None:
            return found
        hand.remove(drawn)  # the hand as it stood while the last discard was on offer
    last = state.last_discard
    if last is None or last[0] == seat:
        return None
    discarder, tile = last
    flags = discard_flags(state, discarder, robbing=False)
    if drew:
        flags = dataclasses.replace(flags, last_discard=False)  # a tile was drawn after it
    return _short(state, seat, [*hand, tile], tile, discarder, flags)


def _short(
    state: DealState,
    seat: str,
    concealed: list[Tile],
    tile: Tile,
    discarder: str | None,
    flags: WinFlags,
) -> ShortWin | None:
    scored = scored_hand(state, seat, concealed, tile, flags)
    if scored is None:
        return None
    result: ScoreResult = scored[0]
    minimum = state.settings.table_rules.min_fan
    # A reading was found (`sets`) and only the minimum refused it.
    if result.valid or result.limit or not result.sets or result.fan >= minimum:
        return None
    return ShortWin(seat, tile, discarder, result.fan, minimum)
