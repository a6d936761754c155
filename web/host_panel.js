// The table's controls panel: pause and resume for every seated player, the host's
// powers (remove a player, offer a bot's seat to a friend, bot levels, hand the role on,
// end the game), and the table's log of host events (docs/protocol.md, "The host's controls").

import { element, replaceChildren } from "./dom.js";

const byId = (id) => document.getElementById(id);
const LEVELS = ["easy", "baseline", "full"];

export class HostPanel {
  /** `send(message)` sends one message on the table's connection. */
  constructor(send, openSettleUp) {
    this.send = send;
    this.openSettleUp = openSettleUp;
    this.confirmingEnd = false;
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
    if (paused) {
      const who = players[paused.by] ? players[paused.by].name : "the host";
      banner.textContent = `Paused by ${who}. The clocks are stopped.`;
    }
    byId("controls-toggle").hidden = false;
    const playing = room.status === "playing";
    const rows = players.map((player) => this.playerRow(player, me, isHost, room));
    replaceChildren(
      byId("controls"),
      element("h2", { text: isHost ? "You host this table" : `Host: ${hostName(room, players)}` }),
      me === null
        ? element("p", { class: "muted", text: "Spectators watch; the seated players run the table." })
        : element(
            "div",
            { class: "control-buttons" },
            playing && !paused
              ? element("button", { type: "button", "data-testid": "host-pause", text: isHost ? "Pause the table" : "Ask for a pause", onclick: () => this.send({ type: "pause" }) })
              : "",
            paused
              ? element("button", { type: "button", class: "primary", "data-testid": "host-resume", text: isHost ? "Resume" : "Ask to play on", onclick: () => this.send({ type: "resume" }) })
              : "",
            element("button", { type: "button", "data-testid": "open-settle-up", text: "Settle up", onclick: () => this.openSettleUp() }),
            isHost && (playing || room.status === "waiting") ? this.endButton() : "",
          ),
      element("ul", { class: "control-players" }, rows),
      element("h3", { text: "Table log" }),
      element(
        "ol",
        { class: "host-events", "data-testid": "host-events" },
        (room.host_events || []).slice().reverse().map((event) => element("li", { text: `${timeText(event.at)} ${event.text}` })),
      ),
    );
  }

  endButton() {
    if (!this.confirmingEnd) {
      return element("button", { type: "button", "data-testid": "host-end-game", text: "End the game", onclick: () => { this.confirmingEnd = true; this.render(this.lastState); } });
    }
    return element("button", { type: "button", class: "danger", "data-testid": "host-end-game-confirm", text: "End it now: scores stand", onclick: () => { this.confirmingEnd = false; this.send({ type: "end_game" }); } });
  }

  playerRow(player, me, isHost, room) {
    const index = player.player_index;
    const label = `${player.name}${player.is_bot ? " (bot)" : ""}${room.host === index ? " · host" : ""}`;
    const controls = [];
    if (isHost && index !== me && !player.is_bot) {
      controls.push(
        element("button", { type: "button", class: "small", "data-testid": `host-make-host-${index}`, text: "Make host", onclick: () => this.send({ type: "make_host", player_index: index }) }),
        element("button", { type: "button", class: "small", "data-testid": `host-remove-${index}`, text: "Remove", onclick: () => this.send({ type: "remove_player", player_index: index }) }),
      );
    }
    if (isHost && player.is_bot) {
      const select = element(
        "select",
        { "data-testid": `host-bot-level-${index}`, "aria-label": `${player.name}'s level`, onchange: (event) => this.send({ type: "bot_level", player_index: index, level: event.currentTarget.value }) },
        element("option", { value: "", text: "bot level…" }),
        LEVELS.map((level) => element("option", { value: level, text: level })),
      );
      controls.push(
        select,
        element("button", { type: "button", class: "small", "data-testid": `host-offer-${index}`, text: "Offer to a friend", onclick: () => this.send({ type: "offer_seat", player_index: index }) }),
      );
    }
    return element("li", { dataset: { playerIndex: String(index) } }, element("span", { text: label }), controls);
  }
}

function hostName(room, players) {
  const host = players[room.host];
  return host ? host.name : "nobody yet";
}

function timeText(at) {
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
