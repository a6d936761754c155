"""Every catalogue words every message the client and the server's ids need."""

from __future__ import annotations

import re

import pytest

from server.engine import settlement
from server.engine.scoring.hk import HK_FAN, HK_LIMITS
from server.engine.scoring.kaki3 import KAKI3_FAN, KAKI3_LIMITS
from tests.web.catalogues import LANGUAGES, PLACEHOLDER, WEB, catalogue, english_leaks

ENGLISH = catalogue("en")
# The error codes the server sends (docs/protocol.md): HTTP answers and socket errors.
ERROR_CODES = [
    "bad_json",
    "validation_error",
    "room_not_found",
    "room_full",
    "name_taken",
    "room_closed",
    "bad_message",
    "unknown_type",
    "message_too_large",
    "rate_limited",
    "spectator",
    "bad_action",
    "not_legal",
    "no_deal",
    "room_moving",
    "store_unavailable",
    "paused",
    "not_saved",
]
NAMESPACES = {key.split(".")[0] for key in ENGLISH}


def keys_in_client() -> set[str]:
    """Every catalogue key the pages and modules name literally."""
    names = set()
    for path in [*WEB.glob("*.js"), *WEB.glob("*.html")]:
        text = path.read_text("utf-8")
        for found in re.findall(r"[\"'`]([a-z][a-z_]*(?:\.[a-zA-Z0-9_]+)+)[\"'`]", text):
            if found.split(".")[0] in NAMESPACES and not found.endswith((".js", ".json", ".css")):
                names.add(found)
    return names


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalogue_has_every_key_with_the_same_placeholders(language: str) -> None:
    words = catalogue(language)
    assert sorted(set(ENGLISH) - set(words)) == [], f"{language} misses keys"
    assert sorted(set(words) - set(ENGLISH)) == [], f"{language} has keys English lacks"
    for key, english in ENGLISH.items():
        offered = set(PLACEHOLDER.findall(english))
        # A tile's number comes both as a figure and as a word (5 and 五): either may be used.
        if "rank" in offered:
            offered.add("numeral")
        # Likewise a run: 2-3-4 (ranks) or 二三四 (numerals).
        if "ranks" in offered:
            offered.add("numerals")
        assert set(PLACEHOLDER.findall(words[key])) <= offered, key
        if language != "en":
            numbers = {"numeral", "rank", "numerals", "ranks"}
            assert set(PLACEHOLDER.findall(words[key])) - numbers == offered - numbers, key
        assert words[key].strip() or not english.strip(), f"{language} leaves {key} empty"


def test_every_key_the_client_names_is_in_the_catalogues() -> None:
    used = keys_in_client()
    assert len(used) > 250, "the scan found the client's keys"
    assert sorted(used - set(ENGLISH)) == []


def test_the_servers_ids_are_worded() -> None:
    pattern_ids = {*HK_FAN, *HK_LIMITS, *KAKI3_FAN, *KAKI3_LIMITS}
    reasons = {
        settlement.WIN,
        settlement.LIABILITY,
        settlement.KONG,
        settlement.FAMILY,
        settlement.EXTRA_FEI,
        settlement.SQUARE_UP,
    }
    wanted = (
        {f"pattern.{pattern_id}" for pattern_id in pattern_ids}
        | {f"payment.{reason}" for reason in reasons}
        | {f"error.{code}" for code in ERROR_CODES}
    )
    assert sorted(wanted - set(ENGLISH)) == []


@pytest.mark.parametrize("language", ["ms", "zh-Hant", "zh-Hans"])
def test_translations_are_not_english_left_in_place(language: str) -> None:
    # A catalogue copied from English would pass the key checks; its words must differ.
    words = catalogue(language)
    same = [key for key, text in words.items() if text == ENGLISH[key] and len(text) > 12]
    assert len(same) < 15, same
    assert english_leaks(" ".join(words.values()), language) == []


def test_the_hong_kong_and_malay_names_are_the_ones_players_say() -> None:
    hant, hans, malay = catalogue("zh-Hant"), catalogue("zh-Hans"), catalogue("ms")
    assert hant["pattern.all_pungs"] == "對對糊"
    assert hant["pattern.four_concealed_pongs"] == "坎坎糊"
    assert hant["pattern.kong_replacement_win"] == "槓上開花"
    assert hant["pattern.last_tile_win"] == "海底撈月"
    assert hant["call.win"] == "食糊"
    assert hans["pattern.all_pong"] == "碰碰胡"
    assert "Peng Peng Hu" in malay["pattern.all_pong"]
    assert malay["pattern.four_concealed_pongs"] == "Kang Kang Hu"
    assert "Ji Mo" in malay["rules.pay.self_draw_win"]
    assert malay["wind.E"] == "Timur"


def test_the_leak_finder_finds_english() -> None:
    assert english_leaks("東 Next deal 碰", "zh-Hant") == ["Next deal"]
    assert english_leaks("Pong Timur", "ms") == []
