// Draws a `state` message as a table: each seat around the centre with its river of
// discards in front of it, the centre with the wall count, round wind, dealer and deal
// clock, the turn line, the player's hand and choices, and the result panel between deals.
// It also notices what changed since the last state, for the short animations and sounds.

import { rememberedInvite, tableUrl } from "./api.js";
import { clockText, element, replaceChildren } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { HandView } from "./hand.js";
import { variantName, windName } from "./labels.js";
import { PromptView } from "./prompt.js";
import { ResultPanel, resultContext } from "./result_panel.js";
import { isSeatActive, otherSeatsInTurnOrder, playerName, seatName, seatPanel, seatPositions } from "./seats.js";
import { play } from "./sound.js";
import { tileElement, tileShortName } from "./tiles.js";
import { renderAnalysis } from "./analysis_meter.js"; // issue 18: the hand analysis meter

const byId = (id) => document.getElementById(id);
const CALL_SHOWN_MS = 1400;
// The warning ticks of the last seconds of the player's own turn.
const TICK_FROM_MS = 10000;

export class TableView {
  /**
   * `handlers` holds sendAction(action), nextDeal() and fillWithBots(), which the page
   * wires to the connection and the HTTP API.
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.state = null;
    this.previous = null;
    this.resultMessage = null;
    this.busy = false;
    this.hand = new HandView(byId("hand"), (action) => handlers.sendAction(action));
    this.prompt = new PromptView(byId("prompt"), byId("prompt-text"), byId("actions"), (action) => handlers.sendAction(action));
    this.resultPanel = new ResultPanel(byId("result"), byId("result-reopen"), () => handlers.nextDeal());
    this.seatCountdowns = [];
    this.lastTickSecond = null;
  }

  /** Redraws everything from the latest state (and the last result message, if any). */
  render(state, busy) {
    const previous = this.state;
    this.state = state;
    this.busy = busy;
    byId("table").hidden = false;
    const room = state.room || {};
    // A decision waiting in a background tab shows in the tab's title.
    const owesDecision = (state.legal || []).length > 0;
    const tableName = room.name || t("page.brand");
    document.title = `${owesDecision ? t("page.your_move_title") : ""}${variantName(room.variant) || t("page.mahjong")} · ${tableName}`;
    byId("room-title").textContent = `${room.name || t("table.default_name")} · ${variantName(room.variant)}`;
    document.body.classList.toggle("spectating", !state.me);
    document.body.classList.toggle("my-turn", Boolean(state.me) && isSeatActive(state, state.me));
    const waiting = state.phase === "waiting" || !state.seats;
    document.body.classList.toggle("waiting", waiting);
    if (waiting) {
      this.renderWaiting(state);
    } else {
      this.renderDeal(state, busy, busy ? null : previous);
    }
    this.renderResult(state);
    this.tick(Date.now());
  }

  renderWaiting(state) {
    const room = state.room || {};
    const players = room.players || [];
    const free = (room.seat_count || 0) - players.length;
    const board = byId("board");
    board.className = "board waiting-board";
    replaceChildren(byId("table-info"), infoChip(t("centre.status"), t("centre.waiting")), infoChip(t("centre.seats"), t("centre.seats_taken", { taken: players.length, total: room.seat_count || 0 })));
    const link = tableUrl(this.roomId, rememberedInvite(this.roomId));
    replaceChildren(
      byId("opponents"),
      element(
        "article",
        { class: "seat-panel waiting-panel" },
        element("h2", { text: t("waiting.title") }),
        element(
          "ul",
          { class: "waiting-list" },
          players.map((player) => element("li", { text: `${windName(player.seat)} · ${playerName(player)}${player.is_bot ? t("waiting.bot_suffix") : ""}` })),
        ),
        element("p", {}, t("waiting.invite"), " ", element("a", { href: link, class: "invite-link", text: link })),
        element("button", { type: "button", "data-testid": "copy-invite", text: t("waiting.copy"), onclick: (event) => copyLink(link, event.currentTarget) }),
        free > 0
          ? element("button", { type: "button", class: "primary", "data-testid": "fill-bots", text: t("waiting.fill_bots", { count: free }), onclick: () => this.handlers.fillWithBots() })
          : "",
      ),
    );
    replaceChildren(byId("my-table"));
    replaceChildren(byId("hand"));
    byId("prompt").hidden = true;
    byId("turn-text").textContent = t("waiting.first_deal");
    replaceChildren(byId("turn-tile"));
    byId("hand-hint").textContent = "";
    renderAnalysis(byId("analysis"), null); // issue 18
  }

  renderDeal(state, busy, previous) {
    const room = state.room || {};
    const board = byId("board");
    board.className = `board seats-${(state.seats || []).length}`;
    const dealLine = room.deals_total ? t("centre.deal_of", { number: room.deal_no, total: room.deals_total }) : formatNumber(room.deal_no || 1);
    replaceChildren(
      byId("table-info"),
      infoChip(t("centre.wall"), formatNumber(state.wall_remaining ?? 0), "wall-count", "wall"),
      infoChip(t("centre.round"), windName(state.round_wind), "round-wind"),
      infoChip(t("centre.dealer"), `${seatName(state, state.dealer)} (${windName(state.dealer)})`, "dealer"),
      infoChip(t("centre.deal"), dealLine, "deal-number"),
      infoChip(t("centre.deal_clock"), "", "deal-timer"),
    );
    this.seatCountdowns = [];
    const countdownFor = (seat) => {
      if (!isSeatActive(state, seat)) return null;
      const node = element("span", { class: "seat-timer" });
      this.seatCountdowns.push(node);
      return node;
    };
    const positions = seatPositions(state);
    const arrived = newDiscardSeat(previous, state);
    const panelFor = (seat, isMe) =>
      seatPanel(state, seat, { isMe, position: positions[seat], countdown: countdownFor(seat), discardArrives: arrived === seat });
    const others = state.me ? otherSeatsInTurnOrder(state) : otherSeatsInTurnOrder(state).slice(1);
    replaceChildren(byId("opponents"), others.map((seat) => panelFor(seat, false)));
    const bottomSeat = state.me || (state.seats || [])[0];
    replaceChildren(byId("my-table"), bottomSeat ? panelFor(bottomSeat, Boolean(state.me)) : "");
    if (state.me) {
      this.hand.render(state, busy);
      this.prompt.render(state, busy);
    } else {
      replaceChildren(byId("hand"));
      byId("prompt").hidden = true;
    }
    byId("turn-text").textContent = turnText(state);
    // The tile on offer, large in the middle, while a claim is open.
    const onOffer = state.last_discard && (state.phase === "claim" || state.phase === "rob");
    replaceChildren(byId("turn-tile"), onOffer ? tileElement(state.last_discard.tile, { size: "md" }) : "");
    byId("hand-hint").textContent = handHint(state);
    renderAnalysis(byId("analysis"), state); // issue 18
    if (previous) this.announce(previous, state, positions, arrived);
  }

  /** The moment's sounds and calls: a discard, a claim or win called at its seat, my turn. */
  announce(previous, state, positions, arrivedSeat) {
    const calls = claimCalls(previous, state);
    for (const { seat, call } of calls) this.showCall(positions[seat], call);
    if (calls.length) play("claim");
    else if (arrivedSeat) play("discard");
    const myTurnNow = state.me && (state.legal || []).some((action) => action.type === "discard");
    const myTurnBefore = previous.me && (previous.legal || []).some((action) => action.type === "discard");
    if (myTurnNow && !myTurnBefore) play("turn");
  }

  /** Shows a call ("碰", "Pong!") for a moment at the seat that made it. */
  showCall(position, call) {
    const bubble = element("div", { class: `call-bubble pos-${position || "bottom"}`, role: "status", "data-call": call, text: t(`call.${call}`) });
    byId("board").append(bubble);
    setTimeout(() => bubble.remove(), CALL_SHOWN_MS);
  }

  renderResult(state) {
    const ended = state.phase === "ended" && (state.result || this.resultMessage);
    if (!ended) {
      this.resultMessage = null;
      this.resultPanel.render(null);
      return;
    }
    this.resultPanel.render(resultContext(state, this.resultMessage), Boolean(state.me));
  }

  /** Keeps the result of the deal that just ended, to show its running scores and pause. */
  showResult(message) {
    this.resultMessage = message;
    if (this.state) this.renderResult(this.state);
  }

  /** Updates every countdown; called a few times a second. */
  tick(now) {
    const state = this.state;
    if (!state) return;
    const room = state.room || {};
    const timer = byId("turn-timer");
    const turnLeft = remaining(state.turn_deadline, room.turn_seconds, now);
    timer.textContent = turnLeft === null ? "–" : clockText(turnLeft);
    timer.classList.toggle("urgent", turnLeft !== null && turnLeft <= 5000);
    timer.classList.toggle("idle", turnLeft === null);
    for (const node of this.seatCountdowns) node.textContent = turnLeft === null ? "" : clockText(turnLeft);
    const dealTimer = document.querySelector("[data-testid=deal-timer] .chip-value");
    if (dealTimer) {
      const dealLeft = remaining(state.deal_deadline, room.deal_seconds, now);
      dealTimer.textContent = dealLeft === null ? "–" : clockText(dealLeft);
      dealTimer.classList.toggle("urgent", dealLeft !== null && dealLeft <= 30000);
    }
    this.tickWarning(state, turnLeft);
    this.resultPanel.tick(now);
  }

  // One tick a second through the last 10 seconds of a decision that is mine.
  tickWarning(state, turnLeft) {
    const mine = state.me && (state.legal || []).length > 0 && !this.busy;
    if (!mine || turnLeft === null || turnLeft > TICK_FROM_MS || turnLeft <= 0) {
      this.lastTickSecond = null;
      return;
    }
    const second = Math.ceil(turnLeft / 1000);
    if (second !== this.lastTickSecond) {
      this.lastTickSecond = second;
      play("tick");
    }
  }
}

/** The seat whose river grew by one since `previous` (its newest tile slides in), or null. */
function newDiscardSeat(previous, state) {
  if (!previous || !previous.players || !state.last_discard) return null;
  const seat = state.last_discard.seat;
  const before = (previous.players[seat] && previous.players[seat].discards) || [];
  const after = (state.players && state.players[seat] && state.players[seat].discards) || [];
  return after.length === before.length + 1 ? seat : null;
}

const CALL_OF_MELD = { chow: "chow", pong: "pong", kong: "kong" };

/** The calls made since `previous`: a seat's new shown set, and the winners of a won deal. */
function claimCalls(previous, state) {
  const calls = [];
  for (const seat of state.seats || []) {
    const before = ((previous.players || {})[seat] || {}).melds || [];
    const after = ((state.players || {})[seat] || {}).melds || [];
    if (after.length > before.length) {
      const meld = after[after.length - 1];
      calls.push({ seat, call: CALL_OF_MELD[meld.kind] || "kong" });
    } else if (after.length === before.length && after.some((meld, index) => meld.kind === "kong" && before[index].kind !== "kong")) {
      calls.push({ seat, call: "kong" });
    }
  }
  if (state.phase === "ended" && previous.phase !== "ended" && state.result && state.result.outcome === "win") {
    for (const winner of state.result.winners || []) calls.push({ seat: winner.seat, call: "win" });
  }
  return calls;
}

/** Time left until `deadline`, never more than the setting (client and server clocks may differ). */
function remaining(deadline, settingSeconds, now) {
  if (!deadline) return null;
  const left = Math.max(0, deadline - now);
  return settingSeconds ? Math.min(left, settingSeconds * 1000) : left;
}

async function copyLink(link, button) {
  try {
    await navigator.clipboard.writeText(link);
    button.textContent = t("waiting.copied");
  } catch (blocked) {
    // Clipboard access needs a secure context (https or localhost); the link stays selectable.
    button.textContent = t("waiting.copy_by_hand");
  }
}

function infoChip(label, value, testid, kind) {
  return element(
    "span",
    { class: `chip${kind ? ` chip-${kind}` : ""}`, "data-testid": testid || null },
    element("span", { class: "chip-label", text: label }),
    element("span", { class: "chip-value", text: value }),
  );
}

function turnText(state) {
  if (state.phase === "ended") return t("turn.over");
  const discard = state.last_discard;
  const mine = state.me && isSeatActive(state, state.me);
  if (state.phase === "claim" || state.phase === "rob") {
    const tile = discard ? tileShortName(discard.tile) : t("turn.the_tile");
    return t(mine ? "turn.claim_mine" : "turn.claim_wait", { tile });
  }
  if (mine) return t("turn.yours");
  return t("turn.other", { name: seatName(state, state.turn), wind: windName(state.turn) });
}

function handHint(state) {
  if (!state.me) return t("hint.watching");
  const canDiscard = (state.legal || []).some((action) => action.type === "discard");
  return canDiscard ? t("hint.discard") : "";
}
