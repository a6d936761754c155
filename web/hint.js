// The Hint button (issue 18): at a table whose host allows hints, the player may ask for
// the full bot's move for their seat. The server answers with the move and a reason id
// with parameters; this module words them in the page's language. Every move made after a
// hint is logged as such and the result shows everyone how many hints each player used.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { actionLabel, patternName } from "./labels.js";
import { tileElement, tileShortName } from "./tiles.js";

/** A hint's reason in words: "keep the pair of 7z: a dragon set is worth 1 fan". */
export function reasonText(reason) {
  const params = reason.params || {};
  switch (reason.id) {
    case "keep_honour_pair":
      return t("hint.reason.keep_honour_pair", { pair: tileShortName(params.pair), pattern: patternName(params.pattern), fan: params.fan });
    case "discard_ready":
      return t("hint.reason.discard_ready", { waits: (params.waits || []).map(tileShortName).join(" ") });
    case "discard_steps":
      return t("hint.reason.discard_steps", { steps: params.steps });
    case "claim":
    case "pass":
    case "win":
    case "sink":
    case "swap":
    case "concealed_kong":
    case "added_kong":
      return t(`hint.reason.${reason.id}`);
    default:
      return reason.id;
  }
}

export class HintButton {
  constructor(button, box, send) {
    this.button = button;
    this.box = box;
    this.shownFor = null;
    button.addEventListener("click", () => {
      this.box.hidden = false;
      replaceChildren(this.box, t("hint.thinking"));
      send({ type: "hint" });
    });
  }

  /** Shows the button while this seat owes a decision at a table that allows hints. */
  render(state) {
    const allowed = Boolean(state && state.me && state.room && state.room.hints);
    const due = allowed && (state.legal || []).length > 0;
    this.button.hidden = !due;
    const key = state ? state.seq : null;
    // A hint is for one decision: it goes once the table has moved on.
    if (this.shownFor !== null && this.shownFor !== key) {
      this.box.hidden = true;
      this.shownFor = null;
    }
  }

  /** Draws the server's `hint` answer. */
  show(message, state) {
    this.shownFor = state ? state.seq : null;
    const claimed = state && state.last_discard ? state.last_discard.tile : null;
    const action = message.action || {};
    this.box.hidden = false;
    replaceChildren(
      this.box,
      element("strong", { text: `${t("hint.title")}: ` }),
      action.tile ? tileElement(action.tile, { size: "sm" }) : "",
      ` ${actionLabel(action, claimed)} — ${reasonText(message.reason || {})}`,
    );
  }
}
