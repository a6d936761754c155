// Small SVG bar charts for the dashboard, drawn in the page with no library and no
// network. Every label is set with textContent, never parsed as markup.

import { formatNumber } from "/static/i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svgElement(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

/**
 * Draws vertical bars into `container`. `bars` is a list of {label, value, kind}; `kind`
 * adds a class (`bar-win`...) for a colour. Replaces whatever the container held.
 */
export function columnChart(container, bars, { title = "", emptyText = "no deals yet" } = {}) {
  const width = 360;
  const height = 200;
  const left = 34;
  const bottom = 30;
  const top = 16;
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title });
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const plotHeight = height - bottom - top;
  const slot = bars.length ? (width - left - 8) / bars.length : 0;
  svg.append(svgElement("line", { class: "axis", x1: left, y1: height - bottom, x2: width - 4, y2: height - bottom }));
  svg.append(svgElement("text", { x: left - 4, y: top + 4, "text-anchor": "end" }, formatNumber(max)));
  svg.append(svgElement("text", { x: left - 4, y: height - bottom, "text-anchor": "end" }, "0"));
  if (!bars.length || bars.every((bar) => bar.value === 0)) {
    svg.append(svgElement("text", { class: "empty", x: width / 2, y: height / 2, "text-anchor": "middle" }, emptyText));
  }
  bars.forEach((bar, index) => {
    const barHeight = (bar.value / max) * plotHeight;
    const x = left + index * slot + slot * 0.15;
    const y = height - bottom - barHeight;
    const rect = svgElement("rect", {
      class: `bar${bar.kind ? ` bar-${bar.kind}` : ""}`,
      x, y, width: Math.max(1, slot * 0.7), height: barHeight,
    });
    rect.dataset.value = String(bar.value);
    rect.append(svgElement("title", {}, `${bar.label}: ${bar.value}`));
    svg.append(rect);
    svg.append(svgElement("text", { x: x + slot * 0.35, y: height - bottom + 14, "text-anchor": "middle" }, bar.label));
    if (bar.value > 0) {
      svg.append(svgElement("text", { x: x + slot * 0.35, y: y - 3, "text-anchor": "middle" }, String(bar.value)));
    }
  });
  container.replaceChildren(svg);
  return svg;
}

/** Horizontal bars, for long labels such as pattern ids. */
export function barList(container, bars, { title = "", emptyText = "no winning hands yet" } = {}) {
  const width = 360;
  const rowHeight = 20;
  const labelWidth = 130;
  const height = Math.max(60, bars.length * rowHeight + 10);
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title });
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  if (!bars.length) {
    svg.append(svgElement("text", { class: "empty", x: width / 2, y: height / 2, "text-anchor": "middle" }, emptyText));
  }
  bars.forEach((bar, index) => {
    const y = 5 + index * rowHeight;
    const barWidth = ((width - labelWidth - 40) * bar.value) / max;
    svg.append(svgElement("text", { x: labelWidth - 6, y: y + 13, "text-anchor": "end" }, bar.label));
    const rect = svgElement("rect", { class: "bar", x: labelWidth, y: y + 2, width: Math.max(1, barWidth), height: rowHeight - 6 });
    rect.dataset.value = String(bar.value);
    rect.append(svgElement("title", {}, `${bar.label}: ${bar.value}`));
    svg.append(rect);
    svg.append(svgElement("text", { x: labelWidth + barWidth + 4, y: y + 13 }, String(bar.value)));
  });
  container.replaceChildren(svg);
  return svg;
}
