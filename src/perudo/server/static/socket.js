// The table's WebSocket: connect, say hello (with the seat token and the last version seen),
// notice a dead connection, and reconnect. It knows nothing of the game: every message goes to
// `onMessage`, and `onLost` / `onBack` tell the page when the connection goes and comes back.
//
// A connection can die silently (a Wi-Fi switch, a dead NAT entry): no offline event, no
// close, for minutes. So while the socket is open the page sends a `ping` every `interval` ms,
// and if nothing at all comes from the server within `timeout` ms of a ping, it takes the
// socket for dead and reconnects. A test may set `window.PERUDO_HEARTBEAT = { interval,
// timeout }` (milliseconds) before the page's modules load. The browser's "offline" and
// "online" events drop the socket and retry at once (Chromium keeps a socket open while
// offline, with no close event).

export const HEARTBEAT = (() => {
  const o = window.PERUDO_HEARTBEAT || {};
  const ms = (v, d) => (Number.isFinite(v) && v > 0 ? v : d);
  return { interval: ms(o.interval, 10000), timeout: ms(o.timeout, 5000) };
})();

// How long a socket must stay open before a later loss retries from the shortest wait again.
const STEADY_MS = 5000;

export class TableSocket {
  constructor(tableId, { hello, onMessage, onLost, onBack }) {
    this.tableId = tableId;
    this.hello = hello; // () => the hello message to send on each (re)connection
    this.onMessage = onMessage;
    this.onLost = onLost;
    this.onBack = onBack;
    this.ws = null;
    this.closed = false;
    this.retry = 0; // attempts since the socket last stayed up (the back-off grows with it)
    this.down = false; // whether the page was told the connection is lost (and not yet back)
    this.retryTimer = null;
    this.steady = null;
    this.beat = null;
    this.deadline = null;
    this.goOffline = () => this.offline();
    this.goOnline = () => this.online();
    window.addEventListener("offline", this.goOffline);
    window.addEventListener("online", this.goOnline);
    this.connect();
  }

  close() {
    this.closed = true;
    window.removeEventListener("offline", this.goOffline);
    window.removeEventListener("online", this.goOnline);
    clearTimeout(this.retryTimer);
    clearTimeout(this.steady);
    this.stopHeartbeat();
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${this.tableId}`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify(this.hello()));
      if (this.down) {
        this.down = false;
        this.onBack();
      }
      // The back-off starts again only once the socket has stayed up a while: a server that
      // takes the socket and closes it at once (busy, restarting) is asked less and less often.
      clearTimeout(this.steady);
      this.steady = setTimeout(() => {
        if (this.ws === ws) this.retry = 0;
      }, STEADY_MS);
      this.startHeartbeat(ws);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.heard();
      this.onMessage(JSON.parse(e.data));
    };
    ws.onclose = () => this.lost(ws);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  // The connection `ws` is gone: say so once, and try again (the hello then carries the last
  // version seen, and the server sends what was missed).
  lost(ws) {
    if (this.ws !== ws) return;
    this.stopHeartbeat();
    this.ws = null;
    if (this.closed) return;
    if (!this.down) {
      this.down = true;
      this.onLost();
    }
    this.retry += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), Math.min(5000, 300 * this.retry));
  }

  // While `ws` is open: a ping every HEARTBEAT.interval ms; the first ping that nothing answers
  // (no message at all) within HEARTBEAT.timeout ms ends the socket.
  startHeartbeat(ws) {
    this.stopHeartbeat();
    this.beat = setInterval(() => {
      if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ type: "ping" }));
      if (this.deadline === null) this.deadline = setTimeout(() => this.dead(ws), HEARTBEAT.timeout);
    }, HEARTBEAT.interval);
  }

  heard() {
    clearTimeout(this.deadline);
    this.deadline = null;
  }

  stopHeartbeat() {
    clearInterval(this.beat);
    clearTimeout(this.deadline);
    this.beat = null;
    this.deadline = null;
  }

  // Silence since a ping: the socket is dead though nothing closed it. Lost now (its close,
  // whenever it comes, is then ignored), and closed.
  dead(ws) {
    this.deadline = null;
    if (this.ws !== ws) return;
    this.lost(ws);
    ws.close();
  }

  offline() {
    const ws = this.ws;
    if (!ws) return;
    this.lost(ws);
    ws.close();
  }

  // The network is back: try now rather than at the end of the back-off (an attempt started
  // while offline is dropped: it can only fail).
  online() {
    if (this.closed || !this.down) return;
    const ws = this.ws;
    this.ws = null;
    this.stopHeartbeat();
    if (ws) ws.close();
    clearTimeout(this.retryTimer);
    this.connect();
  }
}
