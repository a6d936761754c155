"""The client's message catalogues (web/i18n/*.json), read for the tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
LANGUAGES = ("en", "ms", "zh-Hant", "zh-Hans")
# What the browser says it prefers, per catalogue: each one is chosen from it.
BROWSER_LOCALES = {"en": "en-GB", "ms": "ms-MY", "zh-Hant": "zh-HK", "zh-Hans": "zh-CN"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(language: str) -> dict[str, str]:
    """The catalogue of `language`."""
    loaded: dict[str, str] = json.loads((WEB / "i18n" / f"{language}.json").read_text("utf-8"))
    return loaded


def english_leaks(text: str, language: str) -> list[str]:
    """English catalogue words found in `text` that `language` does not use itself.

    A page in Malay or Chinese that still shows one of these was not translated. Each
    English value is cut at its placeholders; pieces with a word of three letters or more
    count, unless the other catalogue uses the same piece (Pong, Kong, Fei, Bot...).
    """
    own = " ".join(catalogue(language).values())
    leaks = set()
    for value in catalogue("en").values():
        for piece in PLACEHOLDER.split(value)[::2]:
            piece = piece.strip(" .,:;()!?·–-●")
            if not re.search(r"[A-Za-z]{3,}", piece) or piece in own:
                continue
            if re.search(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])", text):
                leaks.add(piece)
    return sorted(leaks)
