// Tiles: names, ordering and the SVG faces the table draws.
//
// Tiles arrive in the project's "mpsz" notation ("5p", "7z", "1f", "j"). Faces are drawn
// as inline SVG with Latin text only, because self-hosted machines often lack CJK fonts
// and the client may load nothing from the network. Every tile carries an aria-label in
// words ("5 of dots"), so screen readers and tests read the same thing people see.

const SUIT_NAMES = { m: "characters", p: "dots", s: "bamboo" };
const SUIT_SHORT = { m: "m", p: "p", s: "s" };
const HONOUR_NAMES = {
  1: "East wind",
  2: "South wind",
  3: "West wind",
  4: "North wind",
  5: "White dragon",
  6: "Green dragon",
  7: "Red dragon",
};
const HONOUR_SHORT = { 1: "East", 2: "South", 3: "West", 4: "North", 5: "White", 6: "Green", 7: "Red" };
const BONUS_FAMILIES = {
  f: { name: "Flower", colour: "#c2185b" },
  n: { name: "Season", colour: "#e65100" },
  a: { name: "Animal", colour: "#6d4c41" },
  c: { name: "Face", colour: "#1565c0" },
};
const SUIT_ORDER = "mpszfnacj";

/** The tile's suit letter ("j" for a Fei). */
export function tileSuit(tile) {
  return tile[tile.length - 1];
}

/** The tile's number, 0 for a Fei. */
export function tileRank(tile) {
  return tile === "j" ? 0 : Number(tile[0]);
}

/** A tile in words, as used for aria-labels: "5 of dots", "Red dragon", "Fei (joker)". */
export function tileName(tile) {
  if (tile === "j") return "Fei (joker)";
  const suit = tileSuit(tile);
  const rank = tileRank(tile);
  if (SUIT_NAMES[suit]) return `${rank} of ${SUIT_NAMES[suit]}`;
  if (suit === "z") return HONOUR_NAMES[rank] || tile;
  if (BONUS_FAMILIES[suit]) return `${BONUS_FAMILIES[suit].name} ${rank}`;
  return tile;
}

/** A tile as short button text: "5p", "East", "Red", "Fei". */
export function tileShortName(tile) {
  if (tile === "j") return "Fei";
  const suit = tileSuit(tile);
  if (suit === "z") return HONOUR_SHORT[tileRank(tile)] || tile;
  if (BONUS_FAMILIES[suit]) return `${BONUS_FAMILIES[suit].name} ${tileRank(tile)}`;
  return `${tileRank(tile)}${SUIT_SHORT[suit] || suit}`;
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
const PIP_COLOURS = ["#1a3d8f", "#c62828", "#2e7d32"];

// The pips sit below the corner index, squeezed into the lower 34 units of the face.
function pipCentre([x, y]) {
  return [x + 3, 12.5 + y * 0.8];
}

function dotPips(rank) {
  const radius = rank === 1 ? 9 : rank <= 4 ? 5.3 : rank <= 6 ? 4.3 : 3.7;
  return PIP_LAYOUTS[rank]
    .map((point, index) => {
      const [x, y] = pipCentre(point);
      const colour = rank === 1 ? "#c62828" : PIP_COLOURS[(index + rank) % 3];
      return (
        `<circle cx="${x}" cy="${y}" r="${radius}" fill="none" stroke="${colour}" stroke-width="1.7"/>` +
        `<circle cx="${x}" cy="${y}" r="${radius * 0.45}" fill="${colour}"/>`
      );
    })
    .join("");
}

function bambooPips(rank) {
  const height = rank === 1 ? 26 : rank <= 4 ? 13 : rank <= 6 ? 9 : 7.5;
  return PIP_LAYOUTS[rank]
    .map((point, index) => {
      const [x, y] = pipCentre(point);
      const colour = rank === 1 || (rank >= 5 && index === 2 && rank !== 6) ? "#c62828" : "#2e7d32";
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

function faceArt(tile) {
  const suit = tileSuit(tile);
  const rank = tileRank(tile);
  if (tile === "j") {
    return (
      `<path d="M18 7 L21.5 16.5 L31 17 L23.5 23 L26 32.5 L18 27 L10 32.5 L12.5 23 L5 17 L14.5 16.5 Z" fill="#7b1fa2"/>` +
      `<text x="18" y="43" class="tile-word" fill="#7b1fa2">FEI</text>`
    );
  }
  if (suit === "p") return dotPips(rank) + cornerIndex(rank, "#111");
  if (suit === "s") return bambooPips(rank) + cornerIndex(rank, "#111");
  if (suit === "m") {
    return (
      `<text x="18" y="27" class="tile-big" fill="#1a3d8f">${rank}</text>` +
      `<text x="18" y="42" class="tile-word" fill="#c62828">WAN</text>`
    );
  }
  if (suit === "z") return honourArt(rank);
  const family = BONUS_FAMILIES[suit];
  if (family) {
    return (
      `<rect x="5" y="5" width="26" height="6" rx="2" fill="${family.colour}"/>` +
      `<text x="18" y="33" class="tile-big" fill="${family.colour}">${rank}</text>` +
      `<text x="18" y="43" class="tile-word" fill="${family.colour}">${family.name.toUpperCase()}</text>`
    );
  }
  return `<text x="18" y="30" class="tile-big">?</text>`;
}

function honourArt(rank) {
  if (rank <= 4) {
    const letter = "ESWN"[rank - 1];
    return (
      `<text x="18" y="31" class="tile-big" fill="#111">${letter}</text>` +
      `<text x="18" y="43" class="tile-word" fill="#444">WIND</text>`
    );
  }
  if (rank === 5) {
    // The white dragon is traditionally a blue frame on a blank face.
    return (
      `<rect x="7" y="8" width="22" height="30" rx="2" fill="none" stroke="#1a3d8f" stroke-width="2.4"/>` +
      `<rect x="11" y="12" width="14" height="22" rx="1" fill="none" stroke="#1a3d8f" stroke-width="1.2"/>`
    );
  }
  if (rank === 6) {
    return (
      `<text x="18" y="31" class="tile-big" fill="#2e7d32">F</text>` +
      `<text x="18" y="43" class="tile-word" fill="#2e7d32">GREEN</text>`
    );
  }
  // The red dragon's character (zhong) is simple enough to draw: a box cut by a stroke.
  return (
    `<rect x="8" y="13" width="20" height="13" rx="1.5" fill="none" stroke="#c62828" stroke-width="3"/>` +
    `<line x1="18" y1="5" x2="18" y2="37" stroke="#c62828" stroke-width="3.4" stroke-linecap="round"/>` +
    `<text x="18" y="45" class="tile-word" fill="#c62828">RED</text>`
  );
}

/** The SVG markup of a tile's face (or its back when `tile` is null). */
export function tileSvg(tile) {
  const body =
    tile === null
      ? `<rect x="1" y="1" width="34" height="46" rx="4" class="tile-back"/>`
      : `<rect x="1" y="1" width="34" height="46" rx="4" class="tile-face"/>${faceArt(tile)}`;
  return `<svg viewBox="0 0 36 48" aria-hidden="true" focusable="false">${body}</svg>`;
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
  element.className = ["tile", `tile-${options.size || "md"}`, ...(options.classes || [])].join(" ");
  element.append(drawnFace(tile));
  element.dataset.tile = tile === null ? "" : tile;
  if (tile === null) {
    element.setAttribute("aria-label", "hidden tile");
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
