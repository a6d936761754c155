// The hand being entered, as the form holds it, and the hand body it becomes
// (docs/protocol.md, "Ledgers"). The page never scores or settles: it only collects what
// the table says and sends it; the server's engine answers.
//
// A draft: {outcome, winner, discarder (null: self-drawn), hand: {concealed, melds, bonus,
// winning}, flags, losers: {player: {bonus, sets, fei}}, liable, kongHow: {key: {kind,
// from}}, otherKongs, inDeal (families complete in the deal, "player:family"),
// drawFamilies (player:family of a drawn hand), lastToDraw}.

import { parseTiles } from "./tiles.js";

export const QUESTIONS = ["last_tile", "last_discard", "robbing_kong", "heavenly", "earthly", "kong_upon_kong"];
export const FAMILIES = { flowers: "f", seasons: "n", animals: "a", faces: "c" };
export const DRAGONS = ["5z", "6z", "7z"];
const BONUS_SUITS = "fnac";

/** A fresh draft. */
export function emptyDraft() {
  return {
    outcome: null,
    winner: null,
    discarder: undefined, // undefined: not asked yet; null: a self-draw
    hand: { concealed: [], melds: [], bonus: [], winning: null },
    flags: {},
    losers: {},
    liable: null,
    kongHow: {},
    otherKongs: [],
    inDeal: new Set(),
    drawFamilies: new Set(),
    lastToDraw: null,
    moreWinners: null,
  };
}

/** The loser record of `player` (made on first use). */
export function loserOf(draft, player) {
  if (!draft.losers[player]) draft.losers[player] = { bonus: [], sets: [], fei: 0 };
  return draft.losers[player];
}

/** The tiles a set stands for, a Fei replaced by what it stands for. */
export function realTiles(meld) {
  return meld.tiles.map((tile) => (tile === "j" ? meld.fei_as : tile));
}

/** How many copies of each tile the draft shows at the table, Fei and bonus tiles too. */
export function tileCounts(draft, players) {
  const counts = {};
  const count = (tile, by = 1) => {
    counts[tile] = (counts[tile] || 0) + by;
  };
  draft.hand.concealed.forEach((tile) => count(tile));
  draft.hand.melds.forEach((meld) => meld.tiles.forEach((tile) => count(tile)));
  draft.hand.bonus.forEach((tile) => count(tile));
  for (const player of losersOf(draft, players)) {
    const loser = draft.losers[player];
    if (!loser) continue;
    loser.bonus.filter((tile) => tile !== "j").forEach((tile) => count(tile));
    loser.sets.forEach((meld) => meld.tiles.filter((tile) => tile !== "j").forEach((tile) => count(tile)));
    count("j", loser.fei);
  }
  return counts;
}

/** How many of `tile` exist at the table. */
export function copiesOf(tile) {
  return BONUS_SUITS.includes(tile[tile.length - 1]) ? 1 : 4;
}

/** The players who lost the draft's win (none before a winner is chosen). */
export function losersOf(draft, players) {
  if (draft.outcome !== "win" || draft.winner === null) return [];
  return [...Array(players).keys()].filter((player) => player !== draft.winner);
}

/** Whether the winner shows sets of two different dragons (dragon liability can apply). */
export function showsTwoDragons(draft) {
  const shown = new Set(draft.hand.melds.filter((meld) => meld.kind !== "chow").map((meld) => realTiles(meld)[0]));
  return DRAGONS.filter((dragon) => shown.has(dragon)).length >= 2;
}

/** The complete families among `bonus`. */
export function completeFamilies(bonus) {
  return Object.entries(FAMILIES)
    .filter(([, letter]) => [1, 2, 3, 4].every((rank) => bonus.includes(`${rank}${letter}`)))
    .map(([family]) => family);
}

/** The shown kongs whose making must be told, each with its key: the winner's and the
 *  3 Kaki losers' shown (not concealed) kongs. */
export function kongsToTell(draft, players) {
  const kongs = [];
  draft.hand.melds.forEach((meld, index) => {
    if (meld.kind === "kong" && !meld.concealed) kongs.push({ key: `w:${index}`, player: draft.winner, meld });
  });
  for (const player of losersOf(draft, players)) {
    (draft.losers[player]?.sets || []).forEach((meld, index) => {
      if (meld.kind === "kong" && !meld.concealed) kongs.push({ key: `${player}:${index}`, player, meld });
    });
  }
  return kongs;
}

/** How many concealed tiles a winning hand holds with this many shown sets. */
export function handSize(draft) {
  return 14 - 3 * draft.hand.melds.length;
}

function tilesText(tiles) {
  return tiles.join(" ");
}

function meldBody(meld) {
  const body = { kind: meld.kind, tiles: tilesText(meld.tiles) };
  if (meld.concealed) body.concealed = true;
  if (meld.fei_as) body.fei_as = meld.fei_as;
  return body;
}

function kongEntries(draft, players) {
  const kongs = [];
  const concealedOf = (player, melds) => melds.filter((meld) => meld.kind === "kong" && meld.concealed).forEach(() => kongs.push({ player, kind: "concealed" }));
  if (draft.outcome === "win") {
    concealedOf(draft.winner, draft.hand.melds);
    for (const player of losersOf(draft, players)) concealedOf(player, draft.losers[player]?.sets || []);
    for (const { key, player } of kongsToTell(draft, players)) {
      const how = draft.kongHow[key] || {};
      kongs.push(how.kind === "added" ? { player, kind: "added" } : { player, kind: "exposed", from: how.from ?? null });
    }
  }
  return kongs.concat(draft.otherKongs);
}

function familyEntries(draft, players, kaki3) {
  if (!kaki3) return [];
  if (draft.outcome === "draw") {
    return [...draft.drawFamilies].map((key) => {
      const [player, family] = key.split(":");
      return { player: Number(player), family, in_deal: draft.inDeal.has(key) };
    });
  }
  const families = [];
  const add = (player, bonus) => completeFamilies(bonus).forEach((family) => families.push({ player, family, in_deal: draft.inDeal.has(`${player}:${family}`) }));
  add(draft.winner, draft.hand.bonus);
  for (const player of losersOf(draft, players)) add(player, draft.losers[player]?.bonus || []);
  return families;
}

/** The hand body of the draft, for a table of `players` (3 Kaki when `kaki3`). */
export function handBody(draft, players, kaki3) {
  const body = { outcome: draft.outcome };
  if (draft.outcome === "win") {
    const win = {};
    for (const name of QUESTIONS) if (draft.flags[name]) win[name] = true;
    if (draft.flags.replacement) win.replacement = draft.flags.replacement;
    Object.assign(body, {
      winner: draft.winner,
      discarder: draft.discarder ?? null,
      hand: {
        concealed: tilesText(draft.hand.concealed),
        melds: draft.hand.melds.map(meldBody),
        bonus: tilesText(draft.hand.bonus),
        winning_tile: draft.hand.winning || draft.hand.concealed[draft.hand.concealed.length - 1] || "",
        win,
      },
    });
    if (draft.moreWinners && draft.discarder !== null) body.more_winners = draft.moreWinners;
    if (kaki3) {
      body.losers = losersOf(draft, players).map((player) => {
        const loser = draft.losers[player] || { bonus: [], sets: [], fei: 0 };
        return { player, bonus: tilesText(loser.bonus), sets: loser.sets.map(meldBody), fei: loser.fei };
      });
      if (draft.liable !== null && showsTwoDragons(draft)) body.liable = draft.liable;
    }
  } else if (kaki3) {
    body.last_to_draw = draft.lastToDraw;
  }
  const kongs = kongEntries(draft, players);
  if (kongs.length) body.kongs = kongs;
  const families = familyEntries(draft, players, kaki3);
  if (families.length) body.families = families;
  return body;
}

function melds(list) {
  return (list || []).map((meld) => ({ kind: meld.kind, tiles: parseTiles(meld.tiles), concealed: Boolean(meld.concealed), fei_as: meld.fei_as || null }));
}

/** A draft from a stored hand (to change it). */
export function draftOf(entry, players) {
  const draft = emptyDraft();
  draft.outcome = entry.outcome;
  if (entry.outcome === "win") {
    draft.winner = entry.winner;
    draft.discarder = entry.discarder;
    const hand = entry.hand;
    draft.hand = { concealed: parseTiles(hand.concealed), melds: melds(hand.melds), bonus: parseTiles(hand.bonus), winning: hand.winning_tile };
    draft.flags = { ...(hand.win || {}) };
    for (const loser of entry.losers || []) draft.losers[loser.player] = { bonus: parseTiles(loser.bonus), sets: melds(loser.sets), fei: loser.fei || 0 };
    draft.liable = entry.liable ?? null;
    // Several Hong Kong winners are entered through the API; a change here keeps them.
    draft.moreWinners = entry.more_winners || null;
  }
  draft.lastToDraw = entry.last_to_draw ?? null;
  for (const family of entry.families || []) {
    const key = `${family.player}:${family.family}`;
    if (entry.outcome === "draw") draft.drawFamilies.add(key);
    if (family.in_deal) draft.inDeal.add(key);
  }
  // Kongs of the shown sets take their entries in order; the rest are other kongs.
  const left = [...(entry.kongs || [])];
  const take = (player, test) => {
    const at = left.findIndex((kong) => kong.player === player && test(kong));
    return at === -1 ? null : left.splice(at, 1)[0];
  };
  if (entry.outcome === "win") {
    const concealed = (player, list) => list.filter((meld) => meld.kind === "kong" && meld.concealed).forEach(() => take(player, (kong) => kong.kind === "concealed"));
    concealed(draft.winner, draft.hand.melds);
    for (const [player, loser] of Object.entries(draft.losers)) concealed(Number(player), loser.sets);
    for (const { key, player } of kongsToTell(draft, players)) {
      const kong = take(player, (found) => found.kind !== "concealed");
      if (kong) draft.kongHow[key] = { kind: kong.kind, from: kong.from ?? null };
    }
  }
  draft.otherKongs = left;
  return draft;
}
