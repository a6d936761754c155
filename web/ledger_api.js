// The ledger's calls (docs/protocol.md, "Ledgers") and what this browser remembers of a
// ledger: under "mahjong-hall:ledger:<id>" its invite, the host's secret when this
// browser opened it, and who holds this phone ({invite, host_token, me}).

import { has, t } from "./i18n.js";

const KEY_PREFIX = "mahjong-hall:ledger:";

/** A refused call: the status, the server's code, its message and details. */
export class LedgerCallError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || null;
  }
}

async function call(method, path, body, headers = {}) {
  const options = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (unreachable) {
    throw new LedgerCallError(0, "network", t("error.network"));
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (answer && answer.error) || {};
    const said = error.message || t("error.http", { status: response.status });
    const words = has(`ledger.error.${error.code}`) ? t(`ledger.error.${error.code}`, { message: said }) : said;
    throw new LedgerCallError(response.status, error.code || `http_${response.status}`, words, error.details);
  }
  return answer;
}

const base = (id) => `/api/ledgers/${encodeURIComponent(id)}`;
const query = (fields) => `?${new URLSearchParams(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined))}`;

/** Opens a ledger: {ledger_id, invite, url, host_token}. */
export const openLedger = (body) => call("POST", "/api/ledgers", body);
/** The whole ledger. */
export const readLedger = (id, invite) => call("GET", `${base(id)}${query({ invite })}`);
/** What a hand would come to, saving nothing (`hand_no`: in place of that hand). */
export const checkHand = (id, invite, hand) => call("POST", `${base(id)}/hands/check`, { ...hand, invite });
/** Records a hand at the end of the night. */
export const addHand = (id, invite, hand, by) => call("POST", `${base(id)}/hands`, { ...hand, invite, by });
/** Changes hand `handNo`, as seen at `revision`. */
export const editHand = (id, invite, handNo, hand, by, revision) =>
  call("PUT", `${base(id)}/hands/${handNo}`, { ...hand, invite, by, revision });
/** Deletes hand `handNo`, as seen at `revision`. */
export const deleteHand = (id, invite, handNo, by, revision) =>
  call("DELETE", `${base(id)}/hands/${handNo}${query({ invite, by, revision })}`);
/** Every change of the ledger. */
export const readHistory = (id, invite) => call("GET", `${base(id)}/history${query({ invite })}`);
/** The fewest transfers that square the night. */
export const settleUp = (id, invite) => call("GET", `${base(id)}/settle-up${query({ invite })}`);
/** The host lets the night join the dashboard's standings (or not). */
export const setInStandings = (id, invite, hostToken, value, by) =>
  call("PATCH", base(id), { in_standings: value, invite, by }, { Authorization: `Bearer ${hostToken}` });

/** The live socket's address. */
export function ledgerSocketUrl(id, invite) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}/ws/ledgers/${encodeURIComponent(id)}${query({ invite })}`;
}

/** What this browser remembers of ledger `id`. */
export function remembered(id) {
  try {
    return JSON.parse(window.localStorage.getItem(KEY_PREFIX + id)) || {};
  } catch (unreadable) {
    return {};
  }
}

/** Remembers more of ledger `id` (merged with what is already kept). */
export function remember(id, fields) {
  try {
    window.localStorage.setItem(KEY_PREFIX + id, JSON.stringify({ ...remembered(id), ...fields }));
  } catch (refused) {
    // A browser that refuses storage keeps the ledger for this page only.
  }
}
