"""The repository stands alone: nothing in it leans on a document it does not hold.

No tracked file names the outside specification files (built from pieces below, so this
file does not name them either), and every `docs/<name>.md` cited anywhere exists.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_FILES = tuple(f"{stem}.md" for stem in ("CONTRACTS", "RULES"))
DOC_CITATION = re.compile(r"docs/([A-Za-z0-9_.-]+?)\.md")


def tracked_texts() -> dict[str, str]:
    """Every tracked file that reads as text, by its path in the repository."""
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    texts = {}
    for name in filter(None, names):
        path = ROOT / name.decode()
        if not path.is_file():
            continue  # deleted in the working tree, not yet committed
        try:
            texts[name.decode()] = path.read_text()
        except UnicodeDecodeError:
            continue  # an image or a font names nothing
    return texts


def test_no_tracked_file_names_an_outside_document() -> None:
    mentions = [
        f"{name}: {needle}"
        for name, text in tracked_texts().items()
        for needle in OUTSIDE_FILES
        if needle in text  # case matters: docs/rules.md is our own page
    ]
    assert mentions == []


def test_every_cited_doc_exists() -> None:
    missing = sorted(
        {
            f"{name} cites docs/{doc}.md"
            for name, text in tracked_texts().items()
            for doc in DOC_CITATION.findall(text)
            if not (ROOT / "docs" / f"{doc}.md").is_file()
        }
    )
    assert missing == []


def test_no_section_sign_points_into_an_outside_document() -> None:
    # The outside files numbered their parts; our docs name sections by their titles.
    numbered = [
        f"{name}: {match}"
        for name, text in tracked_texts().items()
        for match in re.findall(r"§\s?\d+", text)
    ]
    assert numbered == []


def test_the_checks_see_what_they_look_for() -> None:
    assert DOC_CITATION.findall('see docs/rules.md, "Both tables" and docs/cli.md') == [
        "rules",
        "cli",
    ]
    assert [name.upper() == name.upper().replace(".MD", "") + ".MD" for name in OUTSIDE_FILES]
    assert all(name[:-3].isupper() and name.endswith(".md") for name in OUTSIDE_FILES)
