// The table socket: connects, says hello with the seat token, and reconnects by itself.

export class TableClient {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.socket = null;
    this.ref = 0;
    this.retry = 0;
    this.stopped = false;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    if (this.stopped) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      // Only a socket the server took (it sent the table) resets the back-off: one turned away
      // after opening (a full table, too many sockets) waits longer each time.
      // Connected means a table answered: a socket that opens only to be told there is no such
      // table never shows the green dot.
      if (message.type === "state") {
        this.retry = 0;
        this.handlers.status(true);
      }
      this.handlers.message(message);
    });
    socket.addEventListener("close", (event) => {
      this.handlers.status(false);
      if (event.code === 4404 || event.code === 4410) {
        this.stopped = true; // no such table, or closed for good: nothing to reconnect to
        if (this.handlers.gone) this.handlers.gone(event.code === 4404 ? "unknown" : "closed");
        return;
      }
      // Back off a little more after each failure, up to five seconds.
      const delay = Math.min(5000, 400 * 2 ** this.retry);
      this.retry += 1;
      window.setTimeout(() => this.connect(), delay);
    });
  }

  /** Go on as a spectator: the seat's token is gone (re-issued or handed to a bot). */
  watch() {
    this.token = null;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "hello" }));
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  act(action, step) {
    this.ref += 1;
    return this.send({ type: "act", action, step, ref: this.ref });
  }
}
