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
import { VARIANT_NAMES, WIND_NAMES } from "./labels.js";

const byId = (id) => document.getElementById(id);
const STATUS_WORDS = { waiting: "waiting for players", playing: "playing", finished: "finished", closed: "closed" };

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
      ? `${rounds * 3} deals (the winner deals next)`
      : rounds === 1
        ? "the East round"
        : `the East round and ${rounds - 1} more`;
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
    public: form.elements.public.checked,
    spectators: form.elements.spectators.checked,
  };
  const name = form.elements.name.value.trim();
  if (name) settings.name = name;
  try {
    const answer = await createRoom(settings);
    rememberInvite(answer.room_id, answer.invite);
    showCreated(answer.room_id, answer.url);
  } catch (error) {
    showError(errorBox, error);
  }
}

function showCreated(roomId, inviteUrl) {
  createdRoomId = roomId;
  byId("created").hidden = false;
  byId("created-join").hidden = false;
  byId("invite-link").value = inviteUrl || tableUrl(roomId, rememberedInvite(roomId));
  byId("created-go").href = `/rooms/${encodeURIComponent(roomId)}`;
  const nameInput = byId("created-name");
  if (!nameInput.value) nameInput.value = lastUsedName();
  byId("created-status").textContent = "Join under your name, then fill the other seats with bots or wait for friends.";
  nameInput.focus();
  refreshLists();
}

async function copyInvite() {
  const input = byId("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    byId("created-status").textContent = "Link copied: send it to your friends.";
  } catch (blocked) {
    // Clipboard access needs a secure context; selecting the text still lets people copy it.
    input.select();
    byId("created-status").textContent = "Press Ctrl+C (or long-press) to copy the selected link.";
  }
}

async function submitCreatedJoin(event) {
  event.preventDefault();
  const name = byId("created-name").value.trim();
  const status = byId("created-status");
  if (rememberedSeat(createdRoomId)) {
    status.textContent = "You already sit at this table.";
    return;
  }
  try {
    const joined = await joinRoom(createdRoomId, name, rememberedInvite(createdRoomId));
    rememberSeat(createdRoomId, { ...joined, name });
    status.textContent = `You sit at ${WIND_NAMES[joined.seat] || joined.seat}. Fill the empty seats with bots, or wait for friends.`;
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
    status.textContent = "Join under your name first; then bots can take the other seats.";
    byId("created-name").focus();
    return;
  }
  // A seat without a live connection is played by its bot at once, so sit down at the
  // table first: the table page fills the empty seats once it is connected.
  window.location.href = `/rooms/${encodeURIComponent(createdRoomId)}#fill-bots`;
}

function roomLine(summary, seat) {
  const players = (summary.players || []).map((player) => (typeof player === "string" ? player : player.name));
  const freeSeats = summary.free_seats ?? Math.max(0, (summary.seat_count || 0) - players.length);
  const details = [
    VARIANT_NAMES[summary.variant] || summary.variant,
    STATUS_WORDS[summary.status] || summary.status,
    seat ? `you: ${seat.name}` : freeSeats ? `${freeSeats} free seat${freeSeats === 1 ? "" : "s"}` : "full",
    players.length ? `players: ${players.join(", ")}` : "",
  ].filter(Boolean);
  return element(
    "li",
    { class: "room-line", dataset: { roomId: summary.room_id } },
    element("a", { href: `/rooms/${encodeURIComponent(summary.room_id)}`, class: "room-link", text: summary.name || `Table ${summary.room_id.slice(0, 6)}` }),
    element("span", { class: "muted room-details", text: details.join(" · ") }),
    element("a", { href: `/rooms/${encodeURIComponent(summary.room_id)}`, class: "button small", text: seat ? "Play" : freeSeats ? "Join" : "Watch" }),
  );
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
  replaceChildren(list, shown.length ? shown : element("li", { class: "muted", text: "You have not joined a table yet." }));
}

function showOpenRooms(total) {
  const list = byId("open-rooms");
  replaceChildren(
    list,
    openRooms.length
      ? openRooms.map((room) => roomLine(room, rememberedSeat(room.room_id)))
      : element("li", { class: "muted", text: "No open tables right now. Open one!" }),
  );
  byId("more-rooms").hidden = !openCursor;
  byId("open-count").textContent = total > openRooms.length ? `Showing ${openRooms.length} of ${total} open tables.` : "";
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

function start() {
  const form = byId("create-form");
  form.addEventListener("submit", submitCreate);
  form.addEventListener("change", updateRoundsNote);
  byId("copy-link").addEventListener("click", copyInvite);
  byId("created-join").addEventListener("submit", submitCreatedJoin);
  byId("created-bots").addEventListener("click", fillCreatedWithBots);
  byId("refresh").addEventListener("click", refreshLists);
  byId("more-rooms").addEventListener("click", () => loadOpenRooms(true));
  updateRoundsNote();
  refreshLists();
  setInterval(refreshOpenRooms, 15000);
}

start();
