// The dashboard's real-table nights, listed beside the online games: each ledger's table,
// players and scores, how many hands it holds, and whether its host counts it in the
// standings. Everything comes from /api/dashboard/ledgers.

import { element } from "/static/dom.js";
import { formatDateTime, formatNumber, formatSigned, t } from "/static/i18n.js";
import { playerName, variantName } from "/static/labels.js";

function cell(text, className = null) {
  return element("td", { class: className, text: typeof text === "number" ? formatNumber(text) : String(text ?? "–") });
}

/** Lists the ledgers of `filters` in the page's nights card; `api(path, params)` fetches. */
export async function showLedgerNights(api, filters) {
  const answer = await api("/api/dashboard/ledgers", filters);
  const body = document.querySelector('[data-testid="ledgers-table"] tbody');
  body.replaceChildren(...answer.ledgers.map((night) => element("tr", { "data-testid": "ledger-row", "data-ledger-id": night.ledger_id },
    cell(formatDateTime(night.created_at)),
    cell(variantName(night.variant)),
    element("td", {}, element("span", { class: "real-table", text: t("dash.real_table") }), " ", night.name || ""),
    cell(night.players.map((name) => `${playerName(name)} ${formatSigned(night.scores[name])}`).join(t("list.comma"))),
    cell(night.hands, "number"),
    cell(t(night.in_standings ? "dash.in_standings" : "dash.kept_apart"), night.in_standings ? null : "muted"))));
  if (!answer.ledgers.length) body.append(element("tr", {}, element("td", { colspan: "6", class: "muted", text: t("dash.no_ledgers") })));
}

/** Says under the standings how many real-table nights they include. */
export function noteLedgersJoined(table) {
  const note = document.getElementById("ledgers-joined");
  note.textContent = table.ledgers_joined ? t("dash.ledgers_joined", { count: table.ledgers_joined }) : "";
}
