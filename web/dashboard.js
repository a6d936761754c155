// The results dashboard: filters, recent deals with their breakdown and replay,
// standings, charts and operations, all read from /api/dashboard/...
// Names come from players, so every value is put on the page with textContent.

import { barList, columnChart } from "/dashboard/assets/dashboard-charts.js";
import { rulesText, showRoomGames } from "/dashboard/assets/dashboard-games.js";
import { noteLedgersJoined, showLedgerNights } from "/dashboard/assets/dashboard-ledgers.js";
import { formatDateTime, formatNumber, has, installLanguageMenu, t, translatePage } from "/static/i18n.js";
import { moveLabel, patternName, paymentReason, playerName, variantName, windName } from "/static/labels.js";

const TOKEN_KEY = "mahjong-hall-admin-token";
const PAGE_SIZE = 25;

// The server names its bots "Bot 2"; the dashboard words them in the page's language.
function shownName(name, isBot = false) {
  const worded = playerName(name);
  return isBot && worded === name ? t("dash.bot_name", { name }) : worded;
}

/** "Ana (East)": a player and the wind of the seat, never the seat's letter. */
function atSeat(name, seat) {
  return seat ? `${name || windName(seat)} (${windName(seat)})` : name || "";
}

/**
 * Below 640 px a table reads as cards (dashboard.css): each cell shows its column's
 * heading beside its value, taken from the table's own header row.
 */
function labelCells(root = document) {
  for (const table of root.querySelectorAll("table[class~=grid]")) {
    const headings = [...table.querySelectorAll("thead th")].map((heading) => heading.textContent);
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cellNode, index) => {
        if (headings[index] && !cellNode.hasAttribute("colspan")) cellNode.dataset.label = headings[index];
      });
    }
  }
}

/** A pattern's name that never breaks inside (七對子 stays whole on a phone). */
function patternWords(id) {
  return element("span", { class: "pattern-name", text: patternName(id) });
}

function outcomeName(outcome) {
  return has(`dash.outcome.${outcome}`) ? t(`dash.outcome.${outcome}`) : String(outcome);
}

const state = { tab: "deals", offset: 0, selectedDeal: null, room: null };

// ---------------------------------------------------------------- small helpers

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function cell(text, className = null) {
  const shown = text === null || text === undefined ? "–" : typeof text === "number" ? formatNumber(text) : String(text);
  return element("td", { class: className, text: shown });
}

function when(iso) {
  return formatDateTime(iso);
}

function minutes(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function setStatus(text, isError = false) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

// ---------------------------------------------------------------- access token

function takeTokenFromUrl() {
  // ?token=... in the page's own address is stored, then removed from the address bar
  // so it does not linger in the history or get copied with the link.
  const url = new URL(window.location.href);
  const token = url.searchParams.get("token");
  if (token) {
    localStorage.setItem(TOKEN_KEY, token);
    url.searchParams.delete("token");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
}

class NeedsToken extends Error {}

async function api(path, params = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params)) {
    if (value !== "" && value !== null && value !== undefined) url.searchParams.set(name, value);
  }
  const headers = { Accept: "application/json" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { headers });
  if (response.status === 401) throw new NeedsToken();
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message || `HTTP ${response.status}`);
  return body;
}

function askForToken(rejected) {
  const form = document.getElementById("token-form");
  form.hidden = false;
  document.getElementById("token-error").hidden = !rejected;
  document.getElementById("token-input").focus();
  setStatus(t("dash.locked"));
}

// ---------------------------------------------------------------- filters

function filters() {
  const form = document.getElementById("filters");
  const values = Object.fromEntries(new FormData(form).entries());
  for (const name of Object.keys(values)) values[name] = String(values[name]).trim();
  return values;
}

// ---------------------------------------------------------------- deals

async function showDeals() {
  const page = await api("/api/dashboard/deals", { ...filters(), limit: PAGE_SIZE, offset: state.offset });
  const body = document.querySelector('[data-testid="deals-table"] tbody');
  body.replaceChildren(
    ...page.deals.map((deal) => {
      const winner = deal.winners.map((w) => shownName(w.name) || w.seat).join(t("list.comma"));
      const row = element(
        "tr",
        { class: "clickable", "data-testid": "deal-row", "data-deal-id": String(deal.deal_id), tabindex: "0" },
        cell(when(deal.ended_at)),
        cell(variantName(deal.variant)),
        cell(deal.room_id),
        cell(outcomeName(deal.outcome), `outcome outcome-${deal.outcome}`),
        cell(winner || "–"),
        cell(deal.fan, "number"),
        cell(minutes(deal.duration_seconds), "number"),
        cell(rulesText(deal.house_rules), deal.house_rules && Object.keys(deal.house_rules).length ? "house-rules" : "muted"),
      );
      const open = () => showDeal(deal.deal_id).catch(report);
      row.addEventListener("click", open);
      row.addEventListener("keydown", (event) => { if (event.key === "Enter") open(); });
      return row;
    }),
  );
  if (!page.deals.length) body.append(element("tr", {}, element("td", { colspan: "8", class: "muted", text: t("dash.no_deals") })));
  document.getElementById("newer").disabled = state.offset === 0;
  document.getElementById("older").disabled = !page.has_more;
  // Real-table nights beside the online games; the deals do not wait for them.
  showLedgerNights(api, filters()).catch(report);
}

async function showDeal(dealId) {
  const deal = await api(`/api/dashboard/deals/${encodeURIComponent(dealId)}`);
  state.selectedDeal = dealId;
  for (const row of document.querySelectorAll('[data-testid="deal-row"]')) {
    row.classList.toggle("selected", row.dataset.dealId === String(dealId));
  }
  const detail = document.getElementById("deal-detail");
  const players = element("table", { class: "grid" },
    element("thead", {}, element("tr", {}, element("th", { text: t("dash.seat") }), element("th", { text: t("dash.player") }), element("th", { class: "number", text: t("dash.net") }))),
    element("tbody", {}, deal.players.map((p) => element("tr", {}, cell(windName(p.seat)), cell(shownName(p.name, p.is_bot)), cell(p.net_points, "number")))),
  );
  const winners = deal.winners.length
    ? deal.winners.map((w) => element("div", { "data-testid": "deal-winner" },
        element("strong", { text: `${atSeat(shownName(w.name), w.seat)} · ${t("result.fan", { fan: w.fan })}${w.limit ? ` · ${t("result.limit")}` : ""} · ${t("result.points", { points: w.points })}` }),
        element("ul", {}, (w.patterns || []).map((p) => element("li", { "data-testid": "deal-pattern" }, patternWords(p.id), `: ${t("result.fan", { fan: p.fan })}`))),
      ))
    : [element("p", { class: "muted", text: t(deal.outcome === "timeout" ? "dash.no_winner_timeout" : "dash.no_winner_draw") })];
  const payments = element("table", { class: "grid", "data-testid": "deal-payments" },
    element("thead", {}, element("tr", {}, ["result.from", "result.to", "result.points_head", "result.reason"].map((key) => element("th", { text: t(key) })))),
    element("tbody", {}, deal.payments.map((p) => element("tr", {},
      cell(atSeat(shownName(p.from_name), p.from)), cell(atSeat(shownName(p.to_name), p.to)), cell(p.points, "number"), cell(paymentReason(p.reason))))),
  );
  // The log stores a claim without the discard it took: the last discard before it says.
  let lastDiscard = null;
  const actions = element("ol", { class: "actions-log", "data-testid": "deal-actions" },
    deal.actions.map((a) => {
      const move = moveLabel(a.action, lastDiscard);
      if (a.action.type === "discard") lastDiscard = a.action.tile;
      const who = a.seat ? atSeat(shownName(a.player), a.seat) : t("dash.the_table");
      const reason = has(`dash.bot_reason.${a.bot_reason}`) ? t(`dash.bot_reason.${a.bot_reason}`) : a.bot_reason;
      const bot = a.by_bot ? ` · ${t("dash.by_bot", { reason })}` : "";
      return element("li", { class: a.by_bot ? "bot" : null, text: `${who}: ${move}${bot}` });
    }),
  );
  detail.replaceChildren(
    element("h2", { text: t("dash.deal_title", { id: deal.deal_id, table: variantName(deal.variant) }) }),
    // issue 18: the deal in the replay viewer (a room plays one game, so deal_no counts its deals).
    element("p", {}, element("a", { href: `/rooms/${encodeURIComponent(deal.room_id)}/deals/${deal.deal_no}`, "data-testid": "dashboard-replay", target: "_blank", text: t("learn.replay_link") })),
    element("dl", {},
      element("dt", { text: t("dash.room") }), element("dd", { text: t("dash.room_line", { room: deal.room_id, game: deal.game_no, deal: deal.deal_no }) }),
      element("dt", { text: t("dash.played") }), element("dd", { text: `${when(deal.started_at)} – ${when(deal.ended_at)} (${minutes(deal.duration_seconds)})` }),
      element("dt", { text: t("dash.outcome") }), element("dd", { class: `outcome outcome-${deal.outcome}`, text: deal.outcome ? outcomeName(deal.outcome) : t("dash.in_progress") }),
      // The seed comes as a string (exact beyond 2^53): shown as sent, it replays the deal.
      element("dt", { text: t("dash.seed") }), element("dd", { class: "seed", "data-testid": "deal-seed", text: String(deal.seed) }),
      element("dt", { text: t("dash.rules") }), element("dd", { "data-testid": "deal-rules", text: rulesText(deal.house_rules) }),
    ),
    element("p", {}, element("a", { href: `#room=${encodeURIComponent(deal.room_id)}`, "data-testid": "room-games-link", text: t("dash.room_games"), onclick: (event) => { event.preventDefault(); openRoom(deal.room_id); } })),
    element("h3", { text: t("dash.winners") }), ...winners,
    element("h3", { text: t("dash.players") }), players,
    element("h3", { text: t("result.payments") }), payments,
    element("h3", { text: t("dash.actions", { count: deal.actions.length }) }), actions,
  );
  labelCells(detail);
}

// ---------------------------------------------------------------- standings

async function showStandings() {
  const includeBots = document.getElementById("include-bots").checked;
  const table = await api("/api/dashboard/standings", { ...filters(), include_bots: includeBots ? "true" : "" });
  const body = document.querySelector('[data-testid="standings-table"] tbody');
  body.replaceChildren(...table.players.map((p) => element("tr", { "data-testid": "standing-row" },
    cell(shownName(p.name, p.is_bot)), cell(p.points, "number"), cell(p.deals, "number"),
    cell(p.wins, "number"), cell(p.self_draws, "number"), cell(p.dealt_in, "number"),
    cell(p.average_winning_fan, "number"), cell(p.rooms, "number"))));
  if (!table.players.length) body.append(element("tr", {}, element("td", { colspan: "8", class: "muted", text: t("dash.no_players") })));
  noteLedgersJoined(table);
}

// ---------------------------------------------------------------- charts

// A duration bucket in words, from its bounds in seconds (the server's label is English).
function durationLabel(bucket) {
  const minutes = (seconds) => formatNumber(seconds / 60);
  if (bucket.to === null || bucket.to === undefined) return t("dash.chart.over", { from: minutes(bucket.from) });
  if (!bucket.from) return t("dash.chart.under", { to: minutes(bucket.to) });
  return t("dash.chart.range", { from: minutes(bucket.from), to: minutes(bucket.to) });
}

async function showCharts() {
  const charts = await api("/api/dashboard/charts", filters());
  const chart = (name) => document.querySelector(`[data-testid="chart-${name}"]`);
  const empty = { emptyText: t("dash.chart.no_deals") };
  columnChart(chart("winning-fan"), charts.winning_fan.map((b) => ({ label: formatNumber(b.fan), value: b.count })), { title: t("dash.chart.winning_fan"), ...empty });
  columnChart(chart("outcomes"), Object.entries(charts.outcomes).map(([outcome, count]) => ({ label: outcomeName(outcome), value: count, kind: outcome })), { title: t("dash.chart.outcomes"), ...empty });
  barList(chart("patterns"), charts.patterns.map((p) => ({ label: patternName(p.id), value: p.count })), { title: t("dash.chart.patterns"), emptyText: t("dash.chart.no_wins") });
  columnChart(chart("durations"), charts.durations.map((b) => ({ label: durationLabel(b), value: b.count })), { title: t("dash.chart.durations"), ...empty });
}

// ---------------------------------------------------------------- operations

async function showOperations() {
  const ops = await api("/api/dashboard/operations", filters());
  const live = ops.live;
  document.getElementById("live-summary").textContent =
    t("dash.live_summary", { tables: live.tables, rooms: live.rooms.length, players: live.connected_players, spectators: live.spectators });
  document.querySelector('[data-testid="live-tables"] tbody').replaceChildren(...live.rooms.map((room) => element("tr", {},
    cell(room.name ? `${room.name} (${room.room_id})` : room.room_id),
    cell(variantName(room.variant)), cell(has(`lobby.status.${room.status}`) ? t(`lobby.status.${room.status}`) : room.status), cell(room.deal_no, "number"),
    element("td", {}, room.players.map((p, index) => element("span", {
      class: p.is_bot ? "muted" : p.connected ? "connected" : "away",
      text: `${index ? t("list.comma") : ""}${shownName(p.name)}${p.seat ? ` (${windName(p.seat)})` : ""}${p.is_bot ? t("dash.bot_suffix") : p.bot_covered ? t("dash.away_suffix") : ""}`,
    }))),
    cell(room.spectators, "number"))));
  document.querySelector('[data-testid="bot-cover"] tbody').replaceChildren(...ops.bot_cover.map((row) => element("tr", {},
    cell(shownName(row.name)), cell(row.timed_out, "number"), cell(row.disconnected, "number"))));
  document.getElementById("deal-limit-count").textContent = t("dash.deal_limit_count", { count: ops.deal_limit.count });
  document.getElementById("deal-limit-list").replaceChildren(...ops.deal_limit.recent.map((deal) => element("li", {},
    element("a", { href: "#", text: `${t("dash.deal_title", { id: deal.deal_id, table: variantName(deal.variant) })} · ${deal.room_id} · ${when(deal.ended_at)}`,
      onclick: (event) => { event.preventDefault(); selectTab("deals"); showDeal(deal.deal_id).catch(report); } }))));
}

// ---------------------------------------------------------------- a room's games

function showRoom() {
  return showRoomGames(document.getElementById("tab-room"), document.getElementById("room-value"), state.room, { api, shownName });
}

function openRoom(roomId) {
  state.room = roomId;
  window.history.replaceState(null, "", `#room=${encodeURIComponent(roomId)}`);
  selectTab("room");
  refresh();
}

// ---------------------------------------------------------------- wiring

const SHOW = { deals: showDeals, standings: showStandings, charts: showCharts, operations: showOperations, room: showRoom };

function report(error) {
  if (error instanceof NeedsToken) {
    askForToken(Boolean(localStorage.getItem(TOKEN_KEY)));
    return;
  }
  setStatus(t("dash.could_not_load", { message: error.message }), true);
}

async function refresh() {
  setStatus(t("dash.loading"));
  try {
    await SHOW[state.tab]();
    labelCells();
    document.getElementById("token-form").hidden = true;
    setStatus("");
  } catch (error) {
    report(error);
  }
}

function selectTab(tab) {
  state.tab = tab;
  for (const button of document.querySelectorAll(".tab")) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.dataset.panel !== tab;
}

function start() {
  translatePage();
  installLanguageMenu();
  takeTokenFromUrl();
  for (const button of document.querySelectorAll(".tab")) {
    button.addEventListener("click", () => { selectTab(button.dataset.tab); refresh(); });
  }
  const form = document.getElementById("filters");
  form.addEventListener("submit", (event) => { event.preventDefault(); state.offset = 0; refresh(); });
  form.addEventListener("reset", () => { state.offset = 0; setTimeout(refresh, 0); });
  document.getElementById("older").addEventListener("click", () => { state.offset += PAGE_SIZE; refresh(); });
  document.getElementById("newer").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE_SIZE); refresh(); });
  document.getElementById("include-bots").addEventListener("change", refresh);
  document.getElementById("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    localStorage.setItem(TOKEN_KEY, document.getElementById("token-input").value.trim());
    refresh();
  });
  document.getElementById("room-value").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
  const wanted = new URL(window.location.href).hash.replace("#", "");
  // "#room=<id>": the page of one room, its games and their settlement.
  if (wanted.startsWith("room=") && wanted.length > 5) state.room = decodeURIComponent(wanted.slice(5));
  selectTab(state.room ? "room" : SHOW[wanted] ? wanted : "deals");
  refresh();
}

start();
