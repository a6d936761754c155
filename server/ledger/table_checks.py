"""Do the entered tiles fit on one table? Checks across the seats of one hand.

The engine checks each winning hand on its own (`score_hand`: five of a tile in one
hand, a Fei in a kong, a malformed set). These checks add what only the whole table
shows: the winner's tiles and the losers' together (four of each tile, four Fei, one of
each bonus tile), the losers' entries themselves, the kongs paid against the kongs shown,
the families paid against the bonus tiles, and whether dragon liability can apply.
Each refusal is a `LedgerError` saying, in words, what does not fit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from server.engine.errors import HandError
from server.engine.melds import CHOW, KONG, Meld
from server.engine.scoring import normalise_meld
from server.engine.scoring.kaki3 import complete_families
from server.engine.settlement import CONCEALED
from server.engine.tiles import DRAGONS, FEI, Tile, is_bonus, is_honour
from server.engine.variants import KAKI3
from server.ledger.entries import HandEntry, KongEntry, LedgerError, LoserEntry

MOST_KONGS = 4


def loser_sets(loser: LoserEntry, name: str) -> tuple[Meld, ...]:
    """A loser's shown honour sets, checked and with each Fei's tile filled in."""
    sets = []
    for index, meld in enumerate(loser.sets):
        where = f"{name}'s shown set {index + 1}"
        if meld.kind == CHOW:
            raise LedgerError(f"{where}: only honour pongs and kongs count in the square-up")
        try:
            checked = normalise_meld(meld, KAKI3)
        except HandError as error:
            raise LedgerError(f"{where}: {error}") from None
        if not is_honour(checked.real_tiles[0]):
            raise LedgerError(f"{where}: only honour sets count in the square-up")
        sets.append(checked)
    for tile in loser.bonus:
        if tile != FEI and not is_bonus(tile):
            raise LedgerError(f"{name}'s bonus tiles: {tile} is not a bonus tile or a sunk Fei")
    shown_fei = loser.bonus.count(FEI) + sum(meld.fei_count for meld in sets)
    if loser.fei < shown_fei:
        raise LedgerError(
            f"{name} holds at least {shown_fei} Fei (sunk and in shown sets), not {loser.fei}"
        )
    return tuple(sets)


def check_tiles_fit(
    hands: Sequence[tuple[str, Sequence[Tile], Sequence[Tile]]],
    fei_held: Sequence[tuple[str, int]],
    shared_winning_tile: tuple[Tile, int] | None = None,
) -> None:
    """Refuse more than four of a tile, more than four Fei, or a bonus tile held twice.

    `hands` are (name, playing tiles, bonus tiles) per seat that entered tiles, Fei left
    out of both; `fei_held` the Fei each holds. `shared_winning_tile` is the discard that
    several Hong Kong winners each counted in their hand, and how many of them did.
    """
    copies: Counter[Tile] = Counter()
    holders: dict[Tile, list[str]] = {}
    for name, playing, _bonus in hands:
        for tile in playing:
            copies[tile] += 1
            holders.setdefault(tile, [])
            if name not in holders[tile]:
                holders[tile].append(name)
    if shared_winning_tile is not None:
        tile, winners = shared_winning_tile
        copies[tile] -= winners - 1
    for tile, count in sorted(copies.items()):
        if count > 4:
            raise LedgerError(
                f"{count} copies of {tile} among {_names(holders[tile])}; there are four"
            )
    bonus_holders: dict[Tile, list[str]] = {}
    for name, _playing, bonus in hands:
        for tile in bonus:
            bonus_holders.setdefault(tile, []).append(name)
    for tile, names in sorted(bonus_holders.items()):
        if len(names) > 1:
            raise LedgerError(f"bonus tile {tile} is entered for {_names(names)}; there is one")
    total = sum(count for _name, count in fei_held)
    if total > 4:
        counted = _names([f"{name} {count}" for name, count in fei_held if count])
        raise LedgerError(f"{total} Fei entered ({counted}); there are four")


def check_kongs_shown(
    name: str, player: int, melds: Sequence[Meld], kongs: Sequence[KongEntry], exact: bool
) -> None:
    """The kongs paid for `player` against the kongs among `melds`.

    For a winner (`exact`) every kong of the hand is paid once: the counts of concealed
    and of shown kongs match. A loser's entry holds only honour sets, so it may show fewer.
    """
    mine = [kong for kong in kongs if kong.player == player]
    if len(mine) > MOST_KONGS:
        raise LedgerError(f"{name} is paid for {len(mine)} kongs; a hand holds at most four")
    for concealed in (True, False):
        shown = sum(1 for meld in melds if meld.kind == KONG and meld.concealed == concealed)
        paid = sum(1 for kong in mine if (kong.kind == CONCEALED) == concealed)
        kind = "concealed" if concealed else "shown"
        if shown > paid or (exact and shown != paid):
            raise LedgerError(
                f"{name}'s hand holds {shown} {kind} kong(s), but {paid} are entered among "
                "the kongs paid: enter each kong once, and how it was made"
            )


def check_families(
    entry: HandEntry, bonus_of: dict[int, tuple[Tile, ...]], names: Sequence[str]
) -> None:
    """Each family paid once at the table and, on a win, exactly the complete families of
    the bonus tiles entered (the tiles show which families are complete)."""
    owners: dict[str, int] = {}
    for family in entry.families:
        if family.family in owners:
            raise LedgerError(f"the {family.family} are entered twice; there is one family of each")
        owners[family.family] = family.player
    if entry.outcome != "win":
        return
    for player in range(len(names)):
        complete = set(complete_families(bonus_of.get(player, ())))
        paid = {f.family for f in entry.families if f.player == player}
        for missing in sorted(complete - paid):
            raise LedgerError(
                f"{names[player]}'s {missing} are complete: enter them among the families paid"
            )
        for extra in sorted(paid - complete):
            raise LedgerError(f"{names[player]}'s bonus tiles do not complete the {extra}")


def check_liability(name: str, melds: Sequence[Meld]) -> None:
    """Dragon liability needs the winner to show sets of two different dragons."""
    dragons = {meld.real_tiles[0] for meld in melds if meld.kind != CHOW} & set(DRAGONS)
    if len(dragons) < 2:
        raise LedgerError(
            f"liable: {name} does not show two dragon sets, so nobody is liable for the third"
        )


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
