// A table's house rules as the server works them out (GET /api/house-rules/{variant}),
// and their words: the lobby's choices, the Rules panel, the result panel and the
// dashboard all show rules from the server, never from a copy of a rule constant here.

import { t } from "./i18n.js";

const asked = new Map();
const FIELDS = ["min_fan", "fan_cap", "points", "win_payment", "time_bank_seconds"];
// The rules a deal is scored by; the time bank only gives players time.
export const SCORING_FIELDS = ["min_fan", "fan_cap", "points", "win_payment"];

/** The server's answer for `rules` at table `variant` (the seed's when `rules` is null). */
export function fetchHouseRules(variant, rules = null) {
  const query = new URLSearchParams();
  for (const field of FIELDS) {
    if (rules && rules[field] !== undefined && rules[field] !== null) query.set(field, String(rules[field]));
  }
  const key = `${variant}?${query}`;
  if (!asked.has(key)) {
    const request = fetch(`/api/house-rules/${encodeURIComponent(variant)}?${query}`).then((response) => {
      if (!response.ok) throw new Error(t("rules.unavailable"));
      return response.json();
    });
    // A failed fetch is tried again the next time it is asked for.
    request.catch(() => asked.delete(key));
    asked.set(key, request);
  }
  return asked.get(key);
}

/** A rule's name, as a form or a list labels it ("Minimum to win"). */
export function ruleLabel(field) {
  return t(`house.label.${field}`);
}

/** A rule's value beside its name ("1 fan", "half value", "30 s per player"). */
export function ruleValue(field, value) {
  if (field === "min_fan" || field === "fan_cap") return t("result.fan", { fan: value });
  if (field === "time_bank_seconds") return value ? t("house.value.time_bank", { seconds: value }) : t("house.value.no_time_bank");
  return t(`house.value.${field}.${value}`);
}

/** One rule's value in a line of text ("minimum 1 fan", "half points", "time bank 30 s"). */
export function ruleWords(field, value) {
  switch (field) {
    case "min_fan":
      return t("house.min_fan", { fan: value });
    case "fan_cap":
      return t("house.fan_cap", { fan: value });
    case "time_bank_seconds":
      return value ? t("house.time_bank", { seconds: value }) : t("house.no_time_bank");
    default:
      return t(`house.${field}.${value}`);
  }
}

/** The rules of `rules` that differ from `seed`, among `fields`, in words. */
export function changedRules(rules, seed, fields = FIELDS) {
  if (!rules || !seed) return [];
  return fields.filter((field) => rules[field] !== undefined && rules[field] !== seed[field]).map((field) => ruleWords(field, rules[field]));
}

/** "House rules: minimum 1 fan, cap 10 fan", or "" when the table plays the seed's rules. */
export function houseRulesLine(rules, seed, fields = FIELDS) {
  const changed = changedRules(rules, seed, fields);
  return changed.length ? t("house.line", { rules: changed.join(t("list.comma")) }) : "";
}
