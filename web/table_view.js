// Draws a `state` message: the deal information, every seat, the turn line and timers,
// the player's hand and choices, and the result panel between deals.

import { rememberedInvite, tableUrl } from "./api.js";
import { clockText, element, replaceChildren } from "./dom.js";
import { HandView } from "./hand.js";
import { VARIANT_NAMES, WIND_NAMES } from "./labels.js";
import { PromptView } from "./prompt.js";
import { ResultPanel, resultContext } from "./result_panel.js";
import { isSeatActive, otherSeatsInTurnOrder, seatName, seatPanel } from "./seats.js";
import { tileElement, tileShortName } from "./tiles.js";

const byId = (id) => document.getElementById(id);

export class TableView {
  /**
   * `handlers` holds sendAction(action), nextDeal() and fillWithBots(), which the page
   * wires to the connection and the HTTP API.
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.state = null;
    this.resultMessage = null;
    this.busy = false;
    this.hand = new HandView(byId("hand"), (action) => handlers.sendAction(action));
    this.prompt = new PromptView(byId("prompt"), byId("prompt-text"), byId("actions"), (action) => handlers.sendAction(action));
    this.resultPanel = new ResultPanel(byId("result"), byId("result-reopen"), () => handlers.nextDeal());
    this.seatCountdowns = [];
  }

  /** Redraws everything from the latest state (and the last result message, if any). */
  render(state, busy) {
    this.state = state;
    this.busy = busy;
    byId("table").hidden = false;
    const room = state.room || {};
    // A decision waiting in a background tab shows in the tab's title.
    const owesDecision = (state.legal || []).length > 0;
    document.title = `${owesDecision ? "● Your move · " : ""}${VARIANT_NAMES[room.variant] || "Mahjong"} · ${room.name || "Mahjong Hall"}`;
    byId("room-title").textContent = `${room.name || "Table"} · ${VARIANT_NAMES[room.variant] || ""}`;
    document.body.classList.toggle("spectating", !state.me);
    document.body.classList.toggle("my-turn", Boolean(state.me) && isSeatActive(state, state.me));
    const waiting = state.phase === "waiting" || !state.seats;
    document.body.classList.toggle("waiting", waiting);
    if (waiting) {
      this.renderWaiting(state);
    } else {
      this.renderDeal(state, busy);
    }
    this.renderResult(state);
    this.tick(Date.now());
  }

  renderWaiting(state) {
    const room = state.room || {};
    const players = room.players || [];
    const free = (room.seat_count || 0) - players.length;
    replaceChildren(byId("table-info"), infoChip("Status", "waiting for players"), infoChip("Seats", `${players.length} of ${room.seat_count || "?"}`));
    const link = tableUrl(this.roomId, rememberedInvite(this.roomId));
    replaceChildren(
      byId("opponents"),
      element(
        "article",
        { class: "seat-panel waiting-panel" },
        element("h2", { text: "Waiting for players" }),
        element("ul", { class: "waiting-list" }, players.map((player) => element("li", { text: `${WIND_NAMES[player.seat] || ""} · ${player.name}${player.is_bot ? " (bot)" : ""}` }))),
        element("p", {}, "Invite friends with this link: ", element("a", { href: link, class: "invite-link", text: link })),
        element("button", { type: "button", "data-testid": "copy-invite", text: "Copy the link", onclick: (event) => copyLink(link, event.currentTarget) }),
        free > 0
          ? element("button", { type: "button", class: "primary", "data-testid": "fill-bots", text: `Fill ${free} empty seat${free === 1 ? "" : "s"} with bots`, onclick: () => this.handlers.fillWithBots() })
          : "",
      ),
    );
    replaceChildren(byId("my-table"));
    replaceChildren(byId("hand"));
    byId("prompt").hidden = true;
    byId("turn-text").textContent = "The first deal starts when every seat is taken.";
    replaceChildren(byId("turn-tile"));
    byId("hand-hint").textContent = "";
  }

  renderDeal(state, busy) {
    const room = state.room || {};
    const dealLine = room.deals_total ? `${room.deal_no} of ${room.deals_total}` : `${room.deal_no || 1}`;
    replaceChildren(
      byId("table-info"),
      infoChip("Deal", dealLine),
      infoChip("Round", WIND_NAMES[state.round_wind] || state.round_wind),
      infoChip("Dealer", `${seatName(state, state.dealer)} (${state.dealer})`),
      infoChip("Wall", `${state.wall_remaining ?? "?"}`, "wall-count"),
      infoChip("Deal clock", "", "deal-timer"),
    );
    this.seatCountdowns = [];
    const countdownFor = (seat) => {
      if (!isSeatActive(state, seat)) return null;
      const node = element("span", { class: "seat-timer" });
      this.seatCountdowns.push(node);
      return node;
    };
    replaceChildren(byId("opponents"), otherSeatsInTurnOrder(state).map((seat) => seatPanel(state, seat, { countdown: countdownFor(seat) })));
    if (state.me) {
      replaceChildren(byId("my-table"), seatPanel(state, state.me, { isMe: true, countdown: countdownFor(state.me) }));
      this.hand.render(state, busy);
      this.prompt.render(state, busy);
    } else {
      replaceChildren(byId("my-table"));
      replaceChildren(byId("hand"));
      byId("prompt").hidden = true;
    }
    byId("turn-text").textContent = turnText(state);
    // The tile on offer, large in the middle, while a claim is open.
    const onOffer = state.last_discard && (state.phase === "claim" || state.phase === "rob");
    replaceChildren(byId("turn-tile"), onOffer ? tileElement(state.last_discard.tile, { size: "md" }) : "");
    byId("hand-hint").textContent = handHint(state);
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
    this.resultPanel.tick(now);
  }
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
    button.textContent = "Copied";
  } catch (blocked) {
    // Clipboard access needs a secure context (https or localhost); the link stays selectable.
    button.textContent = "Select the link above to copy it";
  }
}

function infoChip(label, value, testid) {
  return element(
    "span",
    { class: "chip", "data-testid": testid || null },
    element("span", { class: "chip-label", text: label }),
    element("span", { class: "chip-value", text: value }),
  );
}

function turnText(state) {
  if (state.phase === "ended") return "The deal is over.";
  const discard = state.last_discard;
  const mine = state.me && isSeatActive(state, state.me);
  if (state.phase === "claim" || state.phase === "rob") {
    const tile = discard ? tileShortName(discard.tile) : "the tile";
    if (mine) return `Claim ${tile}? Decide before the timer runs out.`;
    return `Waiting for claims on ${tile}`;
  }
  if (mine) return "Your turn";
  return `${seatName(state, state.turn)} (${WIND_NAMES[state.turn] || state.turn}) to play`;
}

function handHint(state) {
  if (!state.me) return "You are watching this table.";
  const canDiscard = (state.legal || []).some((action) => action.type === "discard");
  if (canDiscard) return "Tap a tile to discard it. Keys: ←/→ choose, Enter discards, 1–9/0 pick a tile, D the drawn tile.";
  return "";
}
