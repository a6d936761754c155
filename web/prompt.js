// The choice bar: one button per non-discard entry of `legal`, and the prompt around it.
//
// Buttons are built only from `legal`, and a click sends that very object back. The bar
// disappears as soon as `legal` no longer offers anything (answered, expired, or taken by
// the seat's bot), because it is redrawn from every state.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { actionLabel, actionOrder } from "./labels.js";
import { seatName } from "./seats.js";
import { tileElement } from "./tiles.js";

/** The legal entries that are choices rather than discards (discards are the hand's tiles). */
export function choiceActions(state) {
  return (state.legal || []).filter((action) => action.type !== "discard");
}

function promptText(state, choices) {
  const discard = state.last_discard;
  const canDiscard = (state.legal || []).some((action) => action.type === "discard");
  if (state.phase === "claim" && discard) {
    return words("prompt.threw", { name: seatName(state, discard.seat) }, tileElement(discard.tile, { size: "md" }));
  }
  if (state.phase === "rob" && discard) {
    return words("prompt.adding", { name: seatName(state, discard.seat) }, tileElement(discard.tile, { size: "md" }));
  }
  if (choices.some((action) => action.type === "win") && !canDiscard) return [t("prompt.can_win")];
  return canDiscard ? [t("prompt.discard_or")] : [t("prompt.choice")];
}

/** The catalogue's sentence with its `{tile}` place taken by the tile's picture. */
function words(key, params, tileNode) {
  const [before, after = ""] = t(key, params).split("{tile}");
  return [before, tileNode, after];
}

export class PromptView {
  /** `onChoose(action)` is called with the legal object of the clicked button. */
  constructor(box, text, buttons, onChoose) {
    this.box = box;
    this.text = text;
    this.buttons = buttons;
    this.onChoose = onChoose;
    this.passAction = null;
    document.addEventListener("keydown", (event) => {
      // Escape passes on a claim: the quickest safe answer when a prompt pops up.
      // (Not while a panel is open over the table: there Escape closes the panel.)
      const panelOpen = document.querySelector(".rules-panel:not([hidden])");
      if (event.key === "Escape" && this.passAction && !this.box.hidden && !panelOpen) {
        event.preventDefault();
        this.onChoose(this.passAction);
      }
    });
  }

  /** Redraws the prompt for `state`; `busy` disables it while an answer is on its way. */
  render(state, busy) {
    const choices = choiceActions(state).sort((a, b) => actionOrder(a) - actionOrder(b));
    this.passAction = busy ? null : choices.find((action) => action.type === "pass") || null;
    if (!choices.length) {
      this.box.hidden = true;
      replaceChildren(this.buttons);
      return;
    }
    const isClaim = state.phase === "claim" || state.phase === "rob";
    // A claim is easy to miss while looking elsewhere: a short buzz on phones that allow it.
    // (Only after the player has touched the page: browsers refuse it before, with a warning.)
    const mayVibrate = navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive;
    if (isClaim && this.box.hidden && mayVibrate) navigator.vibrate(60);
    this.box.hidden = false;
    this.box.classList.toggle("claim", isClaim);
    replaceChildren(this.text, promptText(state, choices));
    const claimedTile = state.last_discard ? state.last_discard.tile : null;
    replaceChildren(
      this.buttons,
      choices.map((action) =>
        element("button", {
          type: "button",
          class: `action action-${action.type}`,
          "data-testid": "action",
          disabled: busy,
          title: action.type === "pass" ? t("prompt.pass_title") : actionLabel(action, claimedTile),
          text: actionLabel(action, isClaim || ["chow", "pong", "kong"].includes(action.type) ? claimedTile : null),
          onclick: () => this.onChoose(action),
        }),
      ),
    );
  }
}
