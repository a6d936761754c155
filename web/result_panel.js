// The end-of-deal panel: the winning hand as sets, its patterns and fan, every payment with
// its reason, the deal's and the game's scores, and the button for the next deal.

import { clockText, element, replaceChildren } from "./dom.js";
import { VARIANT_NAMES, WIND_NAMES, outcomeTitle, patternName, paymentReason } from "./labels.js";
import { meldElement } from "./seats.js";
import { asTileList, tileRow, tileSuit } from "./tiles.js";

// The table's fan cap, shown beside the total. It comes from RULES.md; the server's own
// figure wins when the result carries one.
const FAN_CAP = { hk: 8, kaki3: 10 };

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

/**
 * Everything the panel shows, gathered from the `result` message when there is one, or
 * from the state's result after a reload between deals.
 */
export function resultContext(state, resultMessage) {
  const result = resultMessage || state.result;
  const seatPlayers = { ...(resultMessage && resultMessage.seat_players) };
  for (const player of (state.room && state.room.players) || []) {
    if (!seatPlayers[player.seat]) seatPlayers[player.seat] = player.name;
  }
  return {
    result,
    variant: state.variant || (state.room && state.room.variant),
    seatPlayers,
    runningScores: (resultMessage && resultMessage.running_scores) || (state.room && state.room.scores) || {},
    gameOver: Boolean(resultMessage ? resultMessage.game_over : state.room && state.room.status === "finished"),
    nextDealAt: resultMessage ? resultMessage.next_deal_at : null,
    dealNo: (resultMessage && resultMessage.deal_no) || (state.room && state.room.deal_no),
  };
}

function groupBySuit(tiles) {
  const groups = [];
  for (const tile of tiles) {
    const last = groups[groups.length - 1];
    if (last && tileSuit(last[0]) === tileSuit(tile)) last.push(tile);
    else groups.push([tile]);
  }
  return groups;
}

function winningHand(winner) {
  const hand = winner.hand || {};
  const box = element("div", { class: "winning-hand", "aria-label": "winning hand" });
  // The engine may lay the concealed part out as sets; otherwise it comes as one sorted row.
  const concealedSets = Array.isArray(hand.sets) && hand.sets.length ? hand.sets : null;
  const concealed = asTileList(hand.concealed || []);
  let winningMarked = false;
  const markWinning = (tileNode) => {
    if (!winningMarked && tileNode.dataset.tile === hand.winning_tile) {
      tileNode.classList.add("winning-tile");
      tileNode.setAttribute("aria-label", `${tileNode.getAttribute("aria-label")}, the winning tile`);
      winningMarked = true;
    }
  };
  if (concealedSets) {
    for (const set of concealedSets) {
      const meld = meldElement({ kind: set.kind || "set", tiles: asTileList(set.tiles), fei_as: set.fei_as }, "md");
      meld.querySelectorAll(".tile").forEach(markWinning);
      box.append(meld);
    }
  } else {
    // Without the engine's reading the tiles stay as dealt, one group per suit.
    for (const group of groupBySuit(concealed)) {
      const row = element("span", { class: "meld meld-concealed-part" }, tileRow(group, { size: "md" }));
      [...row.querySelectorAll(".tile")].reverse().forEach(markWinning);
      box.append(row);
    }
  }
  for (const meld of hand.melds || []) box.append(meldElement(meld, "md"));
  if ((hand.bonus || []).length) {
    box.append(element("span", { class: "meld bonus-set", "aria-label": "bonus tiles" }, tileRow(hand.bonus, { size: "sm" }), element("span", { class: "meld-note", text: "bonus" })));
  }
  return box;
}

function patternTable(winner, variant) {
  const patterns = winner.patterns || [];
  const added = patterns.reduce((sum, pattern) => sum + (pattern.fan || 0), 0);
  const cap = winner.cap || FAN_CAP[variant];
  const rows = patterns.map((pattern) =>
    element("tr", {}, element("td", { text: patternName(pattern.id) }), element("td", { class: "num", text: `${pattern.fan} fan` })),
  );
  const totalText = winner.limit
    ? `${winner.fan} fan, limit hand`
    : added > winner.fan
      ? `${added} fan, capped at ${winner.fan}`
      : `${winner.fan} fan`;
  return element(
    "table",
    { class: "patterns" },
    element("caption", { text: "Patterns" }),
    element("tbody", {}, rows),
    element(
      "tfoot",
      {},
      element("tr", {}, element("th", { text: "Total" }), element("th", { class: "num", text: totalText })),
      cap ? element("tr", { class: "cap-row" }, element("td", { text: "Table cap" }), element("td", { class: "num", text: `${cap} fan` })) : "",
      element("tr", {}, element("td", { text: "Hand value" }), element("td", { class: "num", text: `${winner.points} points` })),
    ),
  );
}

function paymentTable(result, nameOf) {
  const payments = result.payments || [];
  if (!payments.length) return element("p", { class: "muted", text: "No payments in this deal." });
  return element(
    "table",
    { class: "payments" },
    element("caption", { text: "Payments" }),
    element("thead", {}, element("tr", {}, ["From", "To", "Points", "Reason"].map((text) => element("th", { text })))),
    element(
      "tbody",
      {},
      payments.map((payment) =>
        element(
          "tr",
          { dataset: { reason: payment.reason } },
          element("td", { text: nameOf(payment.from) }),
          element("td", { text: nameOf(payment.to) }),
          element("td", { class: "num", text: payment.points }),
          element("td", { text: paymentReason(payment.reason) }),
        ),
      ),
    ),
  );
}

function scoreTable(context, nameOf) {
  const dealScores = context.result.scores || {};
  const seats = Object.keys(dealScores);
  const rows = seats.map((seat) => {
    const name = context.seatPlayers[seat];
    const running = name !== undefined ? context.runningScores[name] : undefined;
    return element(
      "tr",
      {},
      element("td", { text: nameOf(seat) }),
      element("td", { class: "num", text: signed(dealScores[seat]) }),
      element("td", { class: "num", text: running === undefined ? "" : signed(running) }),
    );
  });
  return element(
    "table",
    { class: "scores" },
    element("caption", { text: "Scores" }),
    element("thead", {}, element("tr", {}, element("th", { text: "Player" }), element("th", { text: "This deal" }), element("th", { text: "Game" }))),
    element("tbody", {}, rows),
  );
}

export class ResultPanel {
  /** `onNextDeal()` asks the server for the next deal. */
  constructor(panel, reopenButton, onNextDeal) {
    this.panel = panel;
    // Players may set the result aside to look at the final table, then bring it back.
    this.reopenButton = reopenButton;
    this.setAside = false;
    reopenButton.addEventListener("click", () => {
      this.setAside = false;
      this.panel.hidden = false;
      reopenButton.hidden = true;
    });
    this.onNextDeal = onNextDeal;
    this.shownKey = null;
    this.nextDealAt = null;
    this.countdown = null;
    this.waiting = false;
  }

  /** Shows the result, or hides the panel when `context` is null (a deal is on). */
  render(context, canPlay) {
    if (!context || !context.result) {
      this.panel.hidden = true;
      this.reopenButton.hidden = true;
      this.setAside = false;
      this.shownKey = null;
      return;
    }
    const key = `${context.dealNo}:${JSON.stringify(context.result.payments || [])}:${context.nextDealAt}`;
    this.panel.hidden = this.setAside;
    this.reopenButton.hidden = !this.setAside;
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.waiting = false;
    this.nextDealAt = context.nextDealAt;
    const nameOf = (seat) => {
      const name = context.seatPlayers[seat];
      return name ? `${name} (${WIND_NAMES[seat] || seat})` : WIND_NAMES[seat] || seat;
    };
    const result = context.result;
    const winners = (result.winners || []).map((winner) => {
      const hand = winner.hand || {};
      const how = hand.self_drawn ? "self-drawn" : hand.from ? `on ${nameOf(hand.from)}'s discard` : "";
      return element(
        "section",
        { class: "winner" },
        element("h3", {}, `${nameOf(winner.seat)} · ${winner.fan} fan · ${winner.points} points`, winner.limit ? element("span", { class: "badge limit", text: "limit" }) : "", how ? element("span", { class: "muted how", text: ` ${how}` }) : ""),
        winningHand(winner),
        patternTable(winner, context.variant),
      );
    });
    this.countdown = element("span", { class: "next-countdown" });
    const nextButton = context.gameOver
      ? element("a", { class: "button primary", href: "/", text: "Game over: back to the lobby" })
      : canPlay
        ? element("button", {
            type: "button",
            class: "primary next-deal",
            "data-testid": "next-deal",
            text: "Next deal",
            onclick: (event) => {
              this.waiting = true;
              event.currentTarget.disabled = true;
              event.currentTarget.textContent = "Waiting for the other players…";
              this.onNextDeal();
            },
          })
        : "";
    replaceChildren(
      this.panel,
      element(
        "div",
        { class: "result-card" },
        element("p", { class: "result-kicker", text: `${VARIANT_NAMES[context.variant] || ""} · deal ${context.dealNo || ""} result` }),
        element("h2", { id: "result-title", text: outcomeTitle(result, nameOf) }),
        winners,
        element("div", { class: "result-tables" }, paymentTable(result, nameOf), scoreTable(context, nameOf)),
        element(
          "div",
          { class: "result-buttons" },
          nextButton,
          element("button", {
            type: "button",
            text: "See the table",
            onclick: () => {
              this.setAside = true;
              this.panel.hidden = true;
              this.reopenButton.hidden = false;
            },
          }),
          this.countdown,
        ),
      ),
    );
    this.tick(Date.now());
  }

  /** Updates the "next deal in" countdown. */
  tick(now) {
    if (!this.countdown || this.panel.hidden) return;
    this.countdown.textContent = this.nextDealAt ? `next deal starts in ${clockText(this.nextDealAt - now)}` : "";
  }
}
