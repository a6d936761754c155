// The night so far: the running scores and who deals next, every hand with what it paid
// (each one can be changed or deleted), the history of every change, and at the end of
// the night the settle-up with the fewest transfers, as text for the group chat.

import { element, replaceChildren } from "./dom.js";
import { formatDateTime, formatSigned, t } from "./i18n.js";
import { variantName, windName } from "./labels.js";
import { deleteHand, readHistory, setInStandings, settleUp } from "./ledger_api.js";
import { chip } from "./ledger_picker.js";
import { netLine, paymentList } from "./ledger_result.js";
import { amountText } from "./settle_up.js";

/** The running scores, each player's seat in the coming hand and its dealer. */
export function scoreboard(box, ledger) {
  const next = ledger.next;
  const seatOf = Object.fromEntries(Object.entries(next.seats).map(([seat, player]) => [player, seat]));
  replaceChildren(box,
    element("p", { class: "next-hand", "data-testid": "next-hand", text: t("ledger.board.next", { number: next.hand_no, dealer: ledger.players[next.dealer], round: windName(next.round_wind) }) }),
    element("ol", { class: "scores plain", "data-testid": "ledger-scores" }, ledger.players.map((name, player) => element("li", { class: player === next.dealer ? "dealer" : null },
      element("span", { class: "seat", text: windName(seatOf[player]) }),
      element("span", { class: "name", text: name }),
      element("strong", { class: "num", "data-testid": "score", text: formatSigned(ledger.scores[name]) })))));
}

function handSummary(hand, names) {
  if (hand.outcome === "draw") return t("ledger.board.drawn");
  const winners = hand.winners.map((winner) => names[winner.player]).join(t("list.and"));
  const how = hand.entry.discarder === null ? t("ledger.board.self_drawn") : t("ledger.board.on_discard", { name: names[hand.entry.discarder] });
  return t("ledger.board.won", { names: winners, how, fan: hand.fan });
}

/** Every hand, newest first, with its payments, and its buttons to change or delete it. */
export function handsList(box, ledger, { onEdit, who, afterChange }) {
  const names = ledger.players;
  const items = [...ledger.hands].reverse().map((hand) => element("li", { class: "hand", "data-testid": "ledger-hand", "data-hand-no": String(hand.hand_no) },
    element("details", {},
      element("summary", {},
        element("span", { class: "hand-no", text: t("ledger.board.hand_no", { number: hand.hand_no }) }),
        element("span", { class: "what", text: handSummary(hand, names) }),
        element("span", { class: "muted dealer", text: t("ledger.board.dealt_by", { name: names[hand.dealer] }) })),
      paymentList(hand, names),
      netLine(hand, names),
      element("p", { class: "muted", text: hand.entered_by ? t("ledger.board.entered_by", { name: hand.entered_by, when: formatDateTime(hand.entered_at) }) : formatDateTime(hand.entered_at) }),
      element("div", { class: "entry-buttons" },
        element("button", { type: "button", "data-testid": "edit-hand", onclick: () => onEdit(hand.hand_no), text: t("ledger.board.edit") }),
        element("button", { type: "button", class: "danger", "data-testid": "delete-hand", text: t("ledger.board.delete"), onclick: async (event) => {
          const button = event.currentTarget;
          if (button.dataset.confirm !== "yes") {
            button.dataset.confirm = "yes";
            button.textContent = t("ledger.board.delete_sure", { number: hand.hand_no });
            return;
          }
          try {
            await deleteHand(ledger.ledger_id, ledger.invite, hand.hand_no, who(), ledger.revision);
            afterChange();
          } catch (error) {
            button.textContent = error.message;
          }
        } }))),
  ));
  replaceChildren(box, items.length ? element("ol", { class: "hands plain" }, items) : element("p", { class: "muted", text: t("ledger.board.no_hands") }));
}

function changeWords(change, names) {
  const who = change.by || t("ledger.history.someone");
  if (change.action === "standings") return { who, what: t(change.after.in_standings ? "ledger.history.standings_on" : "ledger.history.standings_off"), detail: "" };
  const what = t(`ledger.history.${change.action}`, { number: change.hand_no });
  const detail = change.action === "edit"
    ? `${t("ledger.history.was_now", { was: words(change.before, names), now: words(change.after, names) })} · ${changedParts(change)}`
    : words(change.after || change.before, names);
  return { who, what, detail };
}

const PARTS = ["outcome", "winner", "discarder", "hand", "more_winners", "losers", "liable", "kongs", "families", "last_to_draw"];

/** Which parts of a hand an edit changed ("changed: who was liable"). */
function changedParts(change) {
  const differs = PARTS.filter((part) => JSON.stringify(change.before?.[part] ?? null) !== JSON.stringify(change.after?.[part] ?? null));
  return t("ledger.history.changed", { parts: differs.map((part) => t(`ledger.part.${part}`)).join(t("list.comma")) });
}

function words(entry, names) {
  if (!entry || !entry.outcome) return "";
  if (entry.outcome === "draw") return t("ledger.board.drawn");
  const how = entry.discarder === null ? t("ledger.board.self_drawn") : t("ledger.board.on_discard", { name: names[entry.discarder] });
  return t("ledger.history.win", { name: names[entry.winner], how, tiles: entry.hand.concealed });
}

/** The history: every change, who made it and when, and both versions of a changed hand. */
export async function showHistory(box, ledger) {
  const answer = await readHistory(ledger.ledger_id, ledger.invite);
  replaceChildren(box, element("ol", { class: "history plain", "data-testid": "ledger-history" }, [...answer.changes].reverse().map((change) => {
    const { who, what, detail } = changeWords(change, ledger.players);
    return element("li", { dataset: { action: change.action } },
      element("span", { class: "muted", text: formatDateTime(change.at) }), " ",
      element("strong", { text: who }), " ", what,
      detail ? element("div", { class: "muted detail", text: detail }) : null);
  })));
}

/** The settle-up: who pays whom, fewest transfers, and the lines to copy. */
export async function showSettleUp(box, ledger) {
  const answer = await settleUp(ledger.ledger_id, ledger.invite);
  const lines = answer.transfers.length
    ? answer.transfers.map((transfer) => t("settle.line", { from: transfer.from, to: transfer.to, amount: amountText(transfer.amount_minor, answer.currency) }))
    : [t("settle.square")];
  const title = t("ledger.settle.heading", { name: ledger.name || variantName(ledger.variant), hands: ledger.hands.length });
  const text = [title, ...lines].join("\n");
  const copy = element("button", { type: "button", class: "primary", "data-testid": "copy-settle-up", text: t("settle.copy"), onclick: async () => {
    try {
      await navigator.clipboard.writeText(text);
      copy.textContent = t("settle.copied");
    } catch (blocked) {
      copy.textContent = t("settle.select_lines");
    }
  } });
  replaceChildren(box,
    element("pre", { class: "chat-text", "data-testid": "settle-up-text", text }),
    copy);
}

/** The host's switch: the night's figures join the dashboard's standings, or not. */
export function standingsSwitch(box, ledger, hostToken, who, afterChange) {
  if (!hostToken) {
    replaceChildren(box, element("p", { class: "muted", text: t(ledger.in_standings ? "ledger.host.counted" : "ledger.host.not_counted") }));
    return;
  }
  replaceChildren(box, chip(t("ledger.host.count_in_standings"), ledger.in_standings, async () => {
    await setInStandings(ledger.ledger_id, ledger.invite, hostToken, !ledger.in_standings, who());
    afterChange();
  }, { "data-testid": "in-standings" }));
}
