// Words for what the server sends: actions, patterns, payment reasons, winds.
//
// The client never decides what is legal or what scores; it only names what the server
// already decided. Unknown ids still get a readable label, so a new pattern on the server
// shows up without a client change.

import { asTileList, compareTiles, tileRank, tileShortName, tileSuit } from "./tiles.js";

export const VARIANT_NAMES = { hk: "Hong Kong", kaki3: "3 Kaki" };
export const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };

const PATTERN_NAMES = {
  seat_wind_set: "Seat wind set",
  round_wind_set: "Round wind set",
  east_set: "East set",
  north_set: "North set",
  dragon_set: "Dragon set",
  self_draw: "Self-drawn",
  all_pungs: "All pungs",
  all_pongs: "All pongs",
  all_chows: "All chows",
  all_chow: "All chow",
  half_flush: "Half flush",
  full_flush: "Full flush",
  seven_pairs: "Seven pairs",
  thirteen_orphans: "Thirteen orphans",
  big_three_dragons: "Big three dragons",
  small_three_dragons: "Small three dragons",
  small_four_winds: "Small four winds",
  big_four_winds: "Big four winds",
  all_honours: "All honours",
  all_terminals: "All terminals",
  nine_gates: "Nine gates",
  four_concealed_pungs: "Four concealed pungs",
  four_kongs: "Four kongs",
  heavenly_hand: "Heavenly hand",
  earthly_hand: "Earthly hand",
  kang_kang_hu: "Kang Kang Hu",
  no_bonus_tiles: "No bonus tiles",
  all_bonus_tiles: "All bonus tiles",
  four_fei: "Four Fei",
  sunk_fei: "Sunk Fei",
  animal: "Animal",
  face: "Face tile",
  own_flower: "Own flower",
  own_season: "Own season",
  flower_4: "Flower 4",
  season_4: "Season 4",
  all_four_flowers: "All four flowers",
  all_four_seasons: "All four seasons",
  replacement_win: "Win on a replacement tile",
  bonus_replacement: "Win on a bonus replacement",
  kong_replacement: "Win on a kong replacement",
  robbing_kong: "Robbing a kong",
  last_tile: "Last tile",
  last_discard: "Last discard",
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
