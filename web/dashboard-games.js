// The dashboard's page of a room: each game (its finished deals), the house rules it was
// played by, and the settle-up transfers at the value per point and currency the viewer
// picks (points by default). Everything comes from /api/dashboard/rooms/{id}/settlement:
// the transfers are the engine's fewest, so no copy of the algorithm lives here.

import { element } from "/static/dom.js";
import { formatNumber, formatSigned, t } from "/static/i18n.js";
import { ruleWords } from "/static/house_rules.js";
import { MINOR_UNITS, amountText } from "/static/settle_up.js";

/** A stored deal's or game's rules: "Seed rules", or "House rules: minimum 1 fan, ...". */
export function rulesText(houseRules) {
  if (!houseRules) return t("dash.rules_unknown");
  const changed = Object.entries(houseRules).map(([field, value]) => ruleWords(field, value));
  return changed.length ? t("house.line", { rules: changed.join(t("list.comma")) }) : t("dash.seed_rules");
}

/** The value per point the form asks for, in minor units of its currency (null: not one). */
function chosenValue(form) {
  const currency = form.elements.currency.value;
  const minor = Math.round(Number(form.elements.value.value || "1") * MINOR_UNITS[currency]);
  return Number.isFinite(minor) && minor >= 1 ? { currency, minor_per_point: currency === "points" ? 1 : minor } : null;
}

function gameCard(game, currency, shownName) {
  const balances = Object.entries(game.balances || {}).sort((a, b) => b[1] - a[1]);
  const transfers = game.transfers || [];
  return element(
    "section",
    { class: "card game-card", "data-testid": "game-settlement", "data-game": String(game.game_no) },
    element("h3", { text: t("dash.game_title", { game: game.game_no, count: game.deals.length }) }),
    element("p", { class: game.house_rules && Object.keys(game.house_rules).length ? "house-rules" : "muted", "data-testid": "game-rules", text: rulesText(game.house_rules) }),
    element(
      "table",
      { class: "grid", "data-testid": "game-balances" },
      element("thead", {}, element("tr", {}, element("th", { text: t("dash.player") }), element("th", { class: "number", text: t("dash.points") }))),
      element("tbody", {}, balances.map(([name, points]) => element("tr", {}, element("td", { text: shownName(name) }), element("td", { class: "number", text: formatSigned(points) })))),
    ),
    game.unbalanced
      ? element("p", { class: "error", text: game.unbalanced })
      : element(
          "ol",
          { class: "plain transfers", "data-testid": "game-transfers" },
          transfers.length
            ? transfers.map((transfer) => element("li", { dataset: { from: transfer.from, to: transfer.to, amount: String(transfer.amount_minor) }, text: t("settle.line", { from: shownName(transfer.from), to: shownName(transfer.to), amount: amountText(transfer.amount_minor, currency) }) }))
            : element("li", { text: t("settle.square") }),
        ),
    element("p", { class: "muted", text: game.deals.map((deal) => t("dash.deal_number", { number: formatNumber(deal.deal_no) })).join(t("list.comma")) }),
  );
}

/**
 * Shows room `roomId`'s games in `panel`, settled at the value of `form`; `api(path,
 * params)` is the dashboard's authorised fetch and `shownName` words a player's name.
 */
export async function showRoomGames(panel, form, roomId, { api, shownName }) {
  const value = chosenValue(form);
  const games = panel.querySelector("[data-games]");
  if (!value) {
    games.replaceChildren(element("p", { class: "error", text: t("settle.enter_value") }));
    return;
  }
  const answer = await api(`/api/dashboard/rooms/${encodeURIComponent(roomId)}/settlement`, value);
  panel.querySelector("[data-room-title]").textContent = t("dash.room_title", { room: answer.name ? `${answer.name} (${answer.room_id})` : answer.room_id });
  games.replaceChildren(...(answer.games.length ? answer.games.map((game) => gameCard(game, answer.currency, shownName)) : [element("p", { class: "muted", text: t("dash.no_games") })]));
}
