// The replay viewer of a finished deal (/rooms/{room}/deals/{n}): every hand open, step
// forward and back, jump to any move, autoplay at a chosen speed. Each move says who
// played it and, for a bot, why; the moments that decided the deal are marked; the result
// ends the replay with its full breakdown. The server rebuilds the deal from its stored
// seed and log and answers only once the deal is over (docs/learning.md).

import { rememberedInvite, rememberedSeat } from "./api.js";
import { element, replaceChildren } from "./dom.js";
import { formatSigned, installLanguageMenu, t, translatePage } from "./i18n.js";
import { actionLabel, outcomeTitle, patternName, paymentReason, windName } from "./labels.js";
import { tileRow } from "./tiles.js";

const byId = (id) => document.getElementById(id);
const [, , roomId, , dealNo] = window.location.pathname.split("/");

let replay = null;
let index = 0;
let timer = null;

function nameOf(seat) {
  const player = (replay.players || []).find((candidate) => candidate.seat === seat);
  const name = player ? player.name : seat;
  return `${name} (${windName(seat)})`;
}

function reasonText(reason) {
  return reason ? t(`dash.bot_reason.${reason}`) : t("replay.by_bot_seat");
}

function markText(mark) {
  const seat = mark.seat ? nameOf(mark.seat) : "";
  switch (mark.kind) {
    case "winning_discard":
      return t("replay.mark.winning_discard", { seat, winner: nameOf(mark.winner) });
    case "fei_sunk":
      return t(mark.helped ? "replay.mark.fei_sunk_helped" : "replay.mark.fei_sunk_no_help", { seat });
    case "liability":
      return t("replay.mark.liability", { seat, for: nameOf(mark.for) });
    case "bot_stood_in":
      return t("replay.mark.bot_stood_in", { seat, reason: reasonText(mark.reason) });
    default:
      return t(`replay.mark.${mark.kind}`, { seat });
  }
}

function moveText(step) {
  if (!step.action) return t("replay.dealt");
  const claimed = step.action.type === "chow" || step.action.type === "pong" || step.action.type === "kong" ? previousDiscard(step.index) : null;
  const who = step.seat ? nameOf(step.seat) : "";
  const bot = step.by_bot ? ` · ${t("replay.by_bot", { reason: reasonText(step.bot_reason) })}` : "";
  return `${t("replay.step_of", { index: step.index, total: replay.steps.length - 1 })}: ${who} ${actionLabel(step.action, claimed)}${bot}`;
}

function previousDiscard(at) {
  const before = replay.steps[at - 1];
  return before && before.view.last_discard ? before.view.last_discard.tile : null;
}

function seatBox(step, seat) {
  const player = step.view.players[seat];
  const hand = [...(player.hand || [])];
  return element(
    "article",
    { class: `replay-seat${step.view.turn === seat && step.view.phase !== "ended" ? " to-act" : ""}`, "data-testid": "replay-seat", "data-seat": seat },
    element("h2", { text: `${nameOf(seat)} · ${formatSigned(step.view.scores[seat] || 0)}` }),
    element("div", { class: "row hand", "data-testid": "replay-hand" }, tileRow(hand, { size: "sm" }), player.drawn_tile ? tileRow([player.drawn_tile], { size: "sm", classes: ["drawn"] }) : ""),
    element("div", { class: "row melds" }, (player.melds || []).map((meld) => tileRow(meld.tiles, { size: "sm" }))),
    element("div", { class: "row bonus" }, tileRow(player.bonus || [], { size: "sm" })),
    element("div", { class: "row discards" }, tileRow(player.discards || [], { size: "sm" })),
  );
}

function resultBox(result) {
  const winners = (result.winners || []).map((winner) =>
    element(
      "section",
      { class: "winner" },
      element("h3", { text: t("replay.winner", { name: nameOf(winner.seat), fan: winner.fan, points: winner.points }) }),
      element("ul", {}, (winner.patterns || []).map((pattern) => element("li", { text: `${patternName(pattern.id)} · ${pattern.fan}` }))),
    ),
  );
  const hints = Object.entries(replay.hints || {});
  return [
    element("h2", { text: `${t("replay.result")}: ${outcomeTitle(result, nameOf)}` }),
    winners.length ? winners : element("p", { text: t("replay.no_winner") }),
    element("ul", { class: "payments" }, (result.payments || []).map((paid) => element("li", { text: `${nameOf(paid.from)} → ${nameOf(paid.to)} · ${paid.points} · ${paymentReason(paid.reason)}` }))),
    element("h3", { text: t("replay.scores") }),
    element(
      "ul",
      { class: "scores", "data-testid": "replay-scores" },
      Object.entries(result.scores || {}).map(([seat, points]) => element("li", { "data-seat": seat, "data-points": String(points), text: `${nameOf(seat)}: ${formatSigned(points)}` })),
    ),
    hints.length ? element("p", { class: "hints-used", "data-testid": "hints-used" }, `${t("learn.hints_used")}: `, hints.map(([seat, count]) => t("learn.hint_count", { name: nameOf(seat), count })).join(", ")) : "",
  ];
}

function show(at) {
  index = Math.max(0, Math.min(at, replay.steps.length - 1));
  const step = replay.steps[index];
  byId("replay-slider").value = String(index);
  byId("replay-move").textContent = moveText(step);
  replaceChildren(byId("replay-marks"), step.marks.map((mark) => element("li", { "data-kind": mark.kind, text: markText(mark) })));
  replaceChildren(byId("replay-seats"), (step.view.seats || []).map((seat) => seatBox(step, seat)));
  const atEnd = index === replay.steps.length - 1;
  byId("replay-result").hidden = !atEnd;
  if (atEnd) {
    replaceChildren(byId("replay-result"), ...resultBox(replay.result));
    stop();
  }
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  byId("replay-play").textContent = t("replay.play");
}

function play() {
  if (timer !== null) return stop();
  if (index === replay.steps.length - 1) show(0);
  const speed = Number(byId("replay-speed").value) || 1;
  byId("replay-play").textContent = t("replay.pause");
  timer = setInterval(() => show(index + 1), 1000 / speed);
}

function moments() {
  const listed = [];
  for (const step of replay.steps) {
    for (const mark of step.marks) {
      listed.push(element("li", { "data-kind": mark.kind }, element("button", { type: "button", text: `${step.index}. ${markText(mark)}`, onclick: () => show(step.index) })));
    }
  }
  replaceChildren(byId("replay-moments"), listed);
}

async function start() {
  translatePage();
  installLanguageMenu();
  // A private table's deal needs what watching it needs: its invite, or a seat's token.
  const seat = rememberedSeat(roomId);
  const invite = rememberedInvite(roomId);
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const headers = seat && seat.token ? { Authorization: `Bearer ${seat.token}` } : {};
  const answer = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/deals/${encodeURIComponent(dealNo)}${query}`, { headers });
  if (!answer.ok) {
    byId("replay-error").hidden = false;
    byId("replay-error").textContent = t("replay.not_found");
    return;
  }
  replay = await answer.json();
  byId("replay-controls").hidden = false;
  byId("replay-slider").max = String(replay.steps.length - 1);
  byId("replay-export").href = replay.export + query;
  byId("replay-start").onclick = () => { stop(); show(0); };
  byId("replay-back").onclick = () => { stop(); show(index - 1); };
  byId("replay-forward").onclick = () => { stop(); show(index + 1); };
  byId("replay-end").onclick = () => { stop(); show(replay.steps.length - 1); };
  byId("replay-play").onclick = play;
  byId("replay-speed").onchange = () => { if (timer !== null) { stop(); play(); } };
  byId("replay-slider").oninput = (event) => { stop(); show(Number(event.target.value)); };
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") show(index + 1);
    else if (event.key === "ArrowLeft") show(index - 1);
  });
  moments();
  show(0);
  document.body.dataset.ready = "true";
}

start();
