// The player's own hand, explained: how far from ready, which tiles complete it (and how
// many of each are still unseen), what each would score against the table's minimum, and
// why a tile that completes the shape cannot win. Drawn from the `analysis` member of the
// player's own `state` (docs/learning.md); the server works it out from this seat's view
// alone, so it knows nothing the player could not see.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { patternName } from "./labels.js";
import { tileElement, tileShortName } from "./tiles.js";

function stepsText(steps) {
  if (steps < 0) return t("learn.complete");
  if (steps === 0) return t("learn.ready");
  return steps === 1 ? t("learn.one_from_ready") : t("learn.steps_from_ready", { steps });
}

/** "3 of 5 fan" with a bar, marked short when below the table's minimum. */
function fanMeter(value, minimum) {
  if (!value) return "";
  const reaches = value.reaches_min;
  const width = Math.min(100, Math.round((100 * value.fan) / Math.max(minimum, 1)));
  return element(
    "span",
    { class: `fan-meter${reaches ? "" : " short"}`, title: breakdownText(value) },
    element("span", { class: "fan-bar" }, element("span", { class: "fan-fill", style: `width:${width}%` })),
    element("span", { class: "fan-text", text: value.limit ? t("learn.limit") : t("learn.fan_of", { fan: value.fan, min: minimum }) }),
  );
}

/** The patterns that counted: "Full flush 3 + Dragon set 1". */
export function breakdownText(value) {
  if (!value || !value.patterns || value.patterns.length === 0) return t("learn.no_patterns");
  return value.patterns.map((pattern) => `${patternName(pattern.id)} ${pattern.fan}`).join(" + ");
}

function waitItem(wait, minimum) {
  const best = wait.discard && (!wait.self_draw || wait.discard.fan >= wait.self_draw.fan) ? wait.discard : wait.self_draw;
  return element(
    "li",
    { class: `wait${best && !best.reaches_min ? " short" : ""}`, "data-testid": "wait", "data-tile": wait.tile },
    tileElement(wait.tile, { size: "sm" }),
    element("span", { class: "unseen", text: t("learn.unseen", { count: wait.unseen }) }),
    wait.discard ? element("span", { class: "way" }, t("learn.on_discard"), " ", fanMeter(wait.discard, minimum)) : "",
    wait.self_draw ? element("span", { class: "way" }, t("learn.on_self_draw"), " ", fanMeter(wait.self_draw, minimum)) : "",
  );
}

/** The "why can't I win" words for a short win: "4p completes your hand, but 3 of 5 fan". */
export function shortText(short) {
  const key = short.on === "discard" ? "learn.short_discard" : "learn.short_self_draw";
  return t(key, { tile: tileShortName(short.tile), fan: short.fan, min: short.min_fan });
}

/** A rule that refuses a move now, in words. */
export function ruleText(rule) {
  if (rule.id === "same_turn_throw_ban") return t("learn.rule_throw_ban", { tiles: (rule.tiles || []).map(tileShortName).join(" ") });
  if (rule.id === "fei_not_in_kong") return t("learn.rule_fei_kong", { tile: tileShortName(rule.tile) });
  return rule.id;
}

/** Draws the meter into `container` from `state.analysis` (hidden when there is none). */
export function renderAnalysis(container, state) {
  const analysis = state && state.me ? state.analysis : null;
  container.hidden = !analysis;
  if (!analysis) {
    replaceChildren(container);
    return;
  }
  const minimum = analysis.min_fan;
  const parts = [element("p", { class: "steps", "data-testid": "analysis-steps", text: stepsText(analysis.steps) })];
  if (analysis.short) {
    parts.push(
      element(
        "p",
        { class: "why-not", role: "status", "data-testid": "why-not" },
        element("strong", { text: shortText(analysis.short) }),
        " ",
        element("span", { class: "breakdown", text: `${breakdownText(analysis.short)} · ${t("learn.shortfall", { fan: analysis.short.shortfall })}` }),
      ),
    );
  }
  for (const rule of analysis.rules || []) parts.push(element("p", { class: "rule", "data-testid": "rule", text: ruleText(rule) }));
  if (analysis.win_now && analysis.win_now.reaches_min) {
    parts.push(element("p", { class: "win-now" }, t("learn.win_now"), " ", fanMeter(analysis.win_now, minimum)));
  }
  if (analysis.waits.length > 0) {
    parts.push(element("ul", { class: "waits", "data-testid": "waits", "aria-label": t("learn.waits") }, analysis.waits.map((wait) => waitItem(wait, minimum))));
  }
  if (analysis.discards.length > 0) {
    parts.push(
      element(
        "ul",
        { class: "ready-throws", "aria-label": t("learn.throws") },
        analysis.discards.map((option) =>
          element("li", { text: t("learn.throw_waits", { tile: tileShortName(option.tile), waits: option.waits.map((wait) => tileShortName(wait.tile)).join(" ") }) }),
        ),
      ),
    );
  }
  if (analysis.sink && analysis.sink.lifts) parts.push(element("p", { class: "sink", "data-testid": "sink-lifts", text: t("learn.sink_lifts") }));
  replaceChildren(container, ...parts);
}
