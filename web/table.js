// The table page (/rooms/{room_id}): joins or recognises the player, keeps the live
// connection, and hands every state to the view.

import {
  fetchRoom,
  fillWithBots,
  forgetSeat,
  joinRoom,
  lastUsedName,
  rememberInvite,
  rememberSeat,
  rememberedInvite,
  rememberedSeat,
} from "./api.js";
import { TableConnection } from "./connection.js";
import { HostPanel } from "./host_panel.js";
import { VARIANT_NAMES } from "./labels.js";
import { SettleUpPanel } from "./settle_up.js";
import { TableView } from "./table_view.js";
import { tileShortName } from "./tiles.js";

const byId = (id) => document.getElementById(id);
const roomId = decodeURIComponent(window.location.pathname.replace(/\/+$/, "").split("/").pop());
// An invite link carries the table's secret in its fragment ("#invite=..."): keep it, and
// take it out of the address bar so it is not shown over a shoulder or in a screenshot.
const fragment = new URLSearchParams(window.location.hash.slice(1));
if (fragment.get("invite")) {
  rememberInvite(roomId, fragment.get("invite"));
  fragment.delete("invite");
  const rest = fragment.toString().replace(/=$/, "").replace(/=&/g, "&");
  history.replaceState(null, "", window.location.pathname + (rest ? `#${rest}` : ""));
}
const invite = rememberedInvite(roomId);

let connection = null;
let latestState = null;
// The id of the action on its way, so the page neither double-sends nor mistakes the
// player's own move for the bot's.
let pendingActionId = null;
let toastTimer = null;
let renderCount = 0;

const view = new TableView(roomId, {
  sendAction(action) {
    if (pendingActionId !== null || !connection) return;
    const id = connection.send({ type: "action", action });
    if (id === null) {
      showToast("Not connected: your move was not sent. Reconnecting…");
      return;
    }
    pendingActionId = id;
    if (latestState) view.render(latestState, true);
  },
  nextDeal() {
    if (connection) connection.send({ type: "next_deal" });
  },
  async fillWithBots() {
    try {
      const seat = rememberedSeat(roomId);
      await fillWithBots(roomId, { token: seat ? seat.token : null, invite });
    } catch (error) {
      showToast(error.message);
    }
  },
});

const settleUp = new SettleUpPanel(roomId, () => {
  const seat = rememberedSeat(roomId);
  return { token: seat ? seat.token : null, invite };
});
const hostPanel = new HostPanel(
  (message) => {
    if (connection) connection.send(message);
  },
  () => settleUp.open(),
);

function showToast(text, kind = "error", tile = "") {
  const toast = byId("toast");
  toast.textContent = text;
  toast.dataset.tile = tile;
  toast.className = `toast ${kind}`;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, 6000);
}

/**
 * When my decision was still open at its deadline and the next state no longer asks for
 * it, the seat's bot played it for me: say so, and what it did.
 */
function noticeBotMove(previous, next) {
  if (!previous || !previous.me || pendingActionId !== null) return;
  const wasPending = (previous.pending || []).includes(previous.me) && (previous.legal || []).length > 0;
  if (!wasPending || !previous.turn_deadline || Date.now() < previous.turn_deadline - 1000) return;
  const stillMine = (next.pending || []).includes(next.me) && next.phase === previous.phase && next.turn === previous.turn;
  if (stillMine) return;
  const before = (previous.players && previous.players[previous.me]) || {};
  const after = (next.players && next.players[next.me]) || {};
  let what = "passed";
  let thrown = "";
  if ((after.discards || []).length > (before.discards || []).length) {
    thrown = after.discards[after.discards.length - 1];
    what = `discarded ${tileShortName(thrown)}`;
  } else if ((after.melds || []).length > (before.melds || []).length) {
    what = "claimed the tile";
  } else if (next.phase === "ended") {
    what = "finished the turn";
  }
  showToast(`Time ran out: your bot ${what} for you.`, "notice bot-played", thrown);
}

/**
 * The lobby sends a seated player here with "#fill-bots" to start the game with bots once
 * this page holds the seat (so no bot plays the opening turn for an absent player).
 */
function fillWithBotsIfAsked(state) {
  if (window.location.hash !== "#fill-bots") return;
  history.replaceState(null, "", window.location.pathname);
  // The waiting room's state has no `me`; a connection with a token holds a seat.
  if (state.phase === "waiting" && connection && connection.token) view.handlers.fillWithBots();
}

function handleMessage(message) {
  if (message.type === "state") {
    fillWithBotsIfAsked(message);
    noticeBotMove(latestState, message);
    latestState = message;
    pendingActionId = null;
    // A named measure per drawn state, cheap enough to keep: bench/bench_client.py reads it.
    const started = performance.now();
    view.render(message, false);
    hostPanel.render(message);
    performance.measure("render-state", { start: started });
    renderCount += 1;
    if (renderCount % 5000 === 0) performance.clearMeasures("render-state");
  } else if (message.type === "result") {
    view.showResult(message);
  } else if (message.type === "notice") {
    showStoreNotice(message.code === "store_unavailable" ? message.message : null);
  } else if (message.type === "error") {
    if (message.id === pendingActionId) pendingActionId = null;
    // A stale action loses the race to the timer or to another player's claim; the next
    // state shows what happened, so this only needs a short word.
    showToast(message.code === "not_legal" ? "That move is no longer possible." : message.message || "The server refused that.");
    if (latestState) view.render(latestState, false);
  }
}

/** While the server's database is away (a `store_unavailable` notice, until `store_restored`). */
function showStoreNotice(text) {
  const notice = byId("store-notice");
  notice.hidden = !text;
  notice.textContent = text ? "Reconnecting to the database…" : "";
  notice.title = text || "";
  document.body.classList.toggle("store-down", Boolean(text));
}

function showConnection(status, detail) {
  const badge = byId("connection");
  badge.hidden = false;
  badge.className = `connection ${status}`;
  document.body.classList.toggle("reconnecting", status === "reconnecting");
  // A new link hears of an outage again in its first messages; a notice seen on the old one is stale.
  if (status === "connecting" || status === "reconnecting") showStoreNotice(null);
  if (status === "open") badge.textContent = "Connected";
  else if (status === "connecting") badge.textContent = "Connecting…";
  else if (status === "reconnecting") {
    const seconds = detail.retryInMs ? ` in ${Math.ceil(detail.retryInMs / 1000)} s` : "";
    badge.textContent = `Reconnecting${seconds}…`;
    pendingActionId = null;
  } else if (status === "stopped") {
    badge.textContent = "Disconnected";
    connectionStopped(detail);
  }
}

function connectionStopped(detail) {
  const final = byId("final");
  const retry = byId("final-retry");
  retry.hidden = true;
  if (detail.reason === "token_refused" && !(connection && connection.token)) {
    showJoinForm("This table is private: open it with the invite link its host shared.");
    return;
  }
  if (detail.reason === "no_spectators") {
    byId("final-text").textContent = "The host has turned spectators off at this table.";
    final.hidden = false;
    return;
  }
  if (detail.reason === "token_refused") {
    forgetSeat(roomId);
    showJoinForm("Your earlier seat at this table is no longer valid. Join again:");
    return;
  }
  if (detail.reason === "replaced") {
    byId("final-text").textContent = "This seat is now open in another tab or device.";
    retry.hidden = false;
    retry.onclick = () => {
      final.hidden = true;
      connect(rememberedSeat(roomId));
    };
  } else if (detail.reason === "room_closed") {
    byId("final-text").textContent = "This table has closed.";
  } else {
    forgetSeat(roomId);
    byId("final-text").textContent = "There is no such table (it may have closed).";
  }
  final.hidden = false;
}

function connect(seat) {
  byId("join").hidden = true;
  if (connection) connection.stop();
  connection = new TableConnection(roomId, seat ? seat.token : null, { onMessage: handleMessage, onStatus: showConnection }, invite);
  connection.start();
}

async function showJoinForm(note) {
  byId("table").hidden = true;
  byId("join").hidden = false;
  const nameInput = byId("join-name");
  if (!nameInput.value) nameInput.value = lastUsedName();
  const info = byId("join-room-info");
  info.textContent = note || "";
  try {
    const room = await fetchRoom(roomId, { invite });
    const taken = (room.players || []).length;
    const summary = `${room.name || "A table"} · ${VARIANT_NAMES[room.variant] || room.variant} · ${taken} of ${room.seat_count} seats taken`;
    info.textContent = note ? `${note} ${summary}` : summary;
    if (taken >= room.seat_count) byId("join-title").textContent = "This table is full";
  } catch (error) {
    if (error.status === 404) info.textContent = "There is no such table (it may have closed).";
    else if (error.status === 403) info.textContent = "This table is private: open it with the invite link its host shared.";
    else info.textContent = error.message;
  }
  nameInput.focus();
}

async function submitJoin(event) {
  event.preventDefault();
  const errorBox = byId("join-error");
  const button = byId("join-submit");
  const name = byId("join-name").value.trim();
  errorBox.hidden = true;
  if (!name) {
    errorBox.textContent = "Please enter a name.";
    errorBox.hidden = false;
    return;
  }
  button.disabled = true;
  try {
    const joined = await joinRoom(roomId, name, invite);
    const seat = { ...joined, name };
    rememberSeat(roomId, seat);
    connect(seat);
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  } finally {
    button.disabled = false;
  }
}

function start() {
  byId("join-form").addEventListener("submit", submitJoin);
  byId("join-watch").addEventListener("click", (event) => {
    event.preventDefault();
    connect(null);
  });
  setInterval(() => view.tick(Date.now()), 250);
  const seat = rememberedSeat(roomId);
  if (seat) connect(seat);
  else showJoinForm();
}

start();
