// The HTTP side of docs/protocol.md, and the seats this browser remembers.
//
// A seat is remembered in localStorage under "mahjong-hall:seat:<room_id>" as
// {room_id, token, name, seat, player_index, variant, joined_at}. The token is the player's
// secret for the room: with it a reload (or a later visit) lands back in the same seat.
// A table's invite secret (from its link's fragment) is remembered under
// "mahjong-hall:invite:<room_id>": it lets this browser join, watch or add bots again.

import { has, t } from "./i18n.js";

const SEAT_KEY_PREFIX = "mahjong-hall:seat:";
const NAME_KEY = "mahjong-hall:name";
const INVITE_KEY_PREFIX = "mahjong-hall:invite:";

/** An HTTP answer that was not 2xx, with the server's error code and message. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || [];
  }
}

// Secrets ride in headers, never in a URL, where a server's or a proxy's log would keep them.
async function requestJson(method, path, body, token, invite) {
  const options = { method, headers: { Accept: "application/json" } };
  if (token) options.headers.Authorization = `Bearer ${token}`;
  if (invite) options.headers["X-Invite"] = invite;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (networkError) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch (notJson) {
    answer = null;
  }
  if (!response.ok) {
    const error = (answer && answer.error) || {};
    throw new ApiError(
      response.status,
      error.code || `http_${response.status}`,
      describeError(error, response.status),
      error.details,
    );
  }
  return answer;
}

// The server sends a code; the page words it. Its English message is the last resort.
function describeError(error, status) {
  if (error.code === "validation_error" && Array.isArray(error.details) && error.details.length) {
    const fields = error.details.map((detail) => fieldName((detail.loc || []).slice(-1)[0])).join(t("list.comma"));
    return t("error.validation_error", { fields });
  }
  if (error.code && has(`error.${error.code}`)) return t(`error.${error.code}`);
  return error.message || t("error.http", { status });
}

function fieldName(field) {
  return has(`field.${field}`) ? t(`field.${field}`) : String(field || "");
}

/** Creates a room; `settings` is {variant, turn_seconds, deal_seconds, rounds, name}. */
export function createRoom(settings) {
  return requestJson("POST", "/api/rooms", settings);
}

/** Takes a seat in the room under `name`; answers {seat, token, player_index, room_id}. */
export function joinRoom(roomId, name, invite) {
  const body = invite ? { name, invite } : { name };
  return requestJson("POST", `/api/rooms/${encodeURIComponent(roomId)}/join`, body);
}

/** Fills every empty seat of the room with a bot (the first deal then starts). */
export function fillWithBots(roomId, { token, invite } = {}) {
  return requestJson("POST", `/api/rooms/${encodeURIComponent(roomId)}/bots`, invite ? { invite } : {}, token);
}

/** The public room object; a private table's needs the seated player's token or its invite. */
export function fetchRoom(roomId, { token, invite } = {}) {
  return requestJson("GET", `/api/rooms/${encodeURIComponent(roomId)}`, undefined, token, invite);
}

/** One game's settle-up: {balances, transfers, text}; `minor` is minor units per point. */
export function settleUpGame(roomId, currency, minor, { token, invite } = {}) {
  const query = new URLSearchParams({ currency, minor_per_point: String(minor) });
  return requestJson("GET", `/api/rooms/${encodeURIComponent(roomId)}/settle-up?${query}`, undefined, token, invite);
}

/** A night's settle-up over the rooms of `tokens`, between two ISO times. */
export function nightSettleUp(body) {
  return requestJson("POST", "/api/settle-up/night", body);
}

/**
 * One page of the room summaries of this server, newest first: {rooms, total, next_cursor}.
 * `status` is "waiting", "playing", "finished" or several of them joined by commas;
 * `cursor` is the previous page's next_cursor (null when there is no further page).
 */
export async function listRooms({ status, cursor, limit } = {}) {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (cursor) query.set("cursor", cursor);
  if (limit) query.set("limit", String(limit));
  const text = query.toString();
  const answer = await requestJson("GET", `/api/rooms${text ? `?${text}` : ""}`);
  return { rooms: answer.rooms || [], total: answer.total ?? 0, next_cursor: answer.next_cursor ?? null };
}

/** The invite link of a room: its secret rides in the fragment, never sent to a server. */
export function tableUrl(roomId, invite) {
  const page = `${window.location.origin}/rooms/${encodeURIComponent(roomId)}`;
  return invite ? `${page}#invite=${encodeURIComponent(invite)}` : page;
}

/** Remembers a table's invite secret. */
export function rememberInvite(roomId, invite) {
  if (invite) window.localStorage.setItem(INVITE_KEY_PREFIX + roomId, invite);
}

/** The invite secret this browser holds for the room, or null. */
export function rememberedInvite(roomId) {
  return window.localStorage.getItem(INVITE_KEY_PREFIX + roomId);
}

function readJson(key) {
  try {
    return JSON.parse(window.localStorage.getItem(key));
  } catch (unreadable) {
    return null;
  }
}

/** The seat this browser holds in the room, or null. */
export function rememberedSeat(roomId) {
  const seat = readJson(SEAT_KEY_PREFIX + roomId);
  return seat && typeof seat.token === "string" ? seat : null;
}

/** Remembers a joined seat (the answer of joinRoom plus the name used). */
export function rememberSeat(roomId, seat) {
  const stored = { ...seat, room_id: roomId, joined_at: seat.joined_at || Date.now() };
  window.localStorage.setItem(SEAT_KEY_PREFIX + roomId, JSON.stringify(stored));
  if (seat.name) window.localStorage.setItem(NAME_KEY, seat.name);
}

/** Forgets the seat (its token was refused, or the room is gone). */
export function forgetSeat(roomId) {
  window.localStorage.removeItem(SEAT_KEY_PREFIX + roomId);
}

/** Every seat this browser remembers, newest first. */
export function rememberedSeats() {
  const seats = [];
  for (let index = 0; index < window.localStorage.length; index += 1) {
    const key = window.localStorage.key(index);
    if (key && key.startsWith(SEAT_KEY_PREFIX)) {
      const seat = readJson(key);
      if (seat && seat.token) seats.push(seat);
    }
  }
  return seats.sort((a, b) => (b.joined_at || 0) - (a.joined_at || 0));
}

/** The name this browser last joined under, to prefill join forms. */
export function lastUsedName() {
  return window.localStorage.getItem(NAME_KEY) || "";
}
