// The tile picker: every tile of the table laid out as the tiles are (a suit a row, the
// honours, the bonus tiles, the Fei), a finger's width each. Tap a tile to add it to what
// is being entered; tap it again where it was added to take it away. Shown sets are made
// in one tap (the pong's tile, a chow's lowest tile), and listed with their kind.
//
// Whose tiles: the winner's (the hand, the shown sets, the bonus tiles) or, at 3 Kaki, a
// loser's (bonus tiles and shown honour sets, for the square-up).

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { copiesOf, handSize, loserOf, tileCounts } from "./ledger_model.js";
import { tileElement, tileRow, tileShortName } from "./tiles.js";

const ROWS = {
  kaki3: [
    ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"],
    ["1z", "2z", "3z", "4z", "5z", "6z", "7z", "j"],
    ["1f", "2f", "3f", "4f", "1n", "2n", "3n", "4n"],
    ["1a", "2a", "3a", "4a", "1c", "2c", "3c", "4c"],
  ],
  hk: ["m", "p", "s"].map((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((rank) => `${rank}${suit}`)).concat([["1z", "2z", "3z", "4z", "5z", "6z", "7z"]]),
};
const WINNER_MODES = ["hand", "chow", "pong", "kong", "concealed_kong", "bonus"];
const LOSER_MODES = ["bonus", "pong", "kong", "concealed_kong"];
const SET_SIZE = { chow: 3, pong: 3, kong: 4, concealed_kong: 4 };

const suitOf = (tile) => tile[tile.length - 1];
const isBonus = (tile) => "fnac".includes(suitOf(tile));
const isHonour = (tile) => suitOf(tile) === "z";
const rankOf = (tile) => Number(tile[0]);

export class TilePicker {
  /** `ledger` is the server's ledger object; `onChange` runs after every change. */
  constructor(container, draft, ledger, onChange) {
    this.container = container;
    this.draft = draft;
    this.ledger = ledger;
    this.onChange = onChange;
    this.owner = "winner";
    this.mode = "hand";
    this.withFei = false;
    this.pendingChow = null;
    this.notice = "";
  }

  get kaki3() {
    return this.ledger.variant === "kaki3";
  }

  /** Choose whose tiles the palette adds to ("winner" or a loser's number). */
  choose(owner) {
    this.owner = owner;
    this.mode = owner === "winner" ? "hand" : "bonus";
    this.pendingChow = null;
    this.withFei = false;
    this.render();
  }

  render() {
    const draft = this.draft;
    const players = this.ledger.players;
    const owners = draft.winner === null ? [] : [["winner", players[draft.winner]]];
    if (this.kaki3) for (let player = 0; player < players.length; player += 1) if (player !== draft.winner) owners.push([player, players[player]]);
    const whose = owners.length > 1
      ? element("div", { class: "chips whose", role: "group", "aria-label": t("ledger.pick.whose") },
          owners.map(([owner, name]) => chip(owner === "winner" ? t("ledger.pick.winner_tiles", { name }) : t("ledger.pick.loser_tiles", { name }), this.owner === owner, () => this.choose(owner), { "data-testid": `pick-owner-${owner}` })))
      : null;
    const modes = (this.owner === "winner" ? WINNER_MODES : LOSER_MODES).map((mode) =>
      chip(t(`ledger.pick.mode.${mode}`), this.mode === mode, () => { this.mode = mode; this.pendingChow = null; this.render(); }, { "data-testid": `pick-mode-${mode}` }));
    const canHoldFei = this.kaki3 && (this.mode === "chow" || this.mode === "pong");
    if (canHoldFei) modes.push(chip(t("ledger.pick.with_fei"), this.withFei, () => { this.withFei = !this.withFei; this.render(); }, { "data-testid": "pick-with-fei", class: "fei-chip" }));
    replaceChildren(
      this.container,
      whose,
      this.owner === "winner" ? this.winnerTiles() : this.loserTiles(this.owner),
      element("div", { class: "chips modes", role: "group", "aria-label": t("ledger.pick.what") }, modes),
      this.pendingChow ? this.feiChoice() : null,
      element("p", { class: "notice", role: "status", text: this.notice }),
      this.palette(),
    );
    this.notice = "";
  }

  winnerTiles() {
    const hand = this.draft.hand;
    const size = handSize(this.draft);
    const concealed = element("div", { class: "entered hand-row", "data-testid": "entered-hand" },
      element("span", { class: "row-label", text: t("ledger.pick.concealed", { count: hand.concealed.length, size }) }),
      element("span", { class: "tile-row" }, hand.concealed.map((tile, index) => this.removable(tile, () => {
        hand.concealed.splice(index, 1);
        if (hand.winning === tile && !hand.concealed.includes(tile)) hand.winning = hand.concealed[hand.concealed.length - 1] || null;
      }, tile === hand.winning ? ["winning-tile"] : []))));
    const winning = hand.concealed.length
      ? element("div", { class: "chips winning", role: "group", "aria-label": t("ledger.pick.winning_tile") },
          element("span", { class: "row-label", text: t("ledger.pick.winning_tile") }),
          [...new Set(hand.concealed)].map((tile) => chip(tileShortName(tile), hand.winning === tile, () => { hand.winning = tile; this.changed(); }, { "data-testid": "winning-choice", "data-tile": tile })))
      : null;
    return element("div", { class: "entered-tiles" }, concealed, winning, this.setsRow(hand.melds), this.bonusRow(hand.bonus));
  }

  loserTiles(player) {
    const loser = loserOf(this.draft, player);
    const least = loser.bonus.filter((tile) => tile === "j").length + loser.sets.reduce((sum, meld) => sum + meld.tiles.filter((tile) => tile === "j").length, 0);
    const fei = element("div", { class: "chips fei-count", role: "group", "aria-label": t("ledger.pick.fei_held", { name: this.ledger.players[player] }) },
      element("span", { class: "row-label", text: t("ledger.pick.fei_held", { name: this.ledger.players[player] }) }),
      [0, 1, 2, 3, 4].map((count) => chip(String(count), loser.fei === count, () => { loser.fei = count; this.changed(); }, { disabled: count < least, "data-testid": `fei-${player}-${count}` })));
    return element("div", { class: "entered-tiles" }, this.setsRow(loser.sets), this.bonusRow(loser.bonus), fei);
  }

  setsRow(melds) {
    if (!melds.length) return null;
    return element("div", { class: "entered sets-row", "data-testid": "entered-sets" },
      melds.map((meld, index) => element("button", {
        type: "button", class: "set", "data-testid": "entered-set", "aria-label": t("ledger.pick.remove_set", { set: t(`ledger.kind.${kindOf(meld)}`) }),
        onclick: () => { melds.splice(index, 1); this.changed(); },
      }, tileRow(meld.tiles, { size: "sm" }), element("span", { class: "set-kind", text: t(`ledger.kind.${kindOf(meld)}`) }),
      meld.fei_as ? element("span", { class: "fei-note", text: t("meld.fei_as", { tile: tileShortName(meld.fei_as) }) }) : null)));
  }

  bonusRow(bonus) {
    if (!bonus.length) return null;
    return element("div", { class: "entered bonus-row", "data-testid": "entered-bonus" },
      element("span", { class: "row-label", text: t("ledger.pick.bonus") }),
      element("span", { class: "tile-row" }, bonus.map((tile, index) => this.removable(tile, () => bonus.splice(index, 1)))));
  }

  removable(tile, remove, classes = []) {
    const button = tileElement(tile, { tag: "button", size: "md", classes: ["entered-tile", ...classes] });
    button.type = "button";
    button.addEventListener("click", () => { remove(); this.changed(); });
    return button;
  }

  feiChoice() {
    return element("div", { class: "chips fei-choice", role: "group" },
      element("span", { class: "row-label", text: t("ledger.pick.fei_stands_for") }),
      this.pendingChow.map((tile) => chip(tileShortName(tile), false, () => {
        const run = this.pendingChow;
        this.pendingChow = null;
        this.addSet({ kind: "chow", tiles: run.map((each) => (each === tile ? "j" : each)), concealed: false, fei_as: tile });
      }, { "data-testid": "fei-stands-for", "data-tile": tile })));
  }

  palette() {
    const counts = tileCounts(this.draft, this.ledger.players.length);
    const rows = ROWS[this.ledger.variant].map((row) => element("div", { class: "palette-row" }, row.map((tile) => {
      const button = tileElement(tile, { tag: "button", size: "lg", classes: ["pick"] });
      button.type = "button";
      button.dataset.testid = "pick-tile";
      const used = counts[tile] || 0;
      const allowed = this.allows(tile, used);
      button.disabled = !allowed;
      if (used) button.append(element("span", { class: "used", "aria-hidden": "true", text: String(used) }));
      button.addEventListener("click", () => this.pick(tile, counts));
      return button;
    })));
    return element("div", { class: "palette", "data-testid": "tile-picker", "aria-label": t("ledger.pick.palette") }, rows);
  }

  allows(tile, used) {
    const mode = this.mode;
    if (mode === "bonus") return isBonus(tile) ? true : tile === "j" && used < 4;
    if (isBonus(tile)) return false;
    if (tile === "j") return mode === "hand" && used < 4;
    if (this.owner !== "winner" && !isHonour(tile)) return false;
    if (mode === "hand") return used < 4;
    if (mode === "chow") return !isHonour(tile) && rankOf(tile) <= 7;
    const real = SET_SIZE[mode] - (this.withFei && mode === "pong" ? 1 : 0);
    return used + real <= 4;
  }

  pick(tile, counts) {
    const draft = this.draft;
    const target = this.owner === "winner" ? draft.hand : loserOf(draft, this.owner);
    if (this.mode === "bonus") {
      const at = target.bonus.indexOf(tile);
      if (tile !== "j" && at !== -1) target.bonus.splice(at, 1);
      else if (tile === "j" || (counts[tile] || 0) < copiesOf(tile)) target.bonus.push(tile);
      else this.notice = t("ledger.pick.someone_has_it", { tile: tileShortName(tile) });
      if (tile === "j" && this.owner !== "winner") target.fei = Math.max(target.fei, target.bonus.filter((each) => each === "j").length);
      return this.changed();
    }
    if (this.mode === "hand") {
      if (draft.hand.concealed.length >= handSize(draft)) {
        this.notice = t("ledger.pick.hand_full", { size: handSize(draft) });
        return this.render();
      }
      draft.hand.concealed.push(tile);
      draft.hand.winning = tile;
      return this.changed();
    }
    if (this.mode === "chow") {
      const run = [0, 1, 2].map((step) => `${rankOf(tile) + step}${suitOf(tile)}`);
      if (!run.every((each) => (counts[each] || 0) < 4)) {
        this.notice = t("ledger.pick.no_copies");
        return this.render();
      }
      if (this.withFei) {
        this.pendingChow = run;
        return this.render();
      }
      return this.addSet({ kind: "chow", tiles: run, concealed: false, fei_as: null });
    }
    const fei = this.withFei && this.mode === "pong";
    const size = SET_SIZE[this.mode];
    const tiles = Array(size).fill(tile);
    if (fei) tiles[1] = "j";
    return this.addSet({ kind: this.mode === "concealed_kong" ? "kong" : this.mode, tiles, concealed: this.mode === "concealed_kong", fei_as: fei ? tile : null });
  }

  addSet(meld) {
    const target = this.owner === "winner" ? this.draft.hand : loserOf(this.draft, this.owner);
    const sets = this.owner === "winner" ? target.melds : target.sets;
    if (this.owner === "winner" && sets.length >= 4) {
      this.notice = t("ledger.pick.four_sets");
      return this.render();
    }
    sets.push(meld);
    this.withFei = false; // a Fei goes into the one set it was asked for
    if (this.owner !== "winner") target.fei = Math.max(target.fei, meld.tiles.filter((tile) => tile === "j").length + target.bonus.filter((tile) => tile === "j").length);
    // The hand holds three tiles fewer for each set shown.
    const hand = this.draft.hand;
    while (this.owner === "winner" && hand.concealed.length > handSize(this.draft)) hand.concealed.pop();
    return this.changed();
  }

  changed() {
    this.render();
    this.onChange();
  }
}

function kindOf(meld) {
  return meld.kind === "kong" && meld.concealed ? "concealed_kong" : meld.kind;
}

/** A toggle button: pressed when `on`. */
export function chip(text, on, onclick, attributes = {}) {
  const { class: extra, ...rest } = attributes;
  return element("button", { type: "button", class: `chip${extra ? ` ${extra}` : ""}`, "aria-pressed": on ? "true" : "false", onclick, ...rest, text });
}
