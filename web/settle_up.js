// "Settle up": a value per point and a currency, the fewest transfers, as text to copy for
// a group chat; for this game or for the whole night (every game this browser sat at).

import { nightSettleUp, rememberedSeats, settleUpGame } from "./api.js";
import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

const byId = (id) => document.getElementById(id);
// Minor units (sen, cents) per major unit of each currency; points have none.
export const MINOR_UNITS = { points: 1, MYR: 100, HKD: 100 };
const PREFIXES = { MYR: "RM ", HKD: "HK$" };

export class SettleUpPanel {
  constructor(roomId, credentials) {
    this.roomId = roomId;
    this.credentials = credentials;
    this.text = "";
    byId("settle-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.show();
    });
    byId("settle-close").addEventListener("click", () => {
      byId("settle-up").hidden = true;
    });
    byId("settle-copy").addEventListener("click", () => this.copy());
    byId("settle-scope").addEventListener("change", () => {
      byId("settle-night").hidden = byId("settle-scope").value !== "night";
    });
  }

  open() {
    byId("settle-up").hidden = false;
    const since = byId("settle-since");
    if (!since.value) {
      since.value = localInput(new Date(Date.now() - 12 * 3600 * 1000));
      byId("settle-until").value = localInput(new Date(Date.now() + 3600 * 1000));
    }
    byId("settle-value").focus();
  }

  async show() {
    const currency = byId("settle-currency").value;
    const minor = Math.round(Number(byId("settle-value").value || "1") * MINOR_UNITS[currency]);
    const lines = byId("settle-lines");
    if (!Number.isFinite(minor) || minor < 1) {
      replaceChildren(lines, element("li", { class: "error", text: t("settle.enter_value") }));
      return;
    }
    try {
      const answer =
        byId("settle-scope").value === "night"
          ? await nightSettleUp({
              tokens: rememberedSeats().map((seat) => seat.token),
              since: new Date(byId("settle-since").value).toISOString(),
              until: new Date(byId("settle-until").value).toISOString(),
              currency,
              minor_per_point: minor,
            })
          : await settleUpGame(this.roomId, currency, minor, this.credentials());
      const texts = answer.transfers.length
        ? answer.transfers.map((transfer) => t("settle.line", { from: transfer.from, to: transfer.to, amount: amountText(transfer.amount_minor, currency) }))
        : [t("settle.square")];
      this.text = texts.join("\n");
      replaceChildren(lines, texts.map((line) => element("li", { text: line })));
      const copy = byId("settle-copy");
      copy.hidden = false;
      copy.textContent = t("settle.copy");
    } catch (error) {
      replaceChildren(lines, element("li", { class: "error", text: error.message }));
    }
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(this.text);
      byId("settle-copy").textContent = t("settle.copied");
    } catch (blocked) {
      byId("settle-copy").textContent = t("settle.select_lines");
    }
  }
}

/** "RM 14.20", "HK$3.00", "14 points": exact, from minor units (the dashboard's too). */
export function amountText(minor, currency) {
  if (currency === "points") return t("settle.amount_points", { amount: minor });
  const whole = Math.floor(minor / 100);
  const cents = String(minor % 100).padStart(2, "0");
  return `${PREFIXES[currency]}${whole.toLocaleString("en")}.${cents}`;
}

function localInput(moment) {
  const shifted = new Date(moment.getTime() - moment.getTimezoneOffset() * 60000);
  return shifted.toISOString().slice(0, 16);
}
