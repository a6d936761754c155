// Words for what the server sends: actions, patterns, payment reasons, winds, tables.
//
// The client never decides what is legal or what scores; it only names what the server
// already decided, in the page's language (i18n.js). An id no catalogue knows still gets
// a readable label, so a new pattern on the server shows up without a client change.

import { has, t } from "./i18n.js";
import { asTileList, compareTiles, tileRank, tileShortName, tileSuit } from "./tiles.js";

/**
 * A player's name as shown: the server names its bots "Bot 2" (server/rooms/players.py),
 * the page words them in its language ("電腦 2"). Takes a name, or a player with `name`
 * and `is_bot`; a person who happens to be called "Bot 2" is left alone when `is_bot`
 * says so.
 */
export function playerName(nameOrPlayer, isBot) {
  const player = typeof nameOrPlayer === "object" && nameOrPlayer !== null ? nameOrPlayer : { name: nameOrPlayer, is_bot: isBot };
  const name = player.name === null || player.name === undefined ? "" : String(player.name);
  const bot = /^Bot (\d+)$/.exec(name);
  if (bot && player.is_bot !== false) return t("seat.bot_name", { number: Number(bot[1]) });
  return name;
}

/** The table's name: "3 Kaki", "Hong Kong". */
export function variantName(variant) {
  return has(`variant.${variant}`) ? t(`variant.${variant}`) : String(variant || "");
}

/** A seat's wind in words: "East". */
export function windName(seat) {
  return has(`wind.${seat}`) ? t(`wind.${seat}`) : String(seat || "");
}

function readableId(id) {
  const text = String(id).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A pattern id in words: "dragon_set" -> "Dragon set" (三元牌, ...). */
export function patternName(id) {
  return has(`pattern.${id}`) ? t(`pattern.${id}`) : readableId(id);
}

/** A payment reason in words. */
export function paymentReason(reason) {
  return has(`payment.${reason}`) ? t(`payment.${reason}`) : readableId(reason);
}

/** A server error code in words (the server's own English text is the last resort). */
export function errorText(code, fallback) {
  if (has(`error.${code}`)) return t(`error.${code}`);
  return fallback || t("error.refused");
}

/**
 * "4-5-6 Dots" (四五六筒) for a run, the tiles in order with a Fei replaced by what it
 * stands for. `ranks` is the digits with dashes, `numerals` the language's own numerals
 * run together (Chinese writes 四五六筒, never 4-5-6筒).
 */
export function runName(tiles) {
  const sorted = [...asTileList(tiles)].sort(compareTiles);
  const suit = tileSuit(sorted[0]);
  const ranks = sorted.map(tileRank);
  return t(`run.${suit}`, { ranks: ranks.join("-"), numerals: ranks.map((rank) => t(`numeral.${rank}`)).join("") });
}

/** Tiles in words, one after another: "5 Dots, 5 Dots, Fei" (a set shown as text). */
export function tilesInWords(tiles) {
  return asTileList(tiles).map(tileShortName).join(t("list.comma"));
}

/**
 * The button text for a legal action. `claimedTile` is the discard being claimed (for
 * chow, pong and kong), which completes the set in the label.
 */
export function actionLabel(action, claimedTile) {
  const handTiles = asTileList(action.tiles || []);
  const withFei = handTiles.includes("j");
  const feiNote = withFei && action.fei_as ? t("action.fei_as", { tile: tileShortName(action.fei_as) }) : "";
  switch (action.type) {
    case "discard":
      return t("action.discard", { tile: tileShortName(action.tile) });
    case "chow": {
      const real = handTiles.map((tile) => (tile === "j" ? action.fei_as : tile)).filter(Boolean);
      if (claimedTile) real.push(claimedTile);
      return real.length === 3 ? t("action.chow_run", { run: runName(real), fei: feiNote }) : t("action.chow", { fei: feiNote });
    }
    case "pong": {
      const tile = claimedTile || handTiles.find((item) => item !== "j") || action.fei_as;
      return t(withFei ? "action.pong_fei" : "action.pong", { tile: tileShortName(tile) });
    }
    case "kong":
      return t("action.kong", { tile: tileShortName(claimedTile || handTiles[0]) });
    case "concealed_kong":
      return t("action.concealed_kong", { tile: tileShortName(action.tile) });
    case "added_kong":
      return t("action.added_kong", { tile: tileShortName(action.tile) });
    case "win":
      return t("action.win");
    case "pass":
      return t("action.pass");
    case "sink":
      return t("action.sink");
    case "swap":
      return t("action.swap", { tile: tileShortName(action.tile) });
    default:
      return has(`action.${action.type}`) ? t(`action.${action.type}`) : readableId(action.type || "action");
  }
}

const CLAIMS = ["chow", "pong", "kong"];
const BUTTON_ACTIONS = ["discard", "chow", "pong", "kong", "concealed_kong", "added_kong", "win", "pass", "sink", "swap"];

/**
 * One move of a finished deal in words, as the dashboard and the replay list them: the
 * action's button label, with the claimed discard completing a chow's run. `lastDiscard`
 * is the tile most recently thrown before this move (a stored claim does not repeat it).
 * Moves no button offers (a timeout) read as their own words.
 */
export function moveLabel(action, lastDiscard) {
  const type = action.type || "action";
  if (BUTTON_ACTIONS.includes(type)) return actionLabel(action, CLAIMS.includes(type) ? lastDiscard || null : null);
  return has(`dash.action.${type}`) ? t(`dash.action.${type}`) : readableId(type);
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
    if (names.length > 1) return t("outcome.winners", { names: names.join(t("list.and")) });
    return t("outcome.winner", { name: names[0] || t("outcome.somebody") });
  }
  if (result.outcome === "timeout") return t("outcome.timeout");
  return t("outcome.draw");
}
