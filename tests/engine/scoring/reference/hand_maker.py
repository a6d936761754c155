"""Random hands to score, as `mahjong-hall score` input objects, from a `random.Random`.

Most hands are built as a win: four sets and an eye are chosen, some tiles become Fei
within the Fei limits, some sets are shown (or made kongs), the winning tile is one of
the concealed tiles, and bonus tiles and win flags are added. The rest are near misses: a
built hand with one tile changed, or fourteen random tiles. Every hand could exist at its
table: at most four of a tile counting the shown sets, at most four Fei counting the sunk
ones, each bonus tile once.

The odds lean on the places where scorers go wrong: honour-heavy hands, a Fei standing
for a fifth copy of an honour, Fei in pongs, eyes and shown sets, several Fei at once,
kongs, every win flag, and the special shapes (seven pairs, thirteen orphans, nine gates).
Everything follows from the `random.Random` given, so a seed reproduces a hand.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from server.engine.tiles import format_tiles, parse_tiles

SUITS = {"hk": "mps", "kaki3": "p"}
HONOURS = tuple(f"{r}z" for r in range(1, 8))
WINDS, DRAGONS = HONOURS[:4], HONOURS[4:]
BONUS_TILES = tuple(f"{r}{s}" for s in "fnac" for r in range(1, 5))
SEATS = {"hk": ("E", "S", "W", "N"), "kaki3": ("E", "S", "W")}
ORPHANS = ("1m", "9m", "1p", "9p", "1s", "9s", *HONOURS)


def _pong_tile(
    rng: random.Random,
    suits: str,
    ranks: tuple[int, ...],
    honours: tuple[str, ...],
    honour_odds: float,
    used: list[str],
) -> str:
    if used and rng.random() < 0.15:
        # A second set of a tile already used: only a Fei can make that fifth copy real.
        return rng.choice(used)
    if rng.random() < honour_odds:
        return rng.choice(honours)
    return f"{rng.choice(ranks)}{rng.choice(suits)}"


def _standard_groups(rng: random.Random, variant: str) -> list[dict[str, Any]]:
    honour_odds = rng.choice((0.0, 0.05, 0.3, 0.6, 0.9, 1.0))
    pong_odds = rng.choice((0.2, 0.5, 0.8, 1.0))
    # Some Hong Kong hands keep to one suit, where the flushes are.
    suits = SUITS[variant] if rng.random() < 0.6 else rng.choice(SUITS[variant])
    # Some pongs and eyes keep to terminals (all terminals, nine gates' ends).
    ranks = (1, 9) if rng.random() < 0.15 else tuple(range(1, 10))
    # Some honour sets keep to the winds or to the dragons (the honour patterns).
    honours = rng.choice((HONOURS, HONOURS, WINDS, DRAGONS))
    groups: list[dict[str, Any]] = []
    used: list[str] = []
    # Some hands start from the honour patterns' own tiles: distinct winds or dragons as
    # sets, perhaps the missing one as the eye (which the rest may then spoil).
    pattern_tiles = rng.choice(((), (), (), (), (), WINDS, WINDS[:3], DRAGONS, DRAGONS[:2]))
    planned = rng.sample(pattern_tiles, len(pattern_tiles))
    for number in range(4):
        if number < len(planned):
            used.append(planned[number])
            groups.append({"kind": "pong", "stands": [planned[number]] * 3})
        elif rng.random() < pong_odds:
            tile = _pong_tile(rng, suits, ranks, honours, honour_odds, used)
            used.append(tile)
            groups.append({"kind": "pong", "stands": [tile] * 3})
        else:
            start, suit = rng.randint(1, 7), rng.choice(suits)
            groups.append({"kind": "chow", "stands": [f"{start + k}{suit}" for k in range(3)]})
    family = WINDS if planned and planned[0] in WINDS else DRAGONS
    missing = [tile for tile in family if tile not in used]
    if planned and missing and rng.random() < 0.7:
        eye = rng.choice(missing)
    else:
        eye = _pong_tile(rng, suits, ranks, honours, honour_odds, used)
    groups.append({"kind": "eye", "stands": [eye] * 2})
    return groups


def _place_fei(rng: random.Random, groups: list[dict[str, Any]], budget: int) -> int:
    """Turn up to `budget` concealed tiles into Fei within the limits; returns how many."""
    placed = 0
    for group in rng.sample(groups, len(groups)):
        group["held"] = list(group["stands"])
        if group.get("shown"):
            limit = 0 if group["kind"] == "kong" else 1
        else:
            limit = {"chow": 1, "pong": 2, "eye": 2}[group["kind"]]
        # An eye may be two Fei; a set keeps a real tile.
        turn = min(budget - placed, rng.randint(0, limit))
        for place in rng.sample(range(len(group["held"])), turn):
            group["held"][place] = "j"
        placed += turn
    return placed


def _show_sets(rng: random.Random, groups: list[dict[str, Any]]) -> None:
    shown = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
    kong_odds = rng.choice((0.2, 0.4, 0.9))
    sets = [group for group in groups if group["kind"] != "eye"]
    for group in rng.sample(sets, shown):
        group["shown"] = True
        if group["kind"] == "pong" and rng.random() < kong_odds:
            group["kind"] = "kong"
            group["stands"] = group["stands"] + group["stands"][:1]
            group["concealed"] = rng.random() < 0.5


def _counts_fit(tiles: list[str]) -> bool:
    counts = Counter(tiles)
    fei = counts.pop("j", 0)
    return fei <= 4 and all(count <= 4 for count in counts.values())


def _flags(rng: random.Random, seat: str) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    how = rng.random()
    if how < 0.5:
        flags["self_drawn"] = True
        flags["replacement"] = rng.choice((None, None, "bonus", "kong"))
        if flags["replacement"] == "kong" and rng.random() < 0.25:
            flags["kong_upon_kong"] = True
        if rng.random() < 0.08:
            flags["last_tile"] = True
        if seat == "E" and rng.random() < 0.08:
            flags["heavenly"] = True
        if flags["replacement"] and rng.random() < 0.2:
            # A replacement win is self-drawn even when the input does not say so.
            del flags["self_drawn"]
    elif how < 0.9:
        if rng.random() < 0.08:
            flags["last_discard"] = True
        if seat != "E" and rng.random() < 0.08:
            flags["earthly"] = True
    else:
        flags["robbing_kong"] = True
    return {name: value for name, value in flags.items() if value is not None}


def _bonus(rng: random.Random, variant: str, sunk: int) -> list[str]:
    if variant == "hk":
        return []
    shape = rng.random()
    if shape < 0.2:
        chosen: list[str] = []
    elif shape < 0.3:
        families = rng.sample("fnac", rng.randint(1, 4))
        chosen = [tile for tile in BONUS_TILES if tile[-1] in families]
    else:
        chosen = rng.sample(BONUS_TILES, rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 6, 8, 12)))
    return sorted(chosen) + ["j"] * sunk


def _special_concealed(rng: random.Random, variant: str) -> list[str]:
    """Seven pairs (Hong Kong), thirteen orphans (Hong Kong) or nine gates."""
    suit = rng.choice(SUITS[variant])
    kind = rng.choice(
        ("nine_gates",) if variant == "kaki3" else ("seven_pairs", "orphans", "nine_gates")
    )
    if kind == "nine_gates":
        tiles = [f"{n}{suit}" for n in "1112345678999"]
        return tiles + [f"{rng.randint(1, 9)}{suit}"]
    if kind == "orphans":
        return list(ORPHANS) + [rng.choice(ORPHANS)]
    pairs: list[str] = []
    pool = HONOURS + tuple(f"{n}{suit}" for n in range(1, 10))
    if rng.random() < 0.5:
        pool += tuple(f"{n}{rng.choice(SUITS[variant])}" for n in range(1, 10))
    for _ in range(7):
        pairs += [rng.choice(pool)] * 2
    return pairs


def random_hand(rng: random.Random, variant: str) -> dict[str, Any]:
    """One hand to score at `variant`, as the score command's input object."""
    while True:
        hand = _attempt(rng, variant)
        if hand is not None:
            return hand


def _attempt(rng: random.Random, variant: str) -> dict[str, Any] | None:
    seat = rng.choice(SEATS[variant])
    round_wind = rng.choice(SEATS["hk"]) if variant == "hk" else "E"
    shape = rng.random()
    melds: list[dict[str, Any]] = []
    sunk = 0
    if shape < 0.08:
        concealed = _special_concealed(rng, variant)
    elif shape < 0.14:
        pool = list(HONOURS) + [f"{n}{s}" for s in SUITS[variant] for n in range(1, 10)]
        pool += ["j"] * (4 if variant == "kaki3" else 0)
        concealed = [rng.choice(pool) for _ in range(14)]
    else:
        groups = _standard_groups(rng, variant)
        _show_sets(rng, groups)
        fei = 0
        if variant == "kaki3":
            budget = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
            fei = _place_fei(rng, groups, budget)
            if fei < 4 and rng.random() < 0.3:
                sunk = rng.randint(1, 4 - fei)
        else:
            _place_fei(rng, groups, 0)
        concealed = [t for g in groups if not g.get("shown") for t in g["held"]]
        for group in groups:
            if group.get("shown"):
                melds.append(_meld_json(rng, group))
        if shape < 0.3:
            # A near miss: one concealed tile changed.
            pool = list(HONOURS) + [f"{n}{s}" for s in SUITS[variant] for n in range(1, 10)]
            concealed[rng.randrange(len(concealed))] = rng.choice(pool)
    every_tile = concealed + [t for meld in melds for t in _meld_tiles(meld)]
    bonus = _bonus(rng, variant, sunk)
    if not _counts_fit(every_tile + bonus):
        return None
    rng.shuffle(concealed)
    winning = rng.choice(concealed)
    hand: dict[str, Any] = {
        "variant": variant,
        "seat": seat,
        "round": round_wind,
        "concealed": format_tiles(concealed),
        "winning_tile": winning,
        "win": _flags(rng, seat),
    }
    if melds:
        hand["melds"] = melds
    if bonus:
        hand["bonus"] = format_tiles(bonus)
    return hand


def _meld_tiles(meld: dict[str, Any]) -> list[str]:
    return parse_tiles(meld["tiles"])


def _meld_json(rng: random.Random, group: dict[str, Any]) -> dict[str, Any]:
    held = group["held"]
    meld: dict[str, Any] = {"kind": group["kind"], "tiles": format_tiles(held)}
    if group.get("concealed"):
        meld["concealed"] = True
    if "j" in held:
        stand_in = group["stands"][held.index("j")]
        # A chow's Fei in the middle may go unnamed; name it otherwise (and sometimes anyway).
        middle = group["kind"] == "chow" and held.index("j") == 1
        if not middle and group["kind"] == "chow" or rng.random() < 0.4:
            meld["fei_as"] = stand_in
    return meld
