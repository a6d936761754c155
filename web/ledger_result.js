// The engine's answer for a hand, as the table's result panel shows one: the winning hand
// laid out as the engine read it, every pattern with its fan, the total and its value,
// then every payment with its reason and what each player made of the hand. A hand that
// is not a win says why ("4 of 5 fan").

import { element } from "./dom.js";
import { formatSigned, t } from "./i18n.js";
import { patternName, paymentReason } from "./labels.js";
import { realTiles } from "./ledger_model.js";
import { tileRow, tileShortName } from "./tiles.js";

function setElement(set) {
  // The engine lays the concealed tiles out as sets; `stands_for` is what each tile counts as.
  const fei = set.tiles.includes("j") ? set.stands_for[set.tiles.indexOf("j")] : null;
  return element("span", { class: "set read-set" },
    tileRow(set.tiles, { size: "sm" }),
    element("span", { class: "set-kind", text: t(`ledger.kind.${set.kind}`) }),
    fei ? element("span", { class: "fei-note", text: t("meld.fei_as", { tile: tileShortName(fei) }) }) : null);
}

function shownSet(meld) {
  const kind = meld.kind === "kong" && meld.concealed ? "concealed_kong" : meld.kind;
  const fei = meld.tiles.includes("j") ? realTiles(meld)[meld.tiles.indexOf("j")] : null;
  return element("span", { class: "set shown-set" },
    tileRow(meld.tiles, { size: "sm" }),
    element("span", { class: "set-kind", text: t(`ledger.kind.${kind}`) }),
    fei ? element("span", { class: "fei-note", text: t("meld.fei_as", { tile: tileShortName(fei) }) }) : null);
}

/** Why a hand is not a win, in words: "Not a win: 4 of 5 fan". */
export function notAWinText(answer) {
  if ((answer.sets || []).length && answer.fan < answer.min_fan) return t("ledger.not_a_win.fan", { fan: answer.fan, min: answer.min_fan });
  return t("ledger.not_a_win.shape");
}

function patterns(winner) {
  const added = winner.patterns.reduce((sum, pattern) => sum + pattern.fan, 0);
  const total = winner.limit ? t("result.fan_limit", { fan: winner.fan }) : added > winner.fan ? t("result.fan_capped", { added, fan: winner.fan }) : t("result.fan", { fan: winner.fan });
  return element("table", { class: "patterns", "data-testid": "ledger-patterns" },
    element("tbody", {}, winner.patterns.map((pattern) => element("tr", {}, element("td", { text: patternName(pattern.id) }), element("td", { class: "num", text: t("result.fan", { fan: pattern.fan }) })))),
    element("tfoot", {},
      element("tr", {}, element("th", { text: t("result.total") }), element("th", { class: "num", text: total })),
      element("tr", {}, element("td", { text: t("result.hand_value") }), element("td", { class: "num", text: t("result.points", { points: winner.points }) }))));
}

/** The payments of a hand, players named. */
export function paymentList(answer, names) {
  if (!answer.payments.length) return element("p", { class: "muted", text: t("result.no_payments") });
  return element("ol", { class: "payments plain", "data-testid": "ledger-payments" },
    answer.payments.map((payment) => element("li", { dataset: { reason: payment.reason } },
      element("span", { class: "who", text: t("ledger.pays", { from: names[payment.from], to: names[payment.to] }) }),
      element("span", { class: "num", text: String(payment.points) }),
      element("span", { class: "reason muted", text: paymentReason(payment.reason) }))));
}

/** What each player made of the hand. */
export function netLine(answer, names) {
  return element("p", { class: "net", "data-testid": "ledger-net" },
    names.map((name, index) => element("span", { class: "net-item" }, `${name} `, element("strong", { text: formatSigned(answer.net[name]) }), index < names.length - 1 ? t("list.comma") : "")));
}

/** The whole answer for `hand` (the draft's shown sets and bonus tiles beside the reading). */
export function answerPanel(answer, names, draft) {
  if (!answer.valid) {
    return element("div", { class: "answer refused", "data-testid": "ledger-answer", "data-valid": "false" },
      element("h3", { text: notAWinText(answer) }),
      answer.patterns.length ? patterns({ ...answer, points: 0 }) : null,
      element("p", { class: "muted", text: t("ledger.nothing_saved") }));
  }
  if (answer.outcome === "draw") {
    return element("div", { class: "answer", "data-testid": "ledger-answer", "data-valid": "true" },
      element("h3", { text: t("ledger.drawn_hand") }), paymentList(answer, names), netLine(answer, names));
  }
  return element("div", { class: "answer", "data-testid": "ledger-answer", "data-valid": "true" },
    answer.winners.map((winner) => element("section", { class: "winner" },
      element("h3", { text: t("ledger.wins_with", { name: names[winner.player], fan: winner.fan, points: winner.points }) }),
      element("div", { class: "read-hand" }, (winner.sets || []).map(setElement),
        winner.player === draft?.winner ? draft.hand.melds.map(shownSet) : null,
        winner.player === draft?.winner && draft.hand.bonus.length ? element("span", { class: "set" }, tileRow(draft.hand.bonus, { size: "sm" }), element("span", { class: "set-kind", text: t("ledger.pick.bonus") })) : null),
      patterns(winner))),
    element("h4", { text: t("result.payments") }), paymentList(answer, names), netLine(answer, names));
}
