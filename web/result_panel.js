// The end-of-deal panel: the winning hand as sets, its patterns and fan, every payment with
// its reason, the deal's and the game's scores, and the button for the next deal.

import { clockText, element, replaceChildren } from "./dom.js";
import { SCORING_FIELDS, fetchHouseRules, houseRulesLine } from "./house_rules.js";
import { formatNumber, formatSigned, t } from "./i18n.js";
import { outcomeTitle, patternName, paymentReason, variantName, windName } from "./labels.js";
import { meldElement, playerName } from "./seats.js";
import { asTileList, tileRow, tileSuit } from "./tiles.js";

const signed = formatSigned;

/**
 * Everything the panel shows, gathered from the `result` message when there is one, or
 * from the state's result after a reload between deals.
 */
export function resultContext(state, resultMessage) {
  const result = resultMessage || state.result;
  const seatPlayers = { ...(resultMessage && resultMessage.seat_players) };
  const roomPlayers = (state.room && state.room.players) || [];
  for (const player of roomPlayers) {
    if (!seatPlayers[player.seat]) seatPlayers[player.seat] = player.name;
  }
  // Names as shown (bots worded in the page's language); scores stay keyed by the real name.
  const shownNames = {};
  for (const [seat, name] of Object.entries(seatPlayers)) {
    const player = roomPlayers.find((candidate) => candidate.name === name);
    shownNames[seat] = player ? playerName(player) : name;
  }
  return {
    result,
    variant: state.variant || (state.room && state.room.variant),
    // The table's fan cap as its house rules set it, from the room the server sends (the
    // page keeps no copy of any table's limits).
    fanCap: (state.room && state.room.rules && state.room.rules.fan_cap) || null,
    seatPlayers,
    shownNames,
    runningScores: (resultMessage && resultMessage.running_scores) || (state.room && state.room.scores) || {},
    gameOver: Boolean(resultMessage ? resultMessage.game_over : state.room && state.room.status === "finished"),
    nextDealAt: resultMessage ? resultMessage.next_deal_at : null,
    dealNo: (resultMessage && resultMessage.deal_no) || (state.room && state.room.deal_no),
    roomId: state.room && state.room.room_id, // issue 18: the replay link
    hints: (resultMessage && resultMessage.hints) || {}, // issue 18: hints used, shown to all
    rules: (state.room && state.room.rules) || null, // the house rules every deal is scored by
  };
}

/**
 * "House rules: minimum 1 fan, cap 10 fan" when the deal was scored by rules other than
 * the seed's: filled in once the server says what the seed's rules are, else left empty.
 */
function houseRulesNote(context) {
  const note = element("p", { class: "muted house-rules-note", "data-testid": "result-house-rules", hidden: true });
  if (!context.rules || !context.variant) return note;
  fetchHouseRules(context.variant, context.rules)
    .then((house) => {
      note.textContent = houseRulesLine(house.rules, house.seed, SCORING_FIELDS);
      note.hidden = !note.textContent;
    })
    .catch(() => {}); // without the server's answer the panel shows no line: nothing is lost
  return note;
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

function winningHand(winner, context) {
  const hand = winner.hand || {};
  const box = element("div", { class: "winning-hand", "aria-label": t("result.winning_hand") });
  // The engine may lay the concealed part out as sets; otherwise it comes as one sorted row.
  const concealedSets = Array.isArray(hand.sets) && hand.sets.length ? hand.sets : null;
  const concealed = asTileList(hand.concealed || []);
  let winningMarked = false;
  const markWinning = (tileNode) => {
    if (!winningMarked && tileNode.dataset.tile === hand.winning_tile) {
      tileNode.classList.add("winning-tile");
      tileNode.setAttribute("aria-label", `${tileNode.getAttribute("aria-label")}${t("list.comma")}${t("result.the_winning_tile")}`);
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
  for (const meld of hand.melds || []) box.append(meldElement(meld, "md", context));
  if ((hand.bonus || []).length) {
    box.append(element("span", { class: "meld bonus-set", "aria-label": t("seat.bonus_tiles") }, tileRow(hand.bonus, { size: "sm" }), element("span", { class: "meld-note", text: t("result.bonus") })));
  }
  return box;
}

function patternTable(winner, cap) {
  const patterns = winner.patterns || [];
  const added = patterns.reduce((sum, pattern) => sum + (pattern.fan || 0), 0);
  const rows = patterns.map((pattern) =>
    element("tr", {}, element("td", { text: patternName(pattern.id) }), element("td", { class: "num", text: t("result.fan", { fan: pattern.fan }) })),
  );
  const totalText = winner.limit
    ? t("result.fan_limit", { fan: winner.fan })
    : added > winner.fan
      ? t("result.fan_capped", { added, fan: winner.fan })
      : t("result.fan", { fan: winner.fan });
  return element(
    "table",
    { class: "patterns" },
    element("caption", { text: t("result.patterns") }),
    element("tbody", {}, rows),
    element(
      "tfoot",
      {},
      element("tr", {}, element("th", { text: t("result.total") }), element("th", { class: "num", text: totalText })),
      cap ? element("tr", { class: "cap-row" }, element("td", { text: t("result.table_cap") }), element("td", { class: "num", text: t("result.fan", { fan: cap }) })) : "",
      element("tr", {}, element("td", { text: t("result.hand_value") }), element("td", { class: "num", text: t("result.points", { points: winner.points }) })),
    ),
  );
}

function paymentTable(result, nameOf) {
  const payments = result.payments || [];
  if (!payments.length) return element("p", { class: "muted", text: t("result.no_payments") });
  return element(
    "table",
    { class: "payments" },
    element("caption", { text: t("result.payments") }),
    element("thead", {}, element("tr", {}, ["result.from", "result.to", "result.points_head", "result.reason"].map((key) => element("th", { text: t(key) })))),
    element(
      "tbody",
      {},
      payments.map((payment) =>
        element(
          "tr",
          { dataset: { reason: payment.reason } },
          element("td", { text: nameOf(payment.from) }),
          element("td", { text: nameOf(payment.to) }),
          element("td", { class: "num", text: formatNumber(payment.points) }),
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
    element("caption", { text: t("result.scores") }),
    element("thead", {}, element("tr", {}, element("th", { text: t("result.player") }), element("th", { text: t("result.this_deal") }), element("th", { text: t("result.game") }))),
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
      const name = context.shownNames[seat];
      return name ? `${name} (${windName(seat)})` : windName(seat);
    };
    const result = context.result;
    const winners = (result.winners || []).map((winner) => {
      const hand = winner.hand || {};
      const how = hand.self_drawn ? t("result.self_drawn") : hand.from ? t("result.on_discard", { name: nameOf(hand.from) }) : "";
      return element(
        "section",
        { class: "winner" },
        element(
          "h3",
          {},
          `${nameOf(winner.seat)} · ${t("result.fan", { fan: winner.fan })} · ${t("result.points", { points: winner.points })}`,
          winner.limit ? element("span", { class: "badge limit", text: t("result.limit") }) : "",
          how ? element("span", { class: "muted how", text: ` ${how}` }) : "",
        ),
        winningHand(winner, { owner: winner.seat, seats: Object.keys(result.scores || {}), nameOf }),
        patternTable(winner, context.fanCap),
      );
    });
    this.countdown = element("span", { class: "next-countdown" });
    const nextButton = context.gameOver
      ? element("a", { class: "button primary", href: "/", text: t("result.game_over") })
      : canPlay
        ? element("button", {
            type: "button",
            class: "primary next-deal",
            "data-testid": "next-deal",
            text: t("result.next_deal"),
            onclick: (event) => {
              this.waiting = true;
              event.currentTarget.disabled = true;
              event.currentTarget.textContent = t("result.waiting_others");
              this.onNextDeal();
            },
          })
        : "";
    replaceChildren(
      this.panel,
      element(
        "div",
        { class: "result-card" },
        element("p", { class: "result-kicker", text: t("result.kicker", { table: variantName(context.variant), number: context.dealNo || 1 }) }),
        element("h2", { id: "result-title", text: outcomeTitle(result, nameOf) }),
        houseRulesNote(context),
        winners,
        element("div", { class: "result-tables" }, paymentTable(result, nameOf), scoreTable(context, nameOf)),
        element(
          "div",
          { class: "result-buttons" },
          nextButton,
          // issue 18: the finished deal's replay, and the hints anyone used in it.
          context.roomId ? element("a", { class: "button", "data-testid": "replay-link", href: `/rooms/${encodeURIComponent(context.roomId)}/deals/${context.dealNo || 1}`, target: "_blank", text: t("learn.replay_link") }) : "",
          Object.keys(context.hints).length ? element("p", { class: "hints-used", "data-testid": "hints-used", text: `${t("learn.hints_used")}: ${Object.entries(context.hints).map(([seat, count]) => t("learn.hint_count", { name: nameOf(seat), count })).join(", ")}` }) : "",
          element("button", {
            type: "button",
            text: t("result.see_table"),
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
    this.countdown.textContent = this.nextDealAt ? t("result.next_in", { clock: clockText(this.nextDealAt - now) }) : "";
  }
}
