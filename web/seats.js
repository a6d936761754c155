// A seat at the table: who sits there, their shown sets and bonus tiles by them, and their
// river of discards in front of them, towards the centre.

import { element } from "./dom.js";
import { formatSigned, t } from "./i18n.js";
import { windName } from "./labels.js";
import { tileElement, tileRow, tileShortName } from "./tiles.js";

/** The room's player record sitting at `seat` in the current deal, or null. */
export function playerAtSeat(state, seat) {
  const players = (state.room && state.room.players) || [];
  return players.find((player) => player.seat === seat) || null;
}

/** A player's name as shown: the server names bots "Bot 2", the page words them in its language. */
export function playerName(player) {
  const bot = player.is_bot && /^Bot (\d+)$/.exec(player.name || "");
  return bot ? t("seat.bot_name", { number: Number(bot[1]) }) : player.name;
}

/** "Ana" for a seat, falling back to the wind when nobody is known there. */
export function seatName(state, seat) {
  const player = playerAtSeat(state, seat);
  return player ? playerName(player) : windName(seat);
}

/** The seats other than mine, in turn order starting after me (all seats for a spectator). */
export function otherSeatsInTurnOrder(state) {
  const seats = state.seats || [];
  if (!state.me) return seats;
  const mine = seats.indexOf(state.me);
  return seats.slice(mine + 1).concat(seats.slice(0, mine));
}

/**
 * Where each seat sits around the table as the viewer sees it: the viewer at the bottom
 * (East for a spectator), the next player on the right, the one before on the left, and
 * at Hong Kong the one opposite at the top.
 */
export function seatPositions(state) {
  const seats = state.seats || [];
  const viewer = state.me || seats[0];
  const start = Math.max(0, seats.indexOf(viewer));
  const around = seats.length === 3 ? ["bottom", "right", "left"] : ["bottom", "right", "top", "left"];
  const positions = {};
  seats.forEach((seat, index) => {
    positions[seat] = around[(index - start + seats.length) % seats.length];
  });
  return positions;
}

/** Whether `seat` owes a decision now: the player to move, or one deciding a claim. */
export function isSeatActive(state, seat) {
  if (state.phase === "ended" || state.phase === "waiting") return false;
  if (Array.isArray(state.pending) && state.pending.length) return state.pending.includes(seat);
  return state.turn === seat;
}

function statusBadges(state, seat, player) {
  const badges = [];
  if (state.dealer === seat) badges.push(element("span", { class: "badge dealer", title: t("seat.dealer"), text: t("seat.dealer") }));
  if (!player) return badges;
  if (player.is_bot) {
    badges.push(element("span", { class: "badge bot", title: t("seat.bot_title"), text: t("seat.bot") }));
  } else {
    const online = player.connected;
    badges.push(
      element("span", {
        class: `badge link ${online ? "online" : "offline"}`,
        title: t(online ? "seat.connected" : "seat.not_connected"),
        text: t(online ? "seat.online" : "seat.offline"),
      }),
    );
    if (player.bot_covered) {
      badges.push(element("span", { class: "badge covering", title: t("seat.covering_title"), text: t("seat.covering") }));
    }
  }
  return badges;
}

/**
 * Where a claimed tile lies in its set, and which way it turns: from the player on the
 * left it lies first and points left, from the right last and points right, from across
 * the table in the middle. `owner` is the set's seat, `seats` the table's turn order.
 */
export function claimDirection(owner, from, seats) {
  if (!from || !seats || !seats.includes(owner) || !seats.includes(from)) return null;
  const distance = (seats.indexOf(from) - seats.indexOf(owner) + seats.length) % seats.length;
  if (distance === 1) return "right";
  if (distance === seats.length - 1) return "left";
  return "across";
}

/** A shown set, with its claimed tile turned towards the seat it came from and a Fei caption. */
export function meldElement(meld, size = "sm", context = {}) {
  const tiles = [...(meld.tiles || [])];
  const direction = meld.claimed ? claimDirection(context.owner, meld.from, context.seats) : null;
  const group = element("span", {
    class: `meld meld-${meld.kind}${meld.concealed ? " meld-concealed" : ""}`,
    "aria-label": meldLabel(meld, context),
  });
  const row = element("span", { class: "tile-row" });
  let claimedNode = null;
  if (direction) {
    tiles.splice(tiles.lastIndexOf(meld.claimed), 1);
    claimedNode = tileElement(meld.claimed, { size, classes: ["claimed", `claimed-${direction}`] });
  }
  const nodes = tiles.map((tile) => tileElement(tile, { size, classes: tile === "j" ? ["fei-in-set"] : [] }));
  if (claimedNode) {
    const at = direction === "left" ? 0 : direction === "right" ? nodes.length : Math.floor(nodes.length / 2);
    nodes.splice(at, 0, claimedNode);
  }
  row.append(...nodes);
  group.append(row);
  if (tiles.includes("j") && meld.fei_as) {
    group.append(element("span", { class: "fei-note", text: t("meld.fei_as", { tile: tileShortName(meld.fei_as) }) }));
  } else if (meld.concealed) {
    group.append(element("span", { class: "meld-note", text: t("meld.concealed") }));
  }
  return group;
}

function meldLabel(meld, context) {
  const kind = t(meld.concealed ? `meld.concealed_${meld.kind}` : `meld.${meld.kind}`);
  const tiles = (meld.tiles || []).map(tileShortName).join(" ");
  const fei = (meld.tiles || []).includes("j") && meld.fei_as ? t("meld.fei_as_label", { tile: tileShortName(meld.fei_as) }) : "";
  const from = meld.from && context.nameOf ? t("meld.from", { name: context.nameOf(meld.from) }) : "";
  return `${kind}: ${tiles}${fei}${from}`;
}

function riverElement(state, seat, discards, arriving) {
  const river = element("div", { class: "discards river", "aria-label": t("seat.discards_of", { name: seatName(state, seat) }) });
  discards.forEach((tile, index) => {
    const last = index === discards.length - 1;
    const isLast = last && state.last_discard && state.last_discard.seat === seat && state.phase !== "ended";
    const classes = isLast ? ["is-last-discard"] : [];
    if (last && arriving) classes.push("arriving");
    river.append(tileElement(tile, { size: "sm", classes }));
  });
  if (!discards.length) river.append(element("span", { class: "muted empty-note", text: t("seat.no_discards") }));
  return river;
}

/**
 * The area of one seat. `options.isMe` drops the hidden-hand count (the hand is shown in
 * the dock instead), `options.countdown` is an element to show while the seat is active,
 * `options.position` where it sits, `options.discardArrives` animates its newest discard.
 */
export function seatPanel(state, seat, options = {}) {
  const player = playerAtSeat(state, seat);
  const table = (state.players && state.players[seat]) || { melds: [], discards: [], bonus: [], hand_count: 0 };
  const active = isSeatActive(state, seat);
  const score = player && typeof player.score === "number" ? player.score : null;
  const position = options.position || "bottom";
  const panel = element("article", {
    class: `seat-panel pos-${position}${active ? " active" : ""}${options.isMe ? " mine" : ""}`,
    dataset: { seat },
    "aria-label": t(active ? "seat.label_active" : "seat.label", { wind: windName(seat), name: seatName(state, seat) }),
  });
  const head = element(
    "header",
    { class: "seat-head" },
    element("span", { class: "wind-badge", title: t("seat.wind_seat", { wind: windName(seat) }), text: t(`wind.short.${seat}`) }),
    element("span", { class: "seat-name", text: options.isMe ? t("seat.you", { name: seatName(state, seat) }) : seatName(state, seat) }),
    statusBadges(state, seat, player),
    element("span", { class: "seat-count" }, options.isMe ? "" : t("seat.tile_count", { count: table.hand_count ?? 0 })),
    score === null ? "" : element("span", { class: "seat-score", title: t("seat.running_score"), text: formatSigned(score) }),
    active ? element("span", { class: "active-flag", text: t("seat.to_play") }) : "",
    active && options.countdown ? options.countdown : "",
  );
  const context = { owner: seat, seats: state.seats, nameOf: (from) => seatName(state, from) };
  const shown = element("div", { class: "shown" });
  for (const meld of table.melds || []) shown.append(meldElement(meld, "sm", context));
  if ((table.bonus || []).length) {
    shown.append(element("span", { class: "bonus", "aria-label": t("seat.bonus_tiles") }, tileRow(table.bonus, { size: "sm" })));
  }
  if (!options.isMe && table.hand_count) {
    shown.append(element("span", { class: "hidden-hand", "aria-label": t("seat.concealed_count", { count: table.hand_count }) }, hiddenHand(table)));
  }
  panel.append(element("div", { class: "seat-side" }, head, shown), riverElement(state, seat, table.discards || [], options.discardArrives));
  return panel;
}

function hiddenHand(table) {
  const row = element("span", { class: "tile-row backs" });
  const count = Math.max(0, (table.hand_count || 0) - (table.drawn ? 1 : 0));
  for (let index = 0; index < count; index += 1) row.append(tileElement(null, { size: "sm" }));
  if (table.drawn) row.append(tileElement(null, { size: "sm", classes: ["drawn-apart"] }));
  return row;
}
