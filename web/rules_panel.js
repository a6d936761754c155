// The Rules panel: this table's fan list, each pattern with its fan and an example in
// tiles, and its payments, in the page's language.
//
// Everything comes from GET /api/variants/{variant}, which reads the scorer's own tables,
// so the panel cannot disagree with the scoring; the page only words the ids. A table's
// own house rules (the room's `rules`) replace the minimum, the cap, the points and the
// win payments, as GET /api/house-rules/{variant} works them out for those rules.

import { element, replaceChildren } from "./dom.js";
import { fetchHouseRules, ruleLabel, ruleValue } from "./house_rules.js";
import { formatNumber, t } from "./i18n.js";
import { patternName, variantName } from "./labels.js";
import { tileRow } from "./tiles.js";

const loaded = new Map();

// The house rules the endpoint takes as query parameters (docs/protocol.md).
const HOUSE_RULES = ["min_fan", "fan_cap", "points", "win_payment"];

/** The address of `variant`'s rules, under the table's house rules `tableRules` if any. */
export function variantRulesUrl(variant, tableRules) {
  const query = new URLSearchParams();
  for (const name of HOUSE_RULES) {
    if (tableRules && tableRules[name] !== undefined && tableRules[name] !== null) query.set(name, String(tableRules[name]));
  }
  const text = query.toString();
  return `/api/variants/${encodeURIComponent(variant)}${text ? `?${text}` : ""}`;
}

/** The table's rules from the server (fetched once per variant and house rules). */
export function fetchVariantRules(variant, tableRules) {
  const url = variantRulesUrl(variant, tableRules);
  if (!loaded.has(url)) {
    const request = fetch(url).then((response) => {
      if (!response.ok) throw new Error(t("rules.unavailable"));
      return response.json();
    });
    // A failed fetch is tried again the next time the panel opens.
    request.catch(() => loaded.delete(url));
    loaded.set(url, request);
  }
  return loaded.get(url);
}

function example(tiles) {
  const cell = element("td", { class: "rules-example" });
  for (const group of String(tiles || "").split(" ").filter(Boolean)) cell.append(tileRow(group, { size: "sm" }));
  return cell;
}

function patternRows(rules) {
  return rules.patterns.map((pattern) =>
    element(
      "tr",
      { dataset: { pattern: pattern.id, fan: String(pattern.fan), limit: String(pattern.limit) } },
      element("td", { class: "rules-name", text: patternName(pattern.id) }),
      element("td", { class: "num rules-fan", text: pattern.limit ? t("rules.limit_fan", { fan: pattern.fan }) : t("result.fan", { fan: pattern.fan }) }),
      example(pattern.example),
    ),
  );
}

function share(fraction) {
  if (fraction === 1) return t("rules.share_full");
  if (fraction === 0.5) return t("rules.share_half");
  return t("rules.share_fraction", { fraction: formatNumber(fraction) });
}

function paymentLine(rule) {
  switch (rule.id) {
    case "discard_win":
      return rule.others_share ? t("rules.pay.discard_win_shared", { shooter: share(rule.shooter_share), others: share(rule.others_share) }) : t("rules.pay.discard_win");
    case "self_draw_win":
      return t("rules.pay.self_draw_win", { others: share(rule.others_share) });
    case "family":
      return t("rules.pay.family", { points: rule.points, in_deal: rule.points_in_deal });
    default:
      return t(`rules.pay.${rule.id}`, { points: rule.points ?? 0 });
  }
}

/** The variant's rules with the table's house rules (`house`, the server's answer) in force. */
export function underHouseRules(rules, house) {
  const cap = house.rules.fan_cap;
  return {
    ...rules,
    min_fan: house.rules.min_fan,
    fan_cap: cap,
    // A limit hand counts the table's cap, whichever it is.
    patterns: rules.patterns.map((pattern) => (pattern.limit ? { ...pattern, fan: cap } : pattern)),
    points: house.points,
    payments: house.payments,
    house,
  };
}

function houseRulesList(house) {
  const changed = Object.keys(house.changes);
  return element(
    "section",
    { class: "rules-house", "data-testid": "rules-house" },
    element("h3", { text: changed.length ? t("rules.house_title") : t("rules.seed_title") }),
    element(
      "ul",
      {},
      Object.entries(house.rules)
        .filter(([field]) => field !== "variant")
        .map(([field, value]) =>
          element("li", { class: changed.includes(field) ? "changed" : null, dataset: { rule: field } }, element("span", { class: "muted", text: `${ruleLabel(field)}: ` }), ruleValue(field, value)),
        ),
    ),
  );
}

/** The panel's content for `rules` (the endpoint's answer). */
export function rulesContent(rules, onClose) {
  const points = element(
    "table",
    { class: "rules-points", "data-testid": "rules-points" },
    element("caption", { text: t("rules.points_caption") }),
    element("thead", {}, element("tr", {}, element("th", { text: t("rules.fan_head") }), element("th", { class: "num", text: t("result.points_head") }))),
    element(
      "tbody",
      {},
      rules.points.map((row) =>
        element(
          "tr",
          { dataset: { fan: String(row.fan), points: String(row.points) } },
          element("td", { text: row.limit ? t("rules.fan_or_limit", { fan: row.fan }) : t("result.fan", { fan: row.fan }) }),
          element("td", { class: "num", text: formatNumber(row.points) }),
        ),
      ),
    ),
  );
  return element(
    "div",
    { class: "rules-card" },
    element(
      "header",
      { class: "rules-head" },
      element("h2", { id: "rules-title", text: t("rules.title", { table: variantName(rules.variant) }) }),
      element("button", { type: "button", class: "small", "data-testid": "rules-close", text: t("rules.close"), onclick: onClose }),
    ),
    element("p", { class: "rules-summary", text: t("rules.summary", { min: rules.min_fan, cap: rules.fan_cap }) }),
    rules.house ? houseRulesList(rules.house) : "",
    element(
      "table",
      { class: "rules-patterns", "data-testid": "rules-patterns" },
      element("caption", { text: t("rules.patterns_caption") }),
      element("thead", {}, element("tr", {}, element("th", { text: t("rules.pattern_head") }), element("th", { class: "num", text: t("rules.fan_head") }), element("th", { text: t("rules.example_head") }))),
      element("tbody", {}, patternRows(rules)),
    ),
    points,
    element("h3", { text: t("rules.payments_caption") }),
    element("ul", { class: "rules-payments", "data-testid": "rules-payments" }, rules.payments.map((rule) => element("li", { dataset: { rule: rule.id }, text: paymentLine(rule) }))),
  );
}

export class RulesPanel {
  constructor(panel) {
    this.panel = panel;
    this.shown = null;
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !this.panel.hidden) this.close();
    });
  }

  /** Opens the panel for `variant`, under the table's own `tableRules` (the room's `rules`). */
  async open(variant, tableRules = null) {
    this.panel.hidden = false;
    const key = `${variant}:${JSON.stringify(tableRules)}`;
    if (this.shown === key && this.panel.childElementCount) return;
    replaceChildren(this.panel, element("p", { class: "rules-card muted", text: t("rules.loading") }));
    try {
      const [rules, house] = await Promise.all([fetchVariantRules(variant), fetchHouseRules(variant, tableRules)]);
      this.shown = key;
      replaceChildren(this.panel, rulesContent(underHouseRules(rules, house), () => this.close()));
    } catch (error) {
      replaceChildren(this.panel, element("div", { class: "rules-card" }, element("p", { class: "error", text: error.message }), element("button", { type: "button", text: t("rules.close"), onclick: () => this.close() })));
    }
  }

  close() {
    this.panel.hidden = true;
  }

  toggle(variant, tableRules = null) {
    if (this.panel.hidden) this.open(variant, tableRules);
    else this.close();
  }
}
