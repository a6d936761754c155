// The lobby (/): open a table, invite, join, fill with bots, and list tables.

import {
  createRoom,
  fetchRoom,
  forgetSeat,
  joinRoom,
  lastUsedName,
  listRooms,
  rememberInvite,
  rememberSeat,
  rememberedInvite,
  rememberedSeat,
  rememberedSeats,
  tableUrl,
} from "./api.js";
import { element, replaceChildren } from "./dom.js";
import { SCORING_FIELDS, fetchHouseRules, ruleLabel, ruleValue } from "./house_rules.js";
import { has, installLanguageMenu, t, translatePage } from "./i18n.js";
import { variantName, windName } from "./labels.js";
import { playerName } from "./seats.js";
import { TILE_SETS } from "./tile_faces.js";
import { TILE_SET, chooseTileSet } from "./tiles.js";

const byId = (id) => document.getElementById(id);

function statusWords(status) {
  return has(`lobby.status.${status}`) ? t(`lobby.status.${status}`) : status;
}

let createdRoomId = null;
// The open tables shown: one page of the server's list at first, more on request.
const OPEN_PAGE_SIZE = 20;
let openRooms = [];
let openCursor = null;

function showError(box, error) {
  box.textContent = error.message || String(error);
  box.hidden = false;
}

function updateRoundsNote() {
  const form = byId("create-form");
  const variant = form.elements.variant.value;
  const rounds = Number(form.elements.rounds.value);
  byId("rounds-note").textContent =
    variant === "kaki3"
      ? t("lobby.rounds_note_kaki3", { deals: rounds * 3 })
      : rounds === 1
        ? t("lobby.rounds_note_hk_one")
        : t("lobby.rounds_note_hk_more", { more: rounds - 1 });
}

async function submitCreate(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const errorBox = byId("create-error");
  errorBox.hidden = true;
  const settings = {
    variant: form.elements.variant.value,
    turn_seconds: Number(form.elements.turn_seconds.value),
    deal_seconds: Math.round(Number(form.elements.deal_minutes.value) * 60),
    rounds: Number(form.elements.rounds.value),
    hints: form.elements.hints.checked, // issue 18
    public: form.elements.public.checked,
    spectators: form.elements.spectators.checked,
  };
  const name = form.elements.name.value.trim();
  if (name) settings.name = name;
  // House rules: only those that differ from the table's own are sent (none: no `rules`).
  const rules = chosenRules();
  const bank = Math.round(Number(form.elements.time_bank_seconds.value || "0"));
  if (bank > 0) rules.time_bank_seconds = bank;
  if (Object.keys(rules).length) settings.rules = rules;
  try {
    const answer = await createRoom(settings);
    rememberInvite(answer.room_id, answer.invite);
    showCreated(answer.room_id, answer.url);
  } catch (error) {
    showError(errorBox, error);
  }
}

// ---------------------------------------------------------------- house rules

// What each table offers and its seed rules, from the server (GET /api/house-rules/...).
const offered = {};

/** One choice per house rule the chosen table offers more than one value of. */
function showHouseRules() {
  const box = byId("house-rules-choice");
  const variant = byId("create-form").elements.variant.value;
  const table = offered[variant];
  box.querySelectorAll("label").forEach((label) => label.remove());
  if (!table) {
    box.hidden = true;
    return;
  }
  for (const field of SCORING_FIELDS) {
    const choices = table.choices[field] || [];
    if (choices.length < 2) continue;
    const options = choices.map((value) => {
      const words = ruleValue(field, value);
      const text = value === table.seed[field] ? t("lobby.rule_standard", { rule: words }) : words;
      return element("option", { value: String(value), selected: value === table.seed[field], text });
    });
    box.append(
      element(
        "label",
        {},
        element("span", { text: ruleLabel(field) }),
        element("select", { name: field, "data-testid": `rule-${field.replaceAll("_", "-")}`, dataset: { seed: String(table.seed[field]) } }, options),
      ),
    );
  }
  box.hidden = false;
}

/** The chosen house rules that differ from the table's seed rules. */
function chosenRules() {
  const rules = {};
  for (const select of byId("house-rules-choice").querySelectorAll("select")) {
    if (select.value === select.dataset.seed) continue;
    rules[select.name] = /^\d+$/.test(select.value) ? Number(select.value) : select.value;
  }
  return rules;
}

async function loadHouseRules() {
  await Promise.all(
    [...byId("create-form").elements.variant].map(async ({ value: variant }) => {
      try {
        offered[variant] = await fetchHouseRules(variant);
      } catch (error) {
        // Without the server's choices the table opens with its seed rules.
      }
    }),
  );
  showHouseRules();
}

function showCreated(roomId, inviteUrl) {
  createdRoomId = roomId;
  byId("created").hidden = false;
  byId("created-join").hidden = false;
  byId("invite-link").value = inviteUrl || tableUrl(roomId, rememberedInvite(roomId));
  byId("created-go").href = `/rooms/${encodeURIComponent(roomId)}`;
  const nameInput = byId("created-name");
  if (!nameInput.value) nameInput.value = lastUsedName();
  byId("created-status").textContent = t("lobby.join_then_fill");
  nameInput.focus();
  refreshLists();
}

async function copyInvite() {
  const input = byId("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    byId("created-status").textContent = t("lobby.link_copied");
  } catch (blocked) {
    // Clipboard access needs a secure context; selecting the text still lets people copy it.
    input.select();
    byId("created-status").textContent = t("lobby.copy_by_hand");
  }
}

async function submitCreatedJoin(event) {
  event.preventDefault();
  const name = byId("created-name").value.trim();
  const status = byId("created-status");
  if (rememberedSeat(createdRoomId)) {
    status.textContent = t("lobby.already_seated");
    return;
  }
  try {
    const joined = await joinRoom(createdRoomId, name, rememberedInvite(createdRoomId));
    rememberSeat(createdRoomId, { ...joined, name });
    status.textContent = t("lobby.you_sit_at", { wind: windName(joined.seat) });
    byId("created-join").hidden = true;
    refreshLists();
  } catch (error) {
    status.textContent = error.message;
  }
}

function fillCreatedWithBots() {
  const status = byId("created-status");
  if (!rememberedSeat(createdRoomId)) {
    // The server fills no table with bots alone: nobody would be playing at it.
    status.textContent = t("lobby.join_before_bots");
    byId("created-name").focus();
    return;
  }
  // A seat without a live connection is played by its bot at once, so sit down at the
  // table first: the table page fills the empty seats once it is connected.
  window.location.href = `/rooms/${encodeURIComponent(createdRoomId)}#fill-bots`;
}

function roomLine(summary, seat) {
  // Room summaries list bare names; "Bot 2" is how the server names its bots.
  const asPlayer = (player) => (typeof player === "string" ? { name: player, is_bot: /^Bot \d+$/.test(player) } : player);
  const players = (summary.players || []).map((player) => playerName(asPlayer(player)));
  const freeSeats = summary.free_seats ?? Math.max(0, (summary.seat_count || 0) - players.length);
  const details = [
    variantName(summary.variant),
    statusWords(summary.status),
    seat ? t("lobby.you_are", { name: seat.name }) : freeSeats ? t("lobby.free_seats", { count: freeSeats }) : t("lobby.full"),
    players.length ? t("lobby.players", { names: players.join(t("list.comma")) }) : "",
  ].filter(Boolean);
  return element(
    "li",
    { class: "room-line", dataset: { roomId: summary.room_id } },
    element("a", { href: `/rooms/${encodeURIComponent(summary.room_id)}`, class: "room-link", text: summary.name || t("lobby.table_id", { id: summary.room_id.slice(0, 6) }) }),
    element("span", { class: "muted room-details", text: details.join(" · ") }),
    element("a", { href: `/rooms/${encodeURIComponent(summary.room_id)}`, class: "button small", text: t(seat ? "lobby.play" : freeSeats ? "lobby.join" : "lobby.watch") }),
    seat ? replayLinks(summary) : "", // issue 18
  );
}

/** Links to the replays of my table's finished deals (issue 18). */
function replayLinks(room) {
  const finished = (room.deal_no || 0) - (room.table && room.table.phase !== "ended" ? 1 : 0);
  if (finished <= 0) return "";
  const links = [];
  for (let number = 1; number <= finished; number += 1) {
    links.push(element("a", { href: `/rooms/${encodeURIComponent(room.room_id)}/deals/${number}`, class: "replay-link", "data-testid": "lobby-replay", text: t("lobby.replay_deal", { number }) }));
  }
  return element("span", { class: "replay-links muted" }, `${t("replay.open_link")}: `, links);
}

async function refreshMyRooms() {
  const list = byId("my-rooms");
  const seats = rememberedSeats();
  const lines = await Promise.all(
    seats.map(async (seat) => {
      try {
        const room = await fetchRoom(seat.room_id, { token: seat.token });
        return roomLine(room, seat);
      } catch (error) {
        if (error.status === 404) forgetSeat(seat.room_id);
        return null;
      }
    }),
  );
  const shown = lines.filter(Boolean);
  replaceChildren(list, shown.length ? shown : element("li", { class: "muted", text: t("lobby.no_tables_yet") }));
}

function showOpenRooms(total) {
  const list = byId("open-rooms");
  replaceChildren(
    list,
    openRooms.length
      ? openRooms.map((room) => roomLine(room, rememberedSeat(room.room_id)))
      : element("li", { class: "muted", text: t("lobby.no_open_tables") }),
  );
  byId("more-rooms").hidden = !openCursor;
  byId("open-count").textContent = total > openRooms.length ? t("lobby.showing_open", { shown: openRooms.length, total }) : "";
}

async function loadOpenRooms(more) {
  try {
    const page = await listRooms({ status: "waiting,playing", cursor: more ? openCursor : null, limit: OPEN_PAGE_SIZE });
    // Rooms opening meanwhile shift the pages: a room already shown is not repeated.
    const shown = new Set(more ? openRooms.map((room) => room.room_id) : []);
    openRooms = [...(more ? openRooms : []), ...page.rooms.filter((room) => !shown.has(room.room_id))];
    openCursor = page.next_cursor;
    showOpenRooms(page.total);
  } catch (error) {
    replaceChildren(byId("open-rooms"), element("li", { class: "error", text: error.message }));
  }
}

function refreshOpenRooms() {
  return loadOpenRooms(false);
}

function refreshLists() {
  refreshMyRooms();
  refreshOpenRooms();
}

function installTools() {
  translatePage();
  installLanguageMenu();
  const tileSet = byId("tile-set");
  for (const set of TILE_SETS) tileSet.append(new Option(t(`settings.tiles_${set}`), set, false, set === TILE_SET));
  tileSet.addEventListener("change", () => chooseTileSet(tileSet.value));
}

function start() {
  installTools();
  const form = byId("create-form");
  form.addEventListener("submit", submitCreate);
  form.addEventListener("change", updateRoundsNote);
  for (const radio of form.elements.variant) radio.addEventListener("change", showHouseRules);
  byId("copy-link").addEventListener("click", copyInvite);
  byId("created-join").addEventListener("submit", submitCreatedJoin);
  byId("created-bots").addEventListener("click", fillCreatedWithBots);
  byId("refresh").addEventListener("click", refreshLists);
  byId("more-rooms").addEventListener("click", () => loadOpenRooms(true));
  updateRoundsNote();
  loadHouseRules();
  refreshLists();
  setInterval(refreshOpenRooms, 15000);
}

start();
