"""Makes `web/tile_glyphs.js`: the outlines of the characters the traditional tiles show.

Run once, by hand, when the set of characters changes (it needs `pip install fonttools`
and Debian's `fonts-noto-cjk`); the output is committed, so neither the server nor the
browser needs a CJK font. The outlines come from Noto Serif CJK TC Bold (SIL Open Font
Licence 1.1, see `web/fonts/OFL.txt`).

    .venv/bin/python scripts/make_tile_glyphs.py /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection

# Every character a traditional tile draws: numbers, suits, winds, dragons, bonus tiles.
CHARACTERS = "一二三四五六七八九萬東南西北中發梅蘭菊竹春夏秋冬飛貓鼠雞蜈蚣帝后將相0123456789"
# Outlines are scaled to this many units per em and rounded: small, and sharp enough.
UNITS = 100
OUTPUT = Path(__file__).resolve().parents[1] / "web" / "tile_glyphs.js"


def traditional_face(collection: TTCollection):  # type: ignore[no-untyped-def]
    """The collection's Traditional Chinese face (its name carries "TC")."""
    for font in collection.fonts:
        if "TC" in font["name"].getDebugName(1):
            return font
    raise SystemExit("no TC face in this font collection")


def outlines(font_path: str) -> dict[str, dict[str, object]]:
    font = traditional_face(TTCollection(font_path))
    scale = UNITS / font["head"].unitsPerEm
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    ascent = font["OS/2"].sTypoAscender * scale
    shapes: dict[str, dict[str, object]] = {}
    for character in CHARACTERS:
        name = cmap[ord(character)]
        pen = SVGPathPen(glyphs, ntos=lambda n: str(round(n)))
        # Font outlines grow upwards from the baseline; SVG grows downwards from the top.
        glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, 0, ascent)))
        shapes[character] = {"w": round(glyphs[name].width * scale), "d": pen.getCommands()}
    return shapes


def main() -> None:
    shapes = outlines(sys.argv[1])
    body = json.dumps(shapes, ensure_ascii=False, separators=(",", ":"))
    OUTPUT.write_text(
        "// Made by scripts/make_tile_glyphs.py from Noto Serif CJK TC Bold (SIL OFL 1.1,\n"
        "// web/fonts/OFL.txt). Each character: advance `w` and outline `d` on a "
        f"{UNITS}-unit em.\n"
        f"export const UNITS = {UNITS};\nexport const GLYPHS = {body};\n",
        encoding="utf-8",
    )
    print(f"{OUTPUT.name}: {len(shapes)} characters, {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
