// The player's own hand: sorted tiles, the drawn tile apart, discard by click or keyboard.
//
// Keyboard: Left/Right (or Home/End) move between tiles, Enter or Space discards the
// chosen one. Number keys 1-9 and 0 choose tile 1-10 from the left; D chooses the drawn
// tile. A tile is only thrown when the server's `legal` holds a discard of it.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { tileElement, tileName } from "./tiles.js";

export class HandView {
  /** `container` receives the tiles; `onDiscard(action)` is called with the legal discard. */
  constructor(container, onDiscard) {
    this.container = container;
    this.onDiscard = onDiscard;
    this.focusIndex = null;
    this.buttons = [];
    // The drawn tile slides in once, when it arrives, not at every redraw.
    this.lastDrawn = null;
    container.addEventListener("keydown", (event) => this.handleArrowKeys(event));
    document.addEventListener("keydown", (event) => this.handleShortcutKeys(event));
  }

  /** Draws the hand of `state`; `busy` greys it while an action is on its way. */
  render(state, busy) {
    const discards = new Map();
    for (const action of state.legal || []) {
      if (action.type === "discard") discards.set(action.tile, action);
    }
    const hadFocus = this.container.contains(document.activeElement);
    const concealed = state.hand || [];
    const tiles = concealed.map((tile) => ({ tile, drawn: false }));
    if (state.drawn_tile) tiles.push({ tile: state.drawn_tile, drawn: true });
    this.buttons = tiles.map(({ tile, drawn }) => this.tileButton(tile, drawn, discards.get(tile), busy));
    const drawnKey = state.drawn_tile ? `${state.wall_remaining}:${state.drawn_tile}` : null;
    if (drawnKey && drawnKey !== this.lastDrawn) {
      for (const button of this.buttons) if (button.dataset.drawn) button.classList.add("arriving");
    }
    this.lastDrawn = drawnKey;
    // Tiles grow when the hand is short (after claims), up to what fits the screen.
    this.container.style.setProperty("--hand-count", String(Math.max(tiles.length, 8)));
    const canDiscard = discards.size > 0 && !busy;
    this.container.classList.toggle("can-discard", canDiscard);
    const mainRow = element("div", { class: "hand-row" }, this.buttons.filter((button) => !button.dataset.drawn));
    const drawnRow = element("div", { class: "hand-drawn" }, this.buttons.filter((button) => button.dataset.drawn));
    replaceChildren(this.container, mainRow, state.drawn_tile ? drawnRow : "");
    if (this.focusIndex === null || this.focusIndex >= this.buttons.length) {
      this.focusIndex = this.buttons.length ? this.buttons.length - 1 : null;
    }
    this.updateTabStops();
    if (hadFocus && this.focusIndex !== null) this.buttons[this.focusIndex].focus();
  }

  tileButton(tile, drawn, discardAction, busy) {
    const discardable = Boolean(discardAction) && !busy;
    const classes = [discardable ? "discardable" : "held"];
    if (drawn) classes.push("drawn");
    const button = tileElement(tile, { tag: "button", size: "lg", classes });
    button.type = "button";
    button.setAttribute("data-testid", "hand-tile");
    if (drawn) button.dataset.drawn = "true";
    const notes = [drawn ? t("hand.just_drawn") : "", discardAction ? t("hand.click_to_discard") : ""].filter(Boolean);
    button.setAttribute("aria-label", [tileName(tile), ...notes].join(t("list.comma")));
    button.title = discardAction ? t("hand.discard_title", { tile: tileName(tile) }) : tileName(tile);
    if (!discardable) button.setAttribute("aria-disabled", "true");
    button.addEventListener("click", () => {
      this.focusIndex = this.buttons.indexOf(button);
      if (discardable) this.onDiscard(discardAction);
    });
    button.addEventListener("focus", () => {
      this.focusIndex = this.buttons.indexOf(button);
      this.updateTabStops();
    });
    return button;
  }

  /** Only one tile is in the tab order (a "roving" tab stop), so Tab leaves the hand in one step. */
  updateTabStops() {
    this.buttons.forEach((button, index) => {
      button.tabIndex = index === this.focusIndex ? 0 : -1;
      button.classList.toggle("selected", index === this.focusIndex && this.container.contains(document.activeElement));
    });
  }

  moveFocus(index) {
    if (!this.buttons.length) return;
    this.focusIndex = Math.max(0, Math.min(this.buttons.length - 1, index));
    this.buttons[this.focusIndex].focus();
    this.updateTabStops();
  }

  handleArrowKeys(event) {
    if (this.focusIndex === null) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (event.key in moves) {
      event.preventDefault();
      this.moveFocus(this.focusIndex + moves[event.key]);
    } else if (event.key === "Home") {
      event.preventDefault();
      this.moveFocus(0);
    } else if (event.key === "End") {
      event.preventDefault();
      this.moveFocus(this.buttons.length - 1);
    }
  }

  handleShortcutKeys(event) {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (/^[0-9]$/.test(event.key)) {
      const index = event.key === "0" ? 9 : Number(event.key) - 1;
      if (index < this.buttons.length) {
        event.preventDefault();
        this.moveFocus(index);
      }
    } else if (event.key === "d" || event.key === "D") {
      const drawnIndex = this.buttons.findIndex((button) => button.dataset.drawn);
      if (drawnIndex !== -1) {
        event.preventDefault();
        this.moveFocus(drawnIndex);
      }
    }
  }
}
