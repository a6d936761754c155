// The HTTP side of docs/protocol.md, and the seats this browser remembers.
//
// A seat is remembered in localStorage under "mahjong-hall:seat:<room_id>" as
// {room_id, token, name, seat, player_index, variant, joined_at}. The token is the player's
// secret for the room: with it a reload (or a later visit) lands back in the same seat.

import { has, t } from "./i18n.js";

const SEAT_KEY_PREFIX = "mahjong-hall:seat:";
const NAME_KEY = "mahjong-hall:name";

/** An HTTP answer that was not 2xx, with the server's error code and message. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || [];
  }
}

async function requestJson(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
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
export function joinRoom(roomId, name) {
  return requestJson("POST", `/api/rooms/${encodeURIComponent(roomId)}/join`, { name });
}

/** Fills every empty seat of the room with a bot (the first deal then starts). */
export function fillWithBots(roomId) {
  return requestJson("POST", `/api/rooms/${encodeURIComponent(roomId)}/bots`, {});
}

/** The public room object. */
export function fetchRoom(roomId) {
  return requestJson("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
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

/** The link to a room's table, for inviting friends. */
export function tableUrl(roomId) {
  return `${window.location.origin}/rooms/${encodeURIComponent(roomId)}`;
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
