// Tiles: names, ordering and the faces the table draws.
//
// Tiles arrive in the project's "mpsz" notation ("5p", "7z", "1f", "j"). Faces come from
// tile_faces.js in the tile set this browser chose ("traditional" unless the player picked
// "learner"). Every tile carries an aria-label in words of the page's language ("5 of
// dots", "五筒"), so screen readers and tests read the same thing people see.

import { t } from "./i18n.js";
import { preference, setPreference } from "./preferences.js";
import { TILE_SETS, faceSvg } from "./tile_faces.js";

const SUIT_ORDER = "mpszfnacj";

/** The tile set of this page: the remembered choice, else the traditional one. */
export const TILE_SET = TILE_SETS.includes(preference("tiles")) ? preference("tiles") : "traditional";

/** Remembers another tile set (the page redraws itself with it on reload). */
export function chooseTileSet(set) {
  if (TILE_SETS.includes(set)) setPreference("tiles", set);
}

/** The tile's suit letter ("j" for a Fei). */
export function tileSuit(tile) {
  return tile[tile.length - 1];
}

/** The tile's number, 0 for a Fei. */
export function tileRank(tile) {
  return tile === "j" ? 0 : Number(tile[0]);
}

function numberWords(rank) {
  return { rank, numeral: t(`numeral.${rank}`) };
}

/** A tile in words, as used for aria-labels: "5 of dots", "Red dragon", "Flower 3", "Fei (joker)". */
export function tileName(tile) {
  if (tile === "j") return t("tile.fei");
  const suit = tileSuit(tile);
  const rank = tileRank(tile);
  if ("mps".includes(suit)) return t(`tile.${suit}`, numberWords(rank));
  return t(`tile.${suit}.${rank}`);
}

/** A tile as short button text: "5p", "East", "Red", "Fei" (五筒, 東, 中, 飛 in Chinese). */
export function tileShortName(tile) {
  if (tile === "j") return t("tile.short.j");
  const suit = tileSuit(tile);
  const rank = tileRank(tile);
  if ("mps".includes(suit)) return t(`tile.short.${suit}`, numberWords(rank));
  if (suit === "z") return t(`tile.short.z.${rank}`);
  return t(`tile.${suit}.${rank}`);
}

/** Orders tiles as the engine does: by suit (m p s z f n a c, Fei last), then by number. */
export function compareTiles(a, b) {
  const bySuit = SUIT_ORDER.indexOf(tileSuit(a)) - SUIT_ORDER.indexOf(tileSuit(b));
  return bySuit !== 0 ? bySuit : tileRank(a) - tileRank(b);
}

/** Reads notation such as "55p j 123p" into a list of tiles (the wire writes claims so). */
export function parseTiles(text) {
  const tiles = [];
  let digits = "";
  for (const char of String(text || "")) {
    if (char >= "0" && char <= "9") digits += char;
    else if (char === "j") tiles.push("j");
    else if (/[a-z]/.test(char)) {
      for (const digit of digits) tiles.push(digit + char);
      digits = "";
    }
  }
  return tiles;
}

/** Accepts either a list of tiles or notation text, and gives a list. */
export function asTileList(tiles) {
  return Array.isArray(tiles) ? tiles : parseTiles(tiles);
}

/** The SVG markup of a tile's face in this page's set (or its back when `tile` is null). */
export function tileSvg(tile) {
  return faceSvg(tile, TILE_SET);
}

// Drawn faces are kept and cloned: cloning a finished SVG is several times cheaper than
// parsing its markup again, and a state redraw shows a hundred tiles or more.
const drawnFaces = new Map();

function drawnFace(tile) {
  let face = drawnFaces.get(tile);
  if (!face) {
    const holder = document.createElement("span");
    holder.innerHTML = tileSvg(tile);
    face = holder.firstChild;
    drawnFaces.set(tile, face);
  }
  return face.cloneNode(true);
}

/**
 * A tile element. `options.tag` picks the element ("span" by default, "button" for hand
 * tiles), `options.size` one of "sm", "md", "lg", and `options.classes` extra classes.
 */
export function tileElement(tile, options = {}) {
  const element = document.createElement(options.tag || "span");
  element.className = ["tile", `tile-${options.size || "md"}`, `tiles-${TILE_SET}`, ...(options.classes || [])].join(" ");
  element.append(drawnFace(tile));
  element.dataset.tile = tile === null ? "" : tile;
  if (tile === null) {
    element.setAttribute("aria-label", t("tile.hidden"));
  } else {
    element.setAttribute("aria-label", tileName(tile));
    element.title = tileName(tile);
  }
  if (element.tagName !== "BUTTON") element.setAttribute("role", "img");
  return element;
}

/** A row of tiles in one container element. */
export function tileRow(tiles, options = {}) {
  const row = document.createElement("span");
  row.className = "tile-row";
  for (const tile of asTileList(tiles)) row.append(tileElement(tile, options));
  return row;
}
