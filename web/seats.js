// A seat's panel: who sits there and what lies in front of them on the table.

import { element } from "./dom.js";
import { WIND_NAMES } from "./labels.js";
import { tileElement, tileRow, tileShortName } from "./tiles.js";

/** The room's player record sitting at `seat` in the current deal, or null. */
export function playerAtSeat(state, seat) {
  const players = (state.room && state.room.players) || [];
  return players.find((player) => player.seat === seat) || null;
}

/** "Ana" for a seat, falling back to the wind when nobody is known there. */
export function seatName(state, seat) {
  const player = playerAtSeat(state, seat);
  return player ? player.name : WIND_NAMES[seat] || seat;
}

/** The seats other than mine, in turn order starting after me (all seats for a spectator). */
export function otherSeatsInTurnOrder(state) {
  const seats = state.seats || [];
  if (!state.me) return seats;
  const mine = seats.indexOf(state.me);
  return seats.slice(mine + 1).concat(seats.slice(0, mine));
}

/** Whether `seat` owes a decision now: the player to move, or one deciding a claim. */
export function isSeatActive(state, seat) {
  if (state.phase === "ended" || state.phase === "waiting") return false;
  if (Array.isArray(state.pending) && state.pending.length) return state.pending.includes(seat);
  return state.turn === seat;
}

function statusBadges(state, seat, player) {
  const badges = [];
  if (state.dealer === seat) badges.push(element("span", { class: "badge dealer", title: "Dealer", text: "Dealer" }));
  if (!player) return badges;
  if (player.is_bot) {
    badges.push(element("span", { class: "badge bot", title: "A bot plays this seat", text: "Bot" }));
  } else {
    const online = player.connected;
    badges.push(
      element("span", {
        class: `badge link ${online ? "online" : "offline"}`,
        title: online ? "Connected" : "Not connected",
        text: online ? "online" : "offline",
      }),
    );
    if (player.bot_covered) {
      badges.push(element("span", { class: "badge covering", title: "The seat's bot is playing for this player", text: "bot covering" }));
    }
  }
  return badges;
}

/** A shown set, with a caption naming the tile a Fei stands for. */
export function meldElement(meld, size = "sm") {
  const tiles = meld.tiles || [];
  const group = element("span", {
    class: `meld meld-${meld.kind}${meld.concealed ? " meld-concealed" : ""}`,
    "aria-label": meldLabel(meld),
  });
  const row = element("span", { class: "tile-row" });
  for (const tile of tiles) {
    const isClaimed = meld.claimed && tile === meld.claimed;
    row.append(tileElement(tile, { size, classes: tile === "j" ? ["fei-in-set"] : isClaimed ? ["claimed-tile"] : [] }));
  }
  group.append(row);
  if (tiles.includes("j") && meld.fei_as) {
    group.append(element("span", { class: "fei-note", text: `Fei = ${tileShortName(meld.fei_as)}` }));
  } else if (meld.concealed) {
    group.append(element("span", { class: "meld-note", text: "concealed" }));
  }
  return group;
}

function meldLabel(meld) {
  const kind = meld.concealed ? `concealed ${meld.kind}` : meld.kind;
  const tiles = (meld.tiles || []).map(tileShortName).join(" ");
  const fei = (meld.tiles || []).includes("j") && meld.fei_as ? `, Fei as ${tileShortName(meld.fei_as)}` : "";
  return `${kind}: ${tiles}${fei}`;
}

function discardsElement(state, seat, discards) {
  const box = element("div", { class: "discards", "aria-label": `${seatName(state, seat)}'s discards` });
  discards.forEach((tile, index) => {
    const isLast =
      state.last_discard && state.last_discard.seat === seat && index === discards.length - 1 && state.phase !== "ended";
    box.append(tileElement(tile, { size: "sm", classes: isLast ? ["is-last-discard"] : [] }));
  });
  if (!discards.length) box.append(element("span", { class: "muted empty-note", text: "no discards yet" }));
  return box;
}

/**
 * The panel for one seat. `options.isMe` drops the hidden-hand count (the hand is shown
 * below it instead), `options.countdown` is an element to show while the seat is active.
 */
export function seatPanel(state, seat, options = {}) {
  const player = playerAtSeat(state, seat);
  const table = (state.players && state.players[seat]) || { melds: [], discards: [], bonus: [], hand_count: 0 };
  const active = isSeatActive(state, seat);
  const score = player && typeof player.score === "number" ? player.score : null;
  const panel = element("article", {
    class: `seat-panel${active ? " active" : ""}${options.isMe ? " mine" : ""}`,
    dataset: { seat },
    "aria-label": `${WIND_NAMES[seat]} seat: ${seatName(state, seat)}${active ? ", to play" : ""}`,
  });
  const head = element(
    "header",
    { class: "seat-head" },
    element("span", { class: "wind-badge", title: `${WIND_NAMES[seat]} seat`, text: seat }),
    element("span", { class: "seat-name", text: seatName(state, seat) + (options.isMe ? " (you)" : "") }),
    statusBadges(state, seat, player),
    element("span", { class: "seat-count" }, options.isMe ? "" : `${table.hand_count ?? 0} tiles`),
    score === null ? "" : element("span", { class: "seat-score", title: "Running score", text: `${score > 0 ? "+" : ""}${score}` }),
    active ? element("span", { class: "active-flag", text: "to play" }) : "",
    active && options.countdown ? options.countdown : "",
  );
  panel.append(head);
  const shown = element("div", { class: "shown" });
  for (const meld of table.melds || []) shown.append(meldElement(meld));
  if ((table.bonus || []).length) {
    shown.append(element("span", { class: "bonus", "aria-label": "bonus tiles" }, tileRow(table.bonus, { size: "sm" })));
  }
  if (!options.isMe && table.hand_count) {
    shown.append(element("span", { class: "hidden-hand", "aria-label": `${table.hand_count} concealed tiles` }, hiddenHand(table)));
  }
  panel.append(shown);
  panel.append(discardsElement(state, seat, table.discards || []));
  return panel;
}

function hiddenHand(table) {
  const row = element("span", { class: "tile-row backs" });
  const count = Math.max(0, (table.hand_count || 0) - (table.drawn ? 1 : 0));
  for (let index = 0; index < count; index += 1) row.append(tileElement(null, { size: "sm" }));
  if (table.drawn) row.append(tileElement(null, { size: "sm", classes: ["drawn-apart"] }));
  return row;
}
