"""Golden ledgers: every settlement scenario of tests/scenarios/, entered as a ledger hand,
pays exactly what `mahjong-hall replay` prints for it, hand by hand.

The scenarios of one table (and one set of house rules and first round wind) are
entered one after another into one ledger, so the ledger also moves the deal on between
them: each scenario's seats are the players the ledger seats there at that hand, and the
next dealer it names must be the one the replay names. Every scenario is played in its
own round wind; once the deal has passed round a Hong Kong ledger and moved it on, the
rest of the group goes into a new ledger.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from server.cli.replay import replay_document
from server.ledger import HandEntry, LedgerSetup, reckon_night
from tests.ledger.deal_entries import entry_json, play_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def settled_scenarios() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """The scenarios whose deal ends, grouped by ledger: (variant, rules, round wind)."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for path in sorted(SCENARIOS.glob("*.json")):
        document = json.loads(path.read_text())
        expected = document.get("expect") or {}
        if expected.get("outcome") not in ("win", "draw", "timeout"):
            continue
        key = json.dumps(
            [document["variant"], document.get("rules"), document.get("round_wind", "E")]
        )
        groups[key].append((path.stem, document))
    return dict(groups)


GROUPS = settled_scenarios()


def test_the_golden_ledgers_cover_the_settlement_scenarios() -> None:
    names = [name for group in GROUPS.values() for name, _ in group]
    assert len(names) >= 60
    assert "kaki3_dragon_liability_claimed_then_wins_later" in names
    assert "hk_two_winners_on_one_discard" in names
    assert "kaki3_timeout_next_dealer_is_last_to_draw" in names


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_each_hand_pays_what_the_replay_pays(group: str) -> None:
    variant, rules, round_wind = json.loads(group)
    seats = ("E", "S", "W", "N")[: 3 if variant == "kaki3" else 4]
    setup = LedgerSetup.checked(variant, [f"P{n}" for n in range(len(seats))], rules, round_wind)
    entries: list[HandEntry] = []
    ledgers, dealers = 1, set()
    for name, document in GROUPS[group]:
        coming = reckon_night(setup, entries).coming
        if coming.round_wind(setup.variant) != round_wind:
            entries, ledgers = [], ledgers + 1
            coming = reckon_night(setup, entries).coming
        player_at = {seat: coming.player_at(seat) for seat in seats}
        dealers.add(coming.dealer)
        played = play_scenario(document)
        assert played is not None, name
        entry = setup.read_entry(entry_json(played, player_at))
        # What is stored reads back as the same hand.
        assert setup.read_entry(entry.to_json()) == entry, name
        entries.append(entry)
        hand = reckon_night(setup, entries).hands[-1]
        replayed = replay_document(json.dumps(document))
        seat_of = hand.seating.seat_of
        paid = sorted(
            (seat_of[p.payer], seat_of[p.payee], p.points, p.reason)
            for p in hand.reckoning.payments
        )
        expected = sorted(
            (p["from"], p["to"], p["points"], p["reason"]) for p in replayed["payments"]
        )
        assert paid == expected, name
        net = {seat_of[player]: points for player, points in enumerate(hand.net)}
        assert net == replayed["scores"], name
        assert seat_of[hand.reckoning.next_dealer] == replayed["next_dealer"], name
        fans = sorted((w.seat, w.score.fan, w.score.points) for w in hand.reckoning.winners)
        assert fans == sorted((w["seat"], w["fan"], w["points"]) for w in replayed["winners"]), name
    # The deal moved on between the hands: more than one player dealt.
    assert len(GROUPS[group]) < 3 or (len(dealers) > 1 and ledgers < len(GROUPS[group]))
