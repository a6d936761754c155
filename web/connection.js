// The live WebSocket to a room, with automatic reconnection.
//
// Reconnection backs off (0.5 s, 1 s, 2 s... up to 10 s) so a restarting server is not
// hammered, and resets once a connection delivers its first state. Close codes that no
// retry can fix (bad token, room gone, seat taken over by another tab) stop the loop and
// are reported to the page instead.

const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 10000;
const KEEPALIVE_MS = 25000;

/** Close codes after which reconnecting would be pointless (docs/protocol.md). */
export const FINAL_CLOSE_CODES = {
  4401: "token_refused",
  4403: "token_refused",
  4431: "no_spectators",
  4404: "room_not_found",
  4409: "replaced",
  4410: "room_closed",
};

/**
 * One room connection. Callbacks (all optional): onMessage(message) for every server
 * message, onStatus(status, detail) with status "connecting" | "open" | "reconnecting" |
 * "stopped", where detail is {attempt, retryInMs} or {reason, code}.
 */
export class TableConnection {
  constructor(roomId, token, callbacks, invite) {
    this.roomId = roomId;
    this.token = token;
    // A spectator of a private table shows its invite; a player's token works alone.
    this.invite = invite || null;
    this.callbacks = callbacks;
    this.socket = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.keepaliveTimer = null;
    this.stopped = false;
    this.nextMessageId = 1;
  }

  /** Opens the connection (and keeps it open until stop()). */
  start() {
    this.stopped = false;
    this.open();
    window.addEventListener("online", () => this.retrySoon());
  }

  /** Closes the connection for good. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.keepaliveTimer);
    if (this.socket) this.socket.close(1000, "leaving");
  }

  /** Sends a message, adding an id; answers the id, or null when not connected. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return null;
    const id = this.nextMessageId;
    this.nextMessageId += 1;
    this.socket.send(JSON.stringify({ ...message, id }));
    return id;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  // A browser sets no header on a WebSocket, so the secret rides as an offered subprotocol
  // beside "mahjong-hall" (which the server answers), never in the URL that logs keep.
  // Secrets are URL-safe base64; anything else (a mangled link) is not offered, since a
  // subprotocol outside the token characters makes the WebSocket constructor throw.
  protocols() {
    const offer = (kind, secret) => (/^[A-Za-z0-9_-]+$/.test(secret || "") ? [`mahjong-hall.${kind}.${secret}`] : []);
    if (this.token) return ["mahjong-hall", ...offer("token", this.token)];
    return ["mahjong-hall", ...offer("invite", this.invite)];
  }

  report(status, detail) {
    if (this.callbacks.onStatus) this.callbacks.onStatus(status, detail || {});
  }

  open() {
    this.report(this.attempt === 0 ? "connecting" : "reconnecting", { attempt: this.attempt });
    const socket = new WebSocket(this.url(), this.protocols());
    this.socket = socket;
    let delivered = false;
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (notJson) {
        return;
      }
      if (!delivered) {
        delivered = true;
        this.attempt = 0;
        this.report("open");
      }
      if (this.callbacks.onMessage) this.callbacks.onMessage(message);
    });
    socket.addEventListener("open", () => {
      clearInterval(this.keepaliveTimer);
      // Some proxies drop quiet connections; an application ping keeps the path warm.
      this.keepaliveTimer = setInterval(() => this.send({ type: "ping" }), KEEPALIVE_MS);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.keepaliveTimer);
      this.socket = null;
      const finalReason = FINAL_CLOSE_CODES[event.code];
      if (this.stopped) return;
      if (finalReason) {
        this.stopped = true;
        this.report("stopped", { reason: finalReason, code: event.code });
        return;
      }
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    this.attempt += 1;
    const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.attempt - 1));
    // A little jitter so a room's players do not all knock at the same instant.
    const retryInMs = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.report("reconnecting", { attempt: this.attempt, retryInMs });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), retryInMs);
  }

  retrySoon() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.open();
  }
}
