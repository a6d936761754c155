// Entering a hand: who won and how (or a drawn hand), the winning hand on the tile picker,
// the win's circumstances as plain questions, and at 3 Kaki what the settlement needs.
// Each answer is one tap. Once the hand is whole the engine's answer shows (nothing is
// saved yet); a win can then be saved, and a hand that is not one says why.

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { addHand, checkHand, editHand } from "./ledger_api.js";
import {
  FAMILIES,
  completeFamilies,
  draftOf,
  emptyDraft,
  handBody,
  handSize,
  kongsToTell,
  loserOf,
  losersOf,
  showsTwoDragons,
} from "./ledger_model.js";
import { TilePicker, chip } from "./ledger_picker.js";
import { answerPanel } from "./ledger_result.js";
import { tileShortName } from "./tiles.js";

function section(title, testid, ...children) {
  return element("section", { class: "step", "data-testid": testid }, element("h3", { text: title }), ...children);
}

function choices(label, items) {
  return element("div", { class: "chips", role: "group", "aria-label": label }, items);
}

export class HandForm {
  /** `ledger` the server's ledger; `who()` the name of whoever holds this phone. */
  constructor(root, ledger, { who, onSaved }) {
    this.root = root;
    this.ledger = ledger;
    this.who = who;
    this.onSaved = onSaved;
    this.editing = null;
    this.answer = null;
    this.error = "";
    this.checking = 0;
    this.start(emptyDraft());
  }

  get kaki3() {
    return this.ledger.variant === "kaki3";
  }

  get names() {
    return this.ledger.players;
  }

  /** The dealer of the hand being entered (the coming hand, or the one being changed). */
  get dealer() {
    return this.editing ? this.ledger.hands[this.editing - 1].dealer : this.ledger.next.dealer;
  }

  start(draft, editing = null) {
    this.draft = draft;
    this.editing = editing;
    this.retelling = false;
    this.answer = null;
    this.error = "";
    this.pickerBox = element("div", { class: "picker" });
    this.picker = new TilePicker(this.pickerBox, draft, this.ledger, () => this.changed());
    this.render();
  }

  /** Enter a new hand. */
  fresh() {
    this.start(emptyDraft());
  }

  /** Change stored hand `handNo`. */
  edit(handNo) {
    const hand = this.ledger.hands[handNo - 1];
    this.start(draftOf(hand.entry, this.names.length), handNo);
    this.changed();
    this.root.scrollIntoView({ block: "start" });
  }

  /** The ledger moved on (another phone): keep the draft, read the new seats. */
  update(ledger) {
    this.ledger = ledger;
    this.picker.ledger = ledger;
    if (this.editing && this.editing > ledger.hands.length) this.fresh();
    else this.render();
  }

  changed() {
    this.answer = null;
    this.error = "";
    this.render();
    if (this.whole()) this.check();
  }

  whole() {
    const draft = this.draft;
    if (draft.outcome === "draw") return !this.kaki3 || draft.lastToDraw !== null;
    if (draft.outcome !== "win" || draft.winner === null || draft.discarder === undefined) return false;
    // Each shown kong must be told how it was made before its payment can be worked out.
    const untold = kongsToTell(draft, this.names.length).some(({ key }) => !draft.kongHow[key]);
    return !untold && draft.hand.concealed.length === handSize(draft);
  }

  body() {
    return handBody(this.draft, this.names.length, this.kaki3);
  }

  async check() {
    const asked = ++this.checking;
    const hand = this.body();
    const placed = this.editing ? { ...hand, hand_no: this.editing } : hand;
    try {
      const answer = await checkHand(this.ledger.ledger_id, this.ledger.invite, placed);
      if (asked !== this.checking) return;
      this.answer = answer;
    } catch (error) {
      if (asked !== this.checking) return;
      this.error = error.message;
    }
    this.render();
  }

  async save() {
    const { ledger_id: id, invite, revision } = this.ledger;
    try {
      const saved = this.editing
        ? await editHand(id, invite, this.editing, this.body(), this.who(), revision)
        : await addHand(id, invite, this.body(), this.who());
      this.fresh();
      this.onSaved(saved);
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  render() {
    const draft = this.draft;
    const parts = [this.editing ? element("h2", { text: t("ledger.entry.editing", { number: this.editing }) }) : null];
    // Once it is said who won and how, one line says it and the picker moves up.
    const told = draft.outcome === "draw" || (draft.outcome === "win" && draft.discarder !== undefined);
    if (told && !this.retelling) parts.push(this.toldLine());
    else {
      parts.push(this.outcomeStep());
      if (draft.outcome === "win" && draft.winner !== null) parts.push(this.discardStep());
    }
    if (draft.outcome === "win" && draft.discarder !== undefined) {
      parts.push(section(t("ledger.entry.the_hand"), "step-hand", this.picker.container));
      this.picker.render();
      parts.push(this.questionsStep());
      if (this.kaki3) parts.push(this.liabilityStep(), this.familiesStep());
      parts.push(this.kongsStep());
    }
    if (draft.outcome === "draw") {
      if (this.kaki3) parts.push(this.lastToDrawStep(), this.drawFamiliesStep());
      parts.push(this.kongsStep());
    }
    parts.push(this.answerStep());
    replaceChildren(this.root, parts);
  }

  toldLine() {
    const draft = this.draft;
    const names = this.names;
    let words = t("ledger.board.drawn");
    if (draft.outcome === "win") {
      const how = draft.discarder === null ? t("ledger.board.self_drawn") : t("ledger.board.on_discard", { name: names[draft.discarder] });
      words = t("ledger.entry.told", { name: names[draft.winner], how });
    }
    return element("div", { class: "told", "data-testid": "told" },
      element("strong", { text: words }),
      chip(t("ledger.board.edit"), false, () => {
        this.retelling = true;
        this.render();
      }, { "data-testid": "retell", class: "small" }));
  }

  outcomeStep() {
    const draft = this.draft;
    const pick = (winner) => () => {
      draft.outcome = winner === null ? "draw" : "win";
      draft.winner = winner;
      if (draft.discarder === winner || winner === null) draft.discarder = undefined;
      if (winner === null) this.retelling = false;
      this.picker.choose("winner");
      this.changed();
    };
    return section(t("ledger.entry.who_won"), "step-winner",
      choices(t("ledger.entry.who_won"), [
        ...this.names.map((name, player) => chip(name, draft.outcome === "win" && draft.winner === player, pick(player), { "data-testid": `winner-${player}` })),
        chip(t("ledger.entry.drawn"), draft.outcome === "draw", pick(null), { "data-testid": "winner-none" }),
      ]));
  }

  discardStep() {
    const draft = this.draft;
    const set = (discarder) => () => {
      draft.discarder = discarder;
      draft.flags = {};
      this.retelling = false;
      this.changed();
    };
    const others = this.names.map((name, player) => [name, player]).filter(([, player]) => player !== draft.winner);
    return section(t("ledger.entry.how_won", { name: this.names[draft.winner] }), "step-discarder",
      choices(t("ledger.entry.how_won", { name: this.names[draft.winner] }), [
        chip(t("ledger.entry.self_drawn"), draft.discarder === null, set(null), { "data-testid": "discarder-none" }),
        ...others.map(([name, player]) => chip(t("ledger.entry.on_discard_of", { name }), draft.discarder === player, set(player), { "data-testid": `discarder-${player}` })),
      ]));
  }

  questionsStep() {
    const draft = this.draft;
    const flags = draft.flags;
    const toggle = (name) => () => {
      flags[name] = !flags[name];
      this.changed();
    };
    const replacement = (kind) => () => {
      flags.replacement = flags.replacement === kind ? null : kind;
      if (flags.replacement !== "kong") flags.kong_upon_kong = false;
      this.changed();
    };
    const questions = [];
    if (draft.discarder === null) {
      questions.push(chip(t("ledger.ask.last_tile"), flags.last_tile, toggle("last_tile"), { "data-testid": "ask-last_tile" }));
      questions.push(chip(t("ledger.ask.after_kong"), flags.replacement === "kong", replacement("kong"), { "data-testid": "ask-after_kong" }));
      if (this.kaki3) questions.push(chip(t("ledger.ask.after_bonus"), flags.replacement === "bonus", replacement("bonus"), { "data-testid": "ask-after_bonus" }));
      if (flags.replacement === "kong") questions.push(chip(t("ledger.ask.kong_upon_kong"), flags.kong_upon_kong, toggle("kong_upon_kong"), { "data-testid": "ask-kong_upon_kong" }));
      if (draft.winner === this.dealer) questions.push(chip(t("ledger.ask.heavenly"), flags.heavenly, toggle("heavenly"), { "data-testid": "ask-heavenly" }));
    } else {
      questions.push(chip(t("ledger.ask.last_discard"), flags.last_discard, toggle("last_discard"), { "data-testid": "ask-last_discard" }));
      questions.push(chip(t("ledger.ask.robbing_kong"), flags.robbing_kong, toggle("robbing_kong"), { "data-testid": "ask-robbing_kong" }));
      if (draft.discarder === this.dealer) questions.push(chip(t("ledger.ask.earthly"), flags.earthly, toggle("earthly"), { "data-testid": "ask-earthly" }));
    }
    return section(t("ledger.entry.circumstances"), "step-questions", element("p", { class: "muted", text: t("ledger.entry.tap_what_applies") }), choices(t("ledger.entry.circumstances"), questions));
  }

  liabilityStep() {
    const draft = this.draft;
    if (!showsTwoDragons(draft)) return null;
    const set = (player) => () => {
      draft.liable = player;
      this.changed();
    };
    return section(t("ledger.entry.liable"), "step-liable",
      choices(t("ledger.entry.liable"), [
        chip(t("ledger.entry.nobody_liable"), draft.liable === null, set(null), { "data-testid": "liable-none" }),
        ...losersOf(draft, this.names.length).map((player) => chip(this.names[player], draft.liable === player, set(player), { "data-testid": `liable-${player}` })),
      ]));
  }

  familiesStep() {
    const draft = this.draft;
    const complete = [[draft.winner, draft.hand.bonus], ...losersOf(draft, this.names.length).map((player) => [player, loserOf(draft, player).bonus])]
      .flatMap(([player, bonus]) => completeFamilies(bonus).map((family) => [player, family]));
    if (!complete.length) return null;
    return section(t("ledger.entry.families"), "step-families", element("p", { class: "muted", text: t("ledger.entry.families_note") }),
      choices(t("ledger.entry.families"), complete.map(([player, family]) => this.inDealChip(player, family))));
  }

  inDealChip(player, family) {
    const key = `${player}:${family}`;
    return chip(t("ledger.entry.family_in_deal", { name: this.names[player], family: t(`ledger.family.${family}`) }), this.draft.inDeal.has(key), () => {
      if (this.draft.inDeal.has(key)) this.draft.inDeal.delete(key);
      else this.draft.inDeal.add(key);
      this.changed();
    }, { "data-testid": `in-deal-${player}-${family}` });
  }

  lastToDrawStep() {
    const draft = this.draft;
    return section(t("ledger.entry.last_to_draw"), "step-last-to-draw",
      choices(t("ledger.entry.last_to_draw"), this.names.map((name, player) => chip(name, draft.lastToDraw === player, () => {
        draft.lastToDraw = player;
        this.changed();
      }, { "data-testid": `last-to-draw-${player}` }))));
  }

  drawFamiliesStep() {
    const draft = this.draft;
    const rows = this.names.map((name, player) => element("div", { class: "chips" },
      element("span", { class: "row-label", text: name }),
      Object.keys(FAMILIES).map((family) => {
        const key = `${player}:${family}`;
        return chip(t(`ledger.family.${family}`), draft.drawFamilies.has(key), () => {
          if (draft.drawFamilies.has(key)) draft.drawFamilies.delete(key);
          else draft.drawFamilies.add(key);
          this.changed();
        }, { "data-testid": `family-${player}-${family}` });
      })));
    const inDeal = [...draft.drawFamilies].map((key) => key.split(":")).map(([player, family]) => this.inDealChip(Number(player), family));
    return section(t("ledger.entry.families_completed"), "step-draw-families", ...rows, inDeal.length ? choices(t("ledger.entry.families"), inDeal) : null);
  }

  kongsStep() {
    const draft = this.draft;
    const told = draft.outcome === "win" ? kongsToTell(draft, this.names.length) : [];
    const rows = told.map(({ key, player, meld }) => {
      const how = draft.kongHow[key] || {};
      const set = (value) => () => {
        draft.kongHow[key] = value;
        this.changed();
      };
      const others = this.names.map((name, index) => [name, index]).filter(([, index]) => index !== player);
      return element("div", { class: "chips kong-how", "data-testid": "kong-how" },
        element("span", { class: "row-label", text: t("ledger.entry.kong_of", { name: this.names[player], tile: tileShortName(meld.tiles[0]) }) }),
        others.map(([name, index]) => chip(t("ledger.entry.kong_from", { name }), how.kind === "exposed" && how.from === index, set({ kind: "exposed", from: index }))),
        chip(t("ledger.entry.kong_added"), how.kind === "added", set({ kind: "added" })));
    });
    const others = draft.otherKongs.map((kong, index) => element("div", { class: "chips other-kong" },
      element("span", { class: "row-label", text: t(`ledger.entry.other_kong.${kong.kind}`, { name: this.names[kong.player], from: kong.from === undefined || kong.from === null ? "" : this.names[kong.from] }) }),
      chip(t("ledger.entry.remove"), false, () => {
        draft.otherKongs.splice(index, 1);
        this.changed();
      })));
    return section(t("ledger.entry.kongs"), "step-kongs", element("p", { class: "muted", text: t("ledger.entry.kongs_note") }), ...rows, ...others, this.kongAdder());
  }

  kongAdder() {
    // A kong not among the shown sets entered above: whose, how, and from whom.
    const adding = this.addingKong || {};
    const done = (kong) => {
      this.draft.otherKongs.push(kong);
      this.addingKong = null;
      this.changed();
    };
    const step = (next) => () => {
      this.addingKong = next;
      this.render();
    };
    if (adding.player === undefined) {
      return choices(t("ledger.entry.add_kong"), [element("span", { class: "row-label", text: t("ledger.entry.add_kong") }),
        ...this.names.map((name, player) => chip(name, false, step({ player }), { "data-testid": `add-kong-${player}` }))]);
    }
    const name = this.names[adding.player];
    if (adding.kind === undefined) {
      return choices(t("ledger.entry.add_kong"), [element("span", { class: "row-label", text: t("ledger.entry.kong_by", { name }) }),
        chip(t("ledger.kind.concealed_kong"), false, () => done({ player: adding.player, kind: "concealed" })),
        chip(t("ledger.entry.kong_added"), false, () => done({ player: adding.player, kind: "added" })),
        chip(t("ledger.entry.kong_exposed"), false, step({ ...adding, kind: "exposed" }), { "data-testid": "add-kong-exposed" })]);
    }
    return choices(t("ledger.entry.add_kong"), [element("span", { class: "row-label", text: t("ledger.entry.kong_by", { name }) }),
      ...this.names.map((other, index) => [other, index]).filter(([, index]) => index !== adding.player)
        .map(([other, index]) => chip(t("ledger.entry.kong_from", { name: other }), false, () => done({ player: adding.player, kind: "exposed", from: index })))]);
  }

  answerStep() {
    const buttons = element("div", { class: "entry-buttons" },
      element("button", { type: "button", class: "primary", "data-testid": "save-hand", disabled: !(this.answer && this.answer.valid), onclick: () => this.save(), text: this.editing ? t("ledger.entry.save_change") : t("ledger.entry.save") }),
      element("button", { type: "button", "data-testid": "clear-hand", onclick: () => this.fresh(), text: this.editing ? t("ledger.entry.cancel") : t("ledger.entry.clear") }));
    const waiting = this.whole() ? t("ledger.entry.checking") : t("ledger.entry.incomplete");
    return section(t("ledger.entry.answer"), "step-answer",
      this.error ? element("p", { class: "error", role: "alert", "data-testid": "entry-error", text: this.error }) : null,
      this.answer ? answerPanel(this.answer, this.names, this.draft) : element("p", { class: "muted", text: waiting }),
      buttons);
  }
}
