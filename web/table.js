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
import { installLanguageMenu, t, translatePage } from "./i18n.js";
import { errorText, variantName } from "./labels.js";
import { RulesPanel } from "./rules_panel.js";
import { SettleUpPanel } from "./settle_up.js";
import { isMuted, setMuted } from "./sound.js";
import { TableView } from "./table_view.js";
import { TILE_SET, chooseTileSet, tileShortName } from "./tiles.js";
import { TILE_SETS } from "./tile_faces.js";
import { HintButton } from "./hint.js"; // issue 18

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
      showToast(t("toast.not_sent"));
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

// issue 18: the Hint button, at tables that allow hints.
const hints = new HintButton(byId("hint-button"), byId("hint-text"), (message) => connection && connection.send(message));
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
  let notice = t("toast.bot_passed");
  let thrown = "";
  if ((after.discards || []).length > (before.discards || []).length) {
    thrown = after.discards[after.discards.length - 1];
    notice = t("toast.bot_discarded", { tile: tileShortName(thrown) });
  } else if ((after.melds || []).length > (before.melds || []).length) {
    notice = t("toast.bot_claimed");
  } else if (next.phase === "ended") {
    notice = t("toast.bot_finished");
  }
  showToast(notice, "notice bot-played", thrown);
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
    hints.render(message); // issue 18
    hostPanel.render(message);
    performance.measure("render-state", { start: started });
    renderCount += 1;
    if (renderCount % 5000 === 0) performance.clearMeasures("render-state");
  } else if (message.type === "result") {
    view.showResult(message);
  } else if (message.type === "hint") {
    hints.show(message, latestState); // issue 18
  } else if (message.type === "notice") {
    showStoreNotice(message.code === "store_unavailable" ? message.message : null);
  } else if (message.type === "error") {
    if (message.id === pendingActionId) pendingActionId = null;
    // A stale action loses the race to the timer or to another player's claim; the next
    // state shows what happened, so this only needs a short word.
    showToast(errorText(message.code, message.message));
    if (latestState) view.render(latestState, false);
  }
}

/** While the server's database is away (a `store_unavailable` notice, until `store_restored`). */
function showStoreNotice(text) {
  const notice = byId("store-notice");
  notice.hidden = !text;
  notice.textContent = text ? t("table.store_reconnecting") : "";
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
  if (status === "open") badge.textContent = t("connection.open");
  else if (status === "connecting") badge.textContent = t("connection.connecting");
  else if (status === "reconnecting") {
    badge.textContent = detail.retryInMs ? t("connection.reconnecting_in", { seconds: Math.ceil(detail.retryInMs / 1000) }) : t("connection.reconnecting");
    pendingActionId = null;
  } else if (status === "stopped") {
    badge.textContent = t("connection.stopped");
    connectionStopped(detail);
  }
}

function connectionStopped(detail) {
  const final = byId("final");
  const retry = byId("final-retry");
  retry.hidden = true;
  if (detail.reason === "token_refused" && !(connection && connection.token)) {
    showJoinForm(t("final.private_table"));
    return;
  }
  if (detail.reason === "no_spectators") {
    byId("final-text").textContent = t("final.no_spectators");
    final.hidden = false;
    return;
  }
  if (detail.reason === "token_refused") {
    forgetSeat(roomId);
    showJoinForm(t("join.seat_invalid"));
    return;
  }
  if (detail.reason === "replaced") {
    byId("final-text").textContent = t("final.replaced");
    retry.hidden = false;
    retry.onclick = () => {
      final.hidden = true;
      connect(rememberedSeat(roomId));
    };
  } else if (detail.reason === "room_closed") {
    byId("final-text").textContent = t("final.closed");
  } else {
    forgetSeat(roomId);
    byId("final-text").textContent = t("final.no_table");
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
    roomVariant = room.variant || null;
    const taken = (room.players || []).length;
    const summary = `${room.name || t("join.a_table")} · ${variantName(room.variant)} · ${t("join.seats_taken", { taken, total: room.seat_count })}`;
    info.textContent = note ? `${note} ${summary}` : summary;
    if (taken >= room.seat_count) byId("join-title").textContent = t("join.full");
  } catch (error) {
    if (error.status === 404) info.textContent = t("final.no_table");
    else if (error.status === 403) info.textContent = t("final.private_table");
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
    errorBox.textContent = t("join.need_name");
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

// The table's variant as far as the page knows it: from the join form's look at the room
// until the first state arrives.
let roomVariant = null;

function variantOfPage() {
  const room = (latestState && latestState.room) || {};
  return (latestState && latestState.variant) || room.variant || roomVariant;
}

// A speaker drawn in the page (no icon font), with waves when on and a cross when muted.
function speakerIcon(muted) {
  const marks = muted
    ? '<path d="M15 9l5 6M20 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    : '<path d="M15 9.5a4 4 0 0 1 0 5M17.5 7a7.5 7.5 0 0 1 0 10" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
  return `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${marks}</svg>`;
}

/** The tools in the table's bar: rules, sound, tile set and language, each remembered. */
function installTools() {
  translatePage();
  installLanguageMenu();
  const sound = byId("sound-toggle");
  const showSound = () => {
    const muted = isMuted();
    sound.setAttribute("aria-pressed", String(muted));
    sound.innerHTML = speakerIcon(muted);
    sound.title = t(muted ? "settings.sound_off" : "settings.sound_on");
    sound.setAttribute("aria-label", t("settings.mute"));
  };
  sound.addEventListener("click", () => {
    setMuted(!isMuted());
    showSound();
  });
  showSound();
  const tileSet = byId("tile-set");
  for (const set of TILE_SETS) tileSet.append(new Option(t(`settings.tiles_${set}`), set, false, set === TILE_SET));
  tileSet.addEventListener("change", () => {
    chooseTileSet(tileSet.value);
    window.location.reload();
  });
  const rules = new RulesPanel(byId("rules"));
  byId("rules-open").addEventListener("click", () => {
    const variant = variantOfPage();
    if (variant) rules.toggle(variant, latestState && latestState.room ? latestState.room.rules : null);
    else showToast(t("rules.after_joining"), "notice");
  });
}

function start() {
  installTools();
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
