// The ledger page (/ledgers, /ledgers/<id>#invite=...): the scorer and banker of a real
// table. Opening one, then on every phone at the table: the running scores, the hand being
// entered on the tile picker, the hands so far, the history and the settle-up. The
// ledger comes live over its socket (WS /ws/ledgers/<id>): whatever any phone saves shows
// on every other at once.
//
// The invite arrives in the link's fragment, which no browser sends to a server; the page
// remembers it (ledger_api.js) and takes it out of the address bar.

import { element, replaceChildren } from "./dom.js";
import { installLanguageMenu, t, translatePage } from "./i18n.js";
import { variantName } from "./labels.js";
import { LedgerCallError, ledgerSocketUrl, readLedger, remember, remembered } from "./ledger_api.js";
import { handsList, scoreboard, showHistory, showSettleUp, standingsSwitch } from "./ledger_board.js";
import { HandForm } from "./ledger_entry.js";
import { showOpenForm } from "./ledger_open.js";
import { chip } from "./ledger_picker.js";

const byId = (id) => document.getElementById(id);
const RECONNECT_MS = [1000, 2000, 5000, 10000];

function ledgerIdFromPath() {
  const match = /^\/ledgers\/([A-Za-z0-9_-]{1,64})\/?$/.exec(window.location.pathname);
  return match ? match[1] : null;
}

function takeInvite(ledgerId) {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const invite = fragment.get("invite");
  if (invite) {
    remember(ledgerId, { invite });
    window.history.replaceState(null, "", window.location.pathname);
  }
  return remembered(ledgerId).invite || null;
}

class LedgerPage {
  constructor(ledgerId, invite) {
    this.ledgerId = ledgerId;
    this.invite = invite;
    this.ledger = null;
    this.form = null;
    this.socket = null;
    this.retries = 0;
  }

  get me() {
    return remembered(this.ledgerId).me ?? null;
  }

  who() {
    return this.me === null || !this.ledger ? null : this.ledger.players[this.me];
  }

  async start() {
    try {
      this.show(await readLedger(this.ledgerId, this.invite));
    } catch (error) {
      const words = error instanceof LedgerCallError && error.code === "invite_required" ? t("ledger.error.invite_required") : error.message;
      replaceChildren(byId("ledger-main"), element("p", { class: "error card", role: "alert", "data-testid": "ledger-refused", text: words }));
      return;
    }
    this.connect();
    byId("share").addEventListener("click", () => this.share());
    byId("show-history").addEventListener("toggle", (event) => event.currentTarget.open && this.history());
    byId("show-settle").addEventListener("toggle", (event) => event.currentTarget.open && this.settle());
  }

  show(ledger) {
    ledger.invite = this.invite;
    this.ledger = ledger;
    document.title = `${ledger.name || variantName(ledger.variant)} · ${t("ledger.title")}`;
    byId("ledger-title").textContent = ledger.name || t("ledger.night_of", { table: variantName(ledger.variant) });
    byId("ledger-table").textContent = variantName(ledger.variant);
    byId("ledger-main").hidden = false;
    scoreboard(byId("scoreboard"), ledger);
    this.holder();
    if (!this.form) this.form = new HandForm(byId("entry"), ledger, { who: () => this.who(), onSaved: () => this.refresh() });
    else this.form.update(ledger);
    handsList(byId("hands"), ledger, { onEdit: (handNo) => this.form.edit(handNo), who: () => this.who(), afterChange: () => this.refresh() });
    standingsSwitch(byId("standings"), ledger, remembered(this.ledgerId).host_token, () => this.who(), () => this.refresh());
    if (byId("show-history").open) this.history();
    if (byId("show-settle").open) this.settle();
  }

  holder() {
    // Who holds this phone: the history names them with every change they make.
    const box = byId("holder");
    const me = this.me;
    replaceChildren(box, element("span", { class: "row-label", text: t("ledger.holder") }),
      this.ledger.players.map((name, player) => chip(name, me === player, () => {
        remember(this.ledgerId, { me: player });
        this.holder();
      }, { "data-testid": `holder-${player}` })));
  }

  async refresh() {
    try {
      this.show(await readLedger(this.ledgerId, this.invite));
    } catch (error) {
      byId("ledger-status").textContent = error.message;
    }
  }

  connect() {
    const socket = new WebSocket(ledgerSocketUrl(this.ledgerId, this.invite));
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "ledger") return;
      this.retries = 0;
      byId("ledger-status").textContent = "";
      if (!this.ledger || message.revision !== this.ledger.revision) this.show(message);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4403 || event.code === 4404) return;
      byId("ledger-status").textContent = t("ledger.reconnecting");
      const wait = RECONNECT_MS[Math.min(this.retries, RECONNECT_MS.length - 1)];
      this.retries += 1;
      setTimeout(() => this.connect(), wait);
    });
  }

  async share() {
    const link = `${window.location.origin}/ledgers/${encodeURIComponent(this.ledgerId)}#invite=${encodeURIComponent(this.invite)}`;
    try {
      await navigator.clipboard.writeText(link);
      byId("share").textContent = t("lobby.link_copied");
    } catch (blocked) {
      byId("share-link").value = link;
      byId("share-link").hidden = false;
      byId("share-link").select();
    }
  }

  async history() {
    try {
      await showHistory(byId("history"), this.ledger);
    } catch (error) {
      byId("history").textContent = error.message;
    }
  }

  async settle() {
    try {
      await showSettleUp(byId("settle"), this.ledger);
    } catch (error) {
      byId("settle").textContent = error.message;
    }
  }
}

translatePage();
installLanguageMenu();
const ledgerId = ledgerIdFromPath();
if (ledgerId) {
  byId("open").hidden = true;
  new LedgerPage(ledgerId, takeInvite(ledgerId)).start();
} else {
  byId("ledger-main").hidden = true;
  showOpenForm(byId("open"));
}
