// The table's controls panel: pause and resume for every seated player, the host's
// powers (remove a player, offer a bot's seat to a friend, bot levels, hand the role on,
// end the game, let spectators watch or not), and the table's log of host events
// (docs/protocol.md, "The host's controls").

import { element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

const byId = (id) => document.getElementById(id);
const LEVELS = ["easy", "baseline", "full"];

export class HostPanel {
  /** `send(message)` sends one message on the table's connection. */
  constructor(send, openSettleUp) {
    this.send = send;
    this.openSettleUp = openSettleUp;
    this.confirmingEnd = false;
    this.lastState = null;
    byId("controls-toggle").addEventListener("click", () => {
      const panel = byId("controls");
      panel.hidden = !panel.hidden;
    });
  }

  /** Redraws the banner and the panel from a state's room object. */
  render(state) {
    this.lastState = state;
    const room = state.room || {};
    const players = room.players || [];
    const mine = players.find((player) => state.me && player.seat === state.me && !player.is_bot);
    const me = mine ? mine.player_index : null;
    const isHost = me !== null && room.host === me;
    const paused = room.paused;
    const banner = byId("paused-banner");
    banner.hidden = !paused;
    if (paused) banner.textContent = t("host.paused_by", { name: nameOf(players, paused.by) });
    const toggle = byId("controls-toggle");
    toggle.hidden = false;
    toggle.textContent = t("host.toggle");
    const playing = room.status === "playing";
    replaceChildren(
      byId("controls"),
      element("h2", { text: isHost ? t("host.you_host") : t("host.host_is", { name: players[room.host] ? players[room.host].name : t("host.nobody") }) }),
      me === null
        ? element("p", { class: "muted", text: t("host.spectator_note") })
        : element(
            "div",
            { class: "control-buttons" },
            playing && !paused
              ? element("button", { type: "button", "data-testid": "host-pause", text: isHost ? t("host.pause") : t("host.ask_pause"), onclick: () => this.send({ type: "pause" }) })
              : "",
            paused
              ? element("button", { type: "button", class: "primary", "data-testid": "host-resume", text: isHost ? t("host.resume") : t("host.ask_resume"), onclick: () => this.send({ type: "resume" }) })
              : "",
            element("button", { type: "button", "data-testid": "open-settle-up", text: t("host.settle_up"), onclick: () => this.openSettleUp() }),
            isHost && (playing || room.status === "waiting") ? this.endButton() : "",
          ),
      isHost && (playing || room.status === "waiting") ? this.spectatorsSwitch(room) : "",
      room.rules
        ? element("p", { class: "muted", "data-testid": "house-rules", text: t("host.rules", { min_fan: room.rules.min_fan, fan_cap: room.rules.fan_cap, bank: room.rules.time_bank_seconds }) })
        : "",
      element("ul", { class: "control-players" }, players.map((player) => this.playerRow(player, me, isHost, room))),
      element("h3", { text: t("host.log") }),
      element(
        "ol",
        { class: "host-events", "data-testid": "host-events" },
        (room.host_events || []).slice().reverse().map((event) => element("li", { text: `${timeText(event.at)} ${eventText(event, players)}` })),
      ),
    );
  }

  /** The host's switch: spectators may watch (on) or not; the server closes theirs at once. */
  spectatorsSwitch(room) {
    const allowed = room.spectators_allowed !== false;
    return element(
      "label",
      { class: "check host-spectators" },
      element("input", {
        type: "checkbox",
        "data-testid": "host-spectators",
        checked: allowed,
        onchange: (event) => this.send({ type: "spectators", allowed: event.currentTarget.checked }),
      }),
      " ",
      t("host.spectators"),
    );
  }

  endButton() {
    if (!this.confirmingEnd) {
      return element("button", {
        type: "button",
        "data-testid": "host-end-game",
        text: t("host.end_game"),
        onclick: () => {
          this.confirmingEnd = true;
          this.render(this.lastState);
        },
      });
    }
    return element("button", {
      type: "button",
      class: "danger",
      "data-testid": "host-end-game-confirm",
      text: t("host.end_confirm"),
      onclick: () => {
        this.confirmingEnd = false;
        this.send({ type: "end_game" });
      },
    });
  }

  playerRow(player, me, isHost, room) {
    const index = player.player_index;
    let label = player.is_bot ? t("host.player_bot", { name: player.name }) : player.name;
    if (room.host === index) label = t("host.player_host", { name: label });
    const controls = [];
    if (isHost && index !== me && !player.is_bot) {
      controls.push(
        element("button", { type: "button", class: "small", "data-testid": `host-make-host-${index}`, text: t("host.make_host"), onclick: () => this.send({ type: "make_host", player_index: index }) }),
        element("button", { type: "button", class: "small", "data-testid": `host-remove-${index}`, text: t("host.remove"), onclick: () => this.send({ type: "remove_player", player_index: index }) }),
      );
    }
    if (isHost && player.is_bot) {
      controls.push(
        element(
          "select",
          {
            "data-testid": `host-bot-level-${index}`,
            "aria-label": t("host.bot_level_of", { name: player.name }),
            onchange: (event) => this.send({ type: "bot_level", player_index: index, level: event.currentTarget.value }),
          },
          element("option", { value: "", text: t("host.bot_level") }),
          LEVELS.map((level) => element("option", { value: level, text: t(`host.level.${level}`) })),
        ),
        element("button", { type: "button", class: "small", "data-testid": `host-offer-${index}`, text: t("host.offer"), onclick: () => this.send({ type: "offer_seat", player_index: index }) }),
      );
    }
    return element("li", { dataset: { playerIndex: String(index) } }, element("span", { text: label }), controls);
  }
}

function nameOf(players, index) {
  return players[index] ? players[index].name : "?";
}

/** A host event in the page's language (the server's English `text` is for its log). */
function eventText(event, players) {
  // The spectators switch is one kind of event, worded by the way it went.
  const kind = event.kind === "spectators" ? `spectators_${event.allowed ? "on" : "off"}` : event.kind;
  const key = `host.event.${kind}`;
  const words = t(key, {
    by: nameOf(players, event.by),
    player: nameOf(players, event.player_index),
    level: event.level ? t(`host.level.${event.level}`) : "",
  });
  return words === key ? event.text : words;
}

function timeText(at) {
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
