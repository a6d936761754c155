// Opening a ledger for the night: the table, its house rules (as a table's, from the
// server's choices), the players in seat order from East (the first deals first), and
// what a point is worth for the settle-up. The browser that opens it holds the host's
// secret; the invite link goes to everyone else.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { SCORING_FIELDS, fetchHouseRules, ruleLabel, ruleValue } from "./house_rules.js";
import { openLedger, remember } from "./ledger_api.js";
import { variantName, windName } from "./labels.js";
import { MINOR_UNITS } from "./settle_up.js";

const SEATS = { kaki3: ["E", "S", "W"], hk: ["E", "S", "W", "N"] };

function field(label, control) {
  return element("label", {}, element("span", { text: label }), control);
}

export async function showOpenForm(root) {
  const form = element("form", { class: "card open-form", "data-testid": "open-ledger", autocomplete: "off" });
  const error = element("p", { class: "error", role: "alert", hidden: true });
  let variant = "kaki3";
  const offered = {};
  await Promise.all(Object.keys(SEATS).map(async (name) => {
    try {
      offered[name] = await fetchHouseRules(name);
    } catch (unreachable) {
      // Without the server's choices the ledger keeps the table's seed rules.
    }
  }));

  const draw = () => {
    const players = SEATS[variant].map((seat, index) => field(
      index === 0 ? t("ledger.open.first_dealer", { wind: windName(seat) }) : windName(seat),
      element("input", { name: `player-${index}`, maxlength: "32", required: true, "data-testid": `player-name-${index}`, value: form.elements[`player-${index}`]?.value || "" })));
    const table = offered[variant];
    const rules = table ? SCORING_FIELDS.filter((name) => (table.choices[name] || []).length > 1).map((name) => field(ruleLabel(name),
      element("select", { name: `rule-${name}`, dataset: { seed: String(table.seed[name]) } },
        table.choices[name].map((value) => element("option", { value: String(value), selected: value === table.seed[name], text: value === table.seed[name] ? t("lobby.rule_standard", { rule: ruleValue(name, value) }) : ruleValue(name, value) }))))) : [];
    replaceChildren(form,
      element("h2", { text: t("ledger.open.title") }),
      element("p", { class: "muted", text: t("ledger.open.about") }),
      element("fieldset", { class: "variant-choice" }, element("legend", { text: t("lobby.table") }),
        Object.keys(SEATS).map((name) => element("label", { class: "variant-option" },
          element("input", { type: "radio", name: "variant", value: name, checked: name === variant, "data-testid": `ledger-variant-${name}`, onchange: () => { variant = name; draw(); } }),
          element("strong", { text: variantName(name) })))),
      field(t("ledger.open.name"), element("input", { name: "name", maxlength: "60", placeholder: t("ledger.open.name_example") })),
      element("fieldset", { class: "players" }, element("legend", { text: t("ledger.open.players") }), players),
      rules.length ? element("fieldset", { class: "rules" }, element("legend", { text: t("lobby.house_rules") }), rules) : null,
      variant === "hk" ? field(t("ledger.open.round"), element("select", { name: "round_wind" }, ["E", "S", "W", "N"].map((wind) => element("option", { value: wind, text: windName(wind) })))) : null,
      element("fieldset", { class: "value" }, element("legend", { text: t("settle.value") }),
        element("input", { name: "value", type: "number", min: "0.01", step: "0.01", value: "1", "aria-label": t("settle.value") }),
        element("select", { name: "currency", "aria-label": t("settle.currency") },
          ["points", "MYR", "HKD"].map((code) => element("option", { value: code, text: t(`settle.${code.toLowerCase()}`) })))),
      element("label", { class: "check" }, element("input", { type: "checkbox", name: "in_standings" }), element("span", { text: t("ledger.open.in_standings") })),
      element("button", { type: "submit", class: "primary", "data-testid": "open-ledger-submit", text: t("ledger.open.submit") }),
      error);
  };
  draw();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const elements = form.elements;
    const rules = {};
    for (const select of form.querySelectorAll("select[name^='rule-']")) {
      if (select.value !== select.dataset.seed) rules[select.name.slice(5)] = /^\d+$/.test(select.value) ? Number(select.value) : select.value;
    }
    const currency = elements.currency.value;
    const minor = Math.round(Number(elements.value.value || "1") * MINOR_UNITS[currency]);
    const body = {
      variant,
      players: SEATS[variant].map((_, index) => elements[`player-${index}`].value.trim()),
      name: elements.name.value.trim(),
      point_value: { currency, minor_per_point: currency === "points" ? 1 : Math.max(1, minor) },
      in_standings: elements.in_standings.checked,
    };
    if (Object.keys(rules).length) body.rules = rules;
    if (elements.round_wind) body.round_wind = elements.round_wind.value;
    try {
      const opened = await openLedger(body);
      remember(opened.ledger_id, { invite: opened.invite, host_token: opened.host_token });
      window.location.href = opened.url;
    } catch (refused) {
      error.textContent = refused.message;
      error.hidden = false;
    }
  });
  replaceChildren(root, form);
}
