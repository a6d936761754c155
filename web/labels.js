// Words for what the server sends: actions, patterns, payment reasons, winds.
//
// The client never decides what is legal or what scores; it only names what the server
// already decided. Unknown ids still get a readable label, so a new pattern on the server
// shows up without a client change.

import { asTileList, compareTiles, tileRank, tileShortName, tileSuit } from "./tiles.js";

export const VARIANT_NAMES = { hk: "Hong Kong", kaki3: "3 Kaki" };
export const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };

const PATTERN_NAMES = {
  // Both tables
  seat_wind_set: "Seat wind set",
  round_wind_set: "Round wind set",
  dragon_set: "Dragon set",
  half_flush: "Half flush",
  full_flush: "Full flush",
  all_honours: "All honours",
  big_three_dragons: "Big three dragons",
  big_dragons: "Big three dragons",
  little_dragons: "Small three dragons",
  big_four_winds: "Big four winds",
  big_winds: "Big four winds",
  small_four_winds: "Small four winds",
  little_winds: "Small four winds",
  nine_gates: "Nine gates",
  four_kongs: "Four kongs",
  heavenly_hand: "Heavenly hand",
  earthly_hand: "Earthly hand",
  // Hong Kong
  self_draw: "Self-drawn",
  all_pungs: "All pungs",
  seven_pairs: "Seven pairs",
  thirteen_orphans: "Thirteen orphans",
  all_terminals: "All terminals",
  four_concealed_pungs: "Four concealed pungs",
  // 3 Kaki
  dong_set: "East set (Dong)",
  bei_set: "North set (Bei)",
  all_chow: "All chow",
  all_pong: "All pong",
  four_concealed_pongs: "Kang Kang Hu (four concealed pongs)",
  animal: "Animal",
  face_tile: "Face tile",
  own_flower: "Own flower",
  own_season: "Own season",
  flower_4: "Flower 4",
  season_4: "Season 4",
  all_four_flowers: "All four flowers",
  all_four_seasons: "All four seasons",
  fei_set_aside: "Sunk Fei",
  four_fei: "Four Fei",
  no_bonus_tiles: "No bonus tiles",
  all_sixteen_bonus_tiles: "All sixteen bonus tiles",
  bonus_replacement_win: "Win on a bonus replacement",
  kong_replacement_win: "Win on a kong replacement",
  kong_upon_kong: "Kong upon kong",
  robbing_the_kong: "Robbing the kong",
  last_tile_win: "Win on the last tile",
  last_discard_win: "Win on the last discard",
};

const PAYMENT_REASONS = {
  win: "Win",
  liability: "Liability (dragon)",
  kong: "Kong",
  family: "Family",
  extra_fei: "Extra Fei",
  square_up: "Squaring up",
};

function readableId(id) {
  const text = String(id).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A pattern id in words: "dragon_set" -> "Dragon set". */
export function patternName(id) {
  return PATTERN_NAMES[id] || readableId(id);
}

/** A payment reason in words. */
export function paymentReason(reason) {
  return PAYMENT_REASONS[reason] || readableId(reason);
}

/** "4-5-6p" for a run, the tiles in order with a Fei replaced by what it stands for. */
function runName(tiles) {
  const sorted = [...tiles].sort(compareTiles);
  const suit = tileSuit(sorted[0]);
  return `${sorted.map(tileRank).join("-")}${suit}`;
}

/**
 * The button text for a legal action. `claimedTile` is the discard being claimed (for
 * chow, pong and kong), which completes the set in the label.
 */
export function actionLabel(action, claimedTile) {
  const handTiles = asTileList(action.tiles || []);
  const withFei = handTiles.includes("j");
  const feiNote = withFei && action.fei_as ? ` (Fei as ${tileShortName(action.fei_as)})` : "";
  switch (action.type) {
    case "discard":
      return `Discard ${tileShortName(action.tile)}`;
    case "chow": {
      const real = handTiles.map((tile) => (tile === "j" ? action.fei_as : tile)).filter(Boolean);
      if (claimedTile) real.push(claimedTile);
      return real.length === 3 ? `Chow ${runName(real)}${feiNote}` : `Chow${feiNote}`;
    }
    case "pong": {
      const tile = claimedTile || handTiles.find((t) => t !== "j") || action.fei_as;
      return `Pong ${tileShortName(tile)}${withFei ? " with Fei" : ""}`;
    }
    case "kong":
      return `Kong ${tileShortName(claimedTile || handTiles[0])}`;
    case "concealed_kong":
      return `Kong ${tileShortName(action.tile)} (concealed)`;
    case "added_kong":
      return `Kong ${tileShortName(action.tile)} (add to pong)`;
    case "win":
      return "Win";
    case "pass":
      return "Pass";
    case "sink":
      return "Sink Fei";
    case "swap":
      return `Swap ${tileShortName(action.tile)} for Fei`;
    default:
      return readableId(action.type || "action");
  }
}

/** Sort rank for action buttons: the win first, pass last, so the big choice stands out. */
export function actionOrder(action) {
  const order = ["win", "kong", "concealed_kong", "added_kong", "pong", "chow", "swap", "sink", "pass"];
  const index = order.indexOf(action.type);
  return index === -1 ? order.length - 1 : index;
}

/** The words for a deal's end: "Ana wins", "Drawn deal", "Time's up". */
export function outcomeTitle(result, nameOfSeat) {
  if (result.outcome === "win") {
    const names = (result.winners || []).map((winner) => nameOfSeat(winner.seat));
    return names.length > 1 ? `${names.join(" and ")} win` : `${names[0] || "Somebody"} wins`;
  }
  if (result.outcome === "timeout") return "Time's up: the deal ends with no winner";
  return "Drawn deal: the wall is exhausted";
}
