// The two tile sets' faces as SVG markup, on a 36x48 face.
//
// "traditional" draws tiles as they are printed: characters 一 to 九 over 萬, dots and
// bamboo as on real tiles (the 1 of bamboo a bird), 東 南 西 北, 中 in red, 發 in green,
// a framed white dragon, flowers 梅 蘭 菊 竹 and seasons 春 夏 秋 冬 with their numbers,
// animals and face tiles by name and number, and the Fei as 飛. Every character is an
// outline from tile_glyphs.js, so no font of the device is used.
// "learner" is the simple set with Latin labels (a number and "WAN", E S W N...).

import { GLYPHS, UNITS } from "./tile_glyphs.js";

const BLUE = "#1a3d8f";
const RED = "#c62828";
const GREEN = "#2e7d32";
const PURPLE = "#7b1fa2";

/** A character's outline, `size` units tall, centred on `x`, its em box's top at `y`. */
function glyph(character, x, y, size, fill) {
  const shape = GLYPHS[character];
  if (!shape) return "";
  const scale = size / UNITS;
  const left = x - (shape.w * scale) / 2;
  return `<path transform="translate(${left.toFixed(2)} ${y}) scale(${scale.toFixed(4)})" fill="${fill}" d="${shape.d}"/>`;
}

const NUMERALS = "一二三四五六七八九";

// ---------------------------------------------------------------- traditional dots

// Pip centres per count on the whole face, and a colour per pip, as real tiles are printed.
const DOT_LAYOUTS = {
  1: [[18, 24, RED]],
  2: [[18, 13, GREEN], [18, 35, BLUE]],
  3: [[9, 10, BLUE], [18, 24, RED], [27, 38, GREEN]],
  4: [[10.5, 13, BLUE], [25.5, 13, GREEN], [10.5, 35, GREEN], [25.5, 35, BLUE]],
  5: [[10, 11, BLUE], [26, 11, GREEN], [18, 24, RED], [10, 37, GREEN], [26, 37, BLUE]],
  6: [[11, 9, GREEN], [25, 9, GREEN], [11, 25, RED], [25, 25, RED], [11, 39, RED], [25, 39, RED]],
  7: [[8, 7, GREEN], [18, 11, GREEN], [28, 15, GREEN], [11, 27, RED], [25, 27, RED], [11, 39, RED], [25, 39, RED]],
  8: [[11, 7, BLUE], [25, 7, BLUE], [11, 18, BLUE], [25, 18, BLUE], [11, 29, BLUE], [25, 29, BLUE], [11, 40, BLUE], [25, 40, BLUE]],
  9: [[8, 10, BLUE], [18, 10, BLUE], [28, 10, BLUE], [8, 24, RED], [18, 24, RED], [28, 24, RED], [8, 38, GREEN], [18, 38, GREEN], [28, 38, GREEN]],
};
const DOT_RADIUS = { 1: 12, 2: 7.5, 3: 6, 4: 6.2, 5: 5.6, 6: 5, 7: 4.4, 8: 4.2, 9: 4.3 };

function traditionalDots(rank) {
  const radius = DOT_RADIUS[rank];
  return DOT_LAYOUTS[rank]
    .map(([x, y, colour]) => {
      const rings =
        `<circle cx="${x}" cy="${y}" r="${radius}" fill="#fffdf4" stroke="${colour}" stroke-width="${(radius * 0.22).toFixed(2)}"/>` +
        `<circle cx="${x}" cy="${y}" r="${(radius * 0.55).toFixed(2)}" fill="none" stroke="${colour}" stroke-width="${(radius * 0.16).toFixed(2)}" stroke-dasharray="${(radius * 0.3).toFixed(2)} ${(radius * 0.2).toFixed(2)}"/>` +
        `<circle cx="${x}" cy="${y}" r="${(radius * 0.25).toFixed(2)}" fill="${colour}"/>`;
      // The 1 of dots is a big flower of rings: one more ring of colour.
      return rank === 1 ? rings + `<circle cx="${x}" cy="${y}" r="${radius * 0.8}" fill="none" stroke="${GREEN}" stroke-width="1.2"/>` : rings;
    })
    .join("");
}

// ---------------------------------------------------------------- traditional bamboo

// Stick centres per count; a red stick is marked `true`.
const STICK_LAYOUTS = {
  2: [[18, 13], [18, 35]],
  3: [[18, 13], [11, 35], [25, 35]],
  4: [[11, 13], [25, 13], [11, 35], [25, 35]],
  5: [[9, 13], [27, 13], [18, 24, true], [9, 35], [27, 35]],
  6: [[8, 13], [18, 13], [28, 13], [8, 35], [18, 35], [28, 35]],
  7: [[18, 8, true], [8, 24], [18, 24], [28, 24], [8, 40], [18, 40], [28, 40]],
  8: [[7, 13], [14.3, 13], [21.7, 13], [29, 13], [7, 35], [14.3, 35], [21.7, 35], [29, 35]],
  9: [[8, 8], [18, 8, true], [28, 8], [8, 24], [18, 24, true], [28, 24], [8, 40], [18, 40, true], [28, 40]],
};

function bambooStick(x, y, height, red) {
  const colour = red ? RED : GREEN;
  const top = y - height / 2;
  const width = 4.4;
  // A stick of bamboo: a rounded cane with a joint in the middle and at both ends.
  return (
    `<rect x="${x - width / 2}" y="${top}" width="${width}" height="${height}" rx="1.6" fill="${colour}"/>` +
    `<rect x="${x - width / 2 - 0.6}" y="${y - 0.7}" width="${width + 1.2}" height="1.4" rx="0.6" fill="${colour}"/>` +
    `<line x1="${x}" y1="${top + 1.2}" x2="${x}" y2="${top + height - 1.2}" stroke="#fffdf4" stroke-width="0.7" stroke-opacity="0.7"/>`
  );
}

function traditionalBamboo(rank) {
  if (rank === 1) return bambooBird();
  const height = rank <= 6 || rank === 8 ? 18 : 13;
  return STICK_LAYOUTS[rank].map(([x, y, red]) => bambooStick(x, y, height, Boolean(red))).join("");
}

// The 1 of bamboo is a bird (a sparrow on most sets) perched on a cane.
function bambooBird() {
  return (
    `<path d="M21 30 C27 33 31 40 33 45 C29 43 25 42 22 38 Z" fill="${RED}"/>` +
    `<path d="M20 31 C25 36 26 42 25 46 C22 43 20 39 19 35 Z" fill="${BLUE}"/>` +
    `<ellipse cx="17" cy="25" rx="8" ry="10" fill="${GREEN}" transform="rotate(-20 17 25)"/>` +
    `<path d="M13 22 C17 19 23 22 24 29 C20 28 16 27 13 22 Z" fill="#1b5e20"/>` +
    `<circle cx="12" cy="12" r="5.5" fill="${GREEN}"/>` +
    `<path d="M7.2 11 L2.5 13 L7.4 14 Z" fill="#ef6c00"/>` +
    `<circle cx="10.5" cy="10.8" r="1.5" fill="#fffdf4"/><circle cx="10.3" cy="10.8" r="0.8" fill="#111"/>` +
    `<path d="M11 6.8 C12.5 3.5 15.5 3 17 4.5 C15 5 13.8 6 13.5 7.2 Z" fill="${RED}"/>` +
    `<line x1="15" y1="34" x2="13" y2="41" stroke="#6d4c41" stroke-width="1.2"/><line x1="18" y1="34" x2="17" y2="41" stroke="#6d4c41" stroke-width="1.2"/>` +
    `<line x1="6" y1="41.5" x2="26" y2="41.5" stroke="#8d6e63" stroke-width="1.6" stroke-linecap="round"/>`
  );
}

// ---------------------------------------------------------------- traditional words

const WIND_CHARACTERS = "東南西北";
const FLOWER_CHARACTERS = "梅蘭菊竹";
const SEASON_CHARACTERS = "春夏秋冬";
// Animals: cat, mouse, rooster, centipede; faces: emperor, empress, general, minister.
const ANIMAL_NAMES = ["貓", "鼠", "雞", "蜈蚣"];
const FACE_NAMES = ["帝", "后", "將", "相"];
const BONUS_COLOURS = { f: RED, n: BLUE, a: "#6d4c41", c: "#00695c" };

function cornerNumber(rank, colour) {
  return glyph(String(rank), 29.5, 3.5, 8.5, colour);
}

function bonusArt(suit, rank) {
  const colour = BONUS_COLOURS[suit];
  const names = { f: FLOWER_CHARACTERS, n: SEASON_CHARACTERS, a: ANIMAL_NAMES, c: FACE_NAMES }[suit];
  const name = names[rank - 1];
  // A one-character name fills the face; a two-character one (蜈蚣) stands in a column.
  const words = [...name];
  const art = words.length === 1 ? glyph(words[0], 17, 13, 26, colour) : glyph(words[0], 17, 8, 18, colour) + glyph(words[1], 17, 27, 18, colour);
  return `<rect x="3.5" y="3.5" width="29" height="41" rx="2.5" fill="none" stroke="${colour}" stroke-width="0.8" stroke-opacity="0.6"/>` + art + cornerNumber(rank, colour);
}

function traditionalHonour(rank) {
  if (rank <= 4) return glyph(WIND_CHARACTERS[rank - 1], 18, 9.5, 30, "#111");
  if (rank === 5) {
    // The white dragon: a blue frame on a blank face.
    return (
      `<rect x="6" y="7" width="24" height="34" rx="2" fill="none" stroke="${BLUE}" stroke-width="2.6"/>` +
      `<rect x="10" y="11" width="16" height="26" rx="1" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`
    );
  }
  if (rank === 6) return glyph("發", 18, 9.5, 30, GREEN);
  return glyph("中", 18, 9.5, 30, RED);
}

function traditionalArt(tile, suit, rank) {
  if (tile === "j") return glyph("飛", 18, 9.5, 30, PURPLE);
  if (suit === "m") return glyph(NUMERALS[rank - 1], 18, 1.5, 21, BLUE) + glyph("萬", 18, 21, 25, RED);
  if (suit === "p") return traditionalDots(rank);
  if (suit === "s") return traditionalBamboo(rank);
  if (suit === "z") return traditionalHonour(rank);
  if (BONUS_COLOURS[suit]) return bonusArt(suit, rank);
  return "";
}

// ---------------------------------------------------------------- learner set

const LEARNER_BONUS = {
  f: { name: "FLOWER", colour: "#c2185b" },
  n: { name: "SEASON", colour: "#e65100" },
  a: { name: "ANIMAL", colour: "#6d4c41" },
  c: { name: "FACE", colour: "#1565c0" },
};

// Pip positions on a 30x42 face (origin at the face's top left), one list per count.
const PIP_LAYOUTS = {
  1: [[15, 21]],
  2: [[15, 10], [15, 32]],
  3: [[7, 8], [15, 21], [23, 34]],
  4: [[8, 10], [22, 10], [8, 32], [22, 32]],
  5: [[8, 9], [22, 9], [15, 21], [8, 33], [22, 33]],
  6: [[8, 8], [22, 8], [8, 21], [22, 21], [8, 34], [22, 34]],
  7: [[6, 6], [15, 10], [24, 14], [9, 25], [21, 25], [9, 36], [21, 36]],
  8: [[9, 6], [21, 6], [9, 16], [21, 16], [9, 26], [21, 26], [9, 36], [21, 36]],
  9: [[6, 8], [15, 8], [24, 8], [6, 21], [15, 21], [24, 21], [6, 34], [15, 34], [24, 34]],
};
const PIP_COLOURS = [BLUE, RED, GREEN];

// The pips sit below the corner index, squeezed into the lower 34 units of the face.
function pipCentre([x, y]) {
  return [x + 3, 12.5 + y * 0.8];
}

function learnerDots(rank) {
  const radius = rank === 1 ? 9 : rank <= 4 ? 5.3 : rank <= 6 ? 4.3 : 3.7;
  return PIP_LAYOUTS[rank]
    .map((point, index) => {
      const [x, y] = pipCentre(point);
      const colour = rank === 1 ? RED : PIP_COLOURS[(index + rank) % 3];
      return (
        `<circle cx="${x}" cy="${y}" r="${radius}" fill="none" stroke="${colour}" stroke-width="1.7"/>` +
        `<circle cx="${x}" cy="${y}" r="${radius * 0.45}" fill="${colour}"/>`
      );
    })
    .join("");
}

function learnerBamboo(rank) {
  const height = rank === 1 ? 26 : rank <= 4 ? 13 : rank <= 6 ? 9 : 7.5;
  return PIP_LAYOUTS[rank]
    .map((point, index) => {
      const [x, y] = pipCentre(point);
      const colour = rank === 1 || (rank >= 5 && index === 2 && rank !== 6) ? RED : GREEN;
      const width = rank === 1 ? 7 : 4;
      return (
        `<rect x="${x - width / 2}" y="${y - height / 2}" width="${width}" height="${height}" rx="2" fill="${colour}"/>` +
        `<line x1="${x - width / 2}" x2="${x + width / 2}" y1="${y}" y2="${y}" stroke="#fff" stroke-width="0.8"/>`
      );
    })
    .join("");
}

function cornerIndex(text, colour) {
  return `<text x="4" y="11.5" class="tile-index" fill="${colour}">${text}</text>`;
}

function learnerHonour(rank) {
  if (rank <= 4) {
    return `<text x="18" y="31" class="tile-big" fill="#111">${"ESWN"[rank - 1]}</text><text x="18" y="43" class="tile-word" fill="#444">WIND</text>`;
  }
  if (rank === 5) return traditionalHonour(5);
  if (rank === 6) return `<text x="18" y="31" class="tile-big" fill="${GREEN}">F</text><text x="18" y="43" class="tile-word" fill="${GREEN}">GREEN</text>`;
  // The red dragon's character (zhong) is simple enough to draw: a box cut by a stroke.
  return (
    `<rect x="8" y="13" width="20" height="13" rx="1.5" fill="none" stroke="${RED}" stroke-width="3"/>` +
    `<line x1="18" y1="5" x2="18" y2="37" stroke="${RED}" stroke-width="3.4" stroke-linecap="round"/>` +
    `<text x="18" y="45" class="tile-word" fill="${RED}">RED</text>`
  );
}

function learnerArt(tile, suit, rank) {
  if (tile === "j") {
    return (
      `<path d="M18 7 L21.5 16.5 L31 17 L23.5 23 L26 32.5 L18 27 L10 32.5 L12.5 23 L5 17 L14.5 16.5 Z" fill="${PURPLE}"/>` +
      `<text x="18" y="43" class="tile-word" fill="${PURPLE}">FEI</text>`
    );
  }
  if (suit === "p") return learnerDots(rank) + cornerIndex(rank, "#111");
  if (suit === "s") return learnerBamboo(rank) + cornerIndex(rank, "#111");
  if (suit === "m") return `<text x="18" y="27" class="tile-big" fill="${BLUE}">${rank}</text><text x="18" y="42" class="tile-word" fill="${RED}">WAN</text>`;
  if (suit === "z") return learnerHonour(rank);
  const family = LEARNER_BONUS[suit];
  if (family) {
    return (
      `<rect x="5" y="5" width="26" height="6" rx="2" fill="${family.colour}"/>` +
      `<text x="18" y="33" class="tile-big" fill="${family.colour}">${rank}</text>` +
      `<text x="18" y="43" class="tile-word" fill="${family.colour}">${family.name}</text>`
    );
  }
  return `<text x="18" y="30" class="tile-big">?</text>`;
}

/** The tile sets offered. */
export const TILE_SETS = ["traditional", "learner"];

/** The SVG markup of a tile's face in `set` (its back when `tile` is null). */
export function faceSvg(tile, set) {
  if (tile === null) return `<svg viewBox="0 0 36 48" aria-hidden="true" focusable="false"><rect x="1" y="1" width="34" height="46" rx="4" class="tile-back"/></svg>`;
  const suit = tile[tile.length - 1];
  const rank = tile === "j" ? 0 : Number(tile[0]);
  const art = set === "learner" ? learnerArt(tile, suit, rank) : traditionalArt(tile, suit, rank);
  return `<svg viewBox="0 0 36 48" aria-hidden="true" focusable="false"><rect x="1" y="1" width="34" height="46" rx="4" class="tile-face"/>${art}</svg>`;
}
