// The page's link to the server: JSON over HTTP, one shared websocket, and
// the token that authorises starting matches and tournaments.

const TOKEN_KEY = "arena.token";

// takeTokenFromURL stores a token given as "#token=T" (the address
// "arena serve" prints) and removes it from the address bar, so it is not
// left in the history or shared by copying the address.
export function takeTokenFromURL() {
  const h = location.hash;
  const m = /(?:^#|[?&#])token=([^&]*)/.exec(h);
  if (!m) return;
  setToken(decodeURIComponent(m[1]));
  let rest = h.slice(0, m.index) + h.slice(m.index + m[0].length);
  if (rest === "" || rest === "#") rest = "#/";
  rest = rest.replace(/[?&]$/, "");
  history.replaceState(null, "", location.pathname + location.search + rest);
}

export function token() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function setToken(t) {
  try {
    if (t) localStorage.setItem(TOKEN_KEY, t);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage can be off (private windows); the token then lives for this page only.
  }
  window.dispatchEvent(new CustomEvent("arena-token"));
}

// ApiError carries the server's one-line error and the HTTP status.
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, url, body, auth) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const t = token();
  if (auth && t) headers.Authorization = "Bearer " + t;
  let res;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "cannot reach the server (" + e.message + ")");
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      if (res.ok) throw new ApiError(res.status, "the server sent something that is not JSON");
    }
  }
  if (!res.ok) {
    const msg = (data && data.error) || res.status + " " + res.statusText;
    throw new ApiError(res.status, msg);
  }
  return data;
}

export const getJSON = (url) => request("GET", url);
export const postJSON = (url, body, auth = true) => request("POST", url, body, auth);

let infoPromise = null;
// info caches /api/info for the page's lifetime (games and bots change only
// when the server restarts); a failure is not cached.
export function info() {
  if (!infoPromise) {
    infoPromise = getJSON("/api/info").catch((e) => {
      infoPromise = null;
      throw e;
    });
  }
  return infoPromise;
}

// Socket is the page's one websocket. Pages subscribe with lobby()/watch()
// and receive every message through on(); after a lost connection it
// reconnects and renews the subscriptions, so a page never has to.
class Socket {
  constructor() {
    this.ws = null;
    this.handlers = new Set();
    this.lobbyCount = 0;
    this.watching = new Map(); // id -> {n, token}
    this.queue = [];
    this.backoff = 500;
    this.timer = 0;
    this.stateHandlers = new Set();
    this.connected = false;
  }

  connect() {
    if (this.ws) return;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.connected = true;
      this.stateChanged();
      if (this.lobbyCount > 0) this.raw({ type: "lobby" });
      for (const [id, w] of this.watching) this.raw(watchMsg(id, w.token));
      const q = this.queue;
      this.queue = [];
      for (const m of q) this.raw(m);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      for (const h of [...this.handlers]) {
        try {
          h(msg);
        } catch (e) {
          // One page's broken handler must not stop the others; show it.
          showMessage("page error: " + e.message, true);
        }
      }
    };
    ws.onclose = () => {
      this.ws = null;
      if (this.connected) {
        this.connected = false;
        this.stateChanged();
      }
      this.retry();
    };
    ws.onerror = () => {};
  }

  retry() {
    if (this.timer) return;
    if (this.lobbyCount === 0 && this.watching.size === 0 && this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.connect();
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, 8000);
  }

  stateChanged() {
    for (const h of this.stateHandlers) h(this.connected);
  }

  raw(m) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  // send delivers m now, or when the connection is (re)opened.
  send(m) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.raw(m);
    else {
      this.queue.push(m);
      this.connect();
    }
  }

  on(h) {
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }

  onState(h) {
    this.stateHandlers.add(h);
    return () => this.stateHandlers.delete(h);
  }

  lobby() {
    this.lobbyCount++;
    if (this.lobbyCount === 1) this.raw({ type: "lobby" });
    this.connect();
    return () => {
      this.lobbyCount--;
    };
  }

  // watch follows a game; a seat token makes the server say which side
  // this browser plays.
  watch(id, token = "") {
    const w = this.watching.get(id) || { n: 0, token };
    w.n++;
    if (token) w.token = token;
    this.watching.set(id, w);
    if (w.n === 1) this.raw(watchMsg(id, w.token));
    this.connect();
    return () => {
      const c = this.watching.get(id);
      if (!c) return;
      if (c.n <= 1) {
        this.watching.delete(id);
        this.raw({ type: "unwatch", id });
      } else c.n--;
    };
  }

  // rewatch asks for a fresh snapshot of a game (after a gap in its moves).
  rewatch(id) {
    const w = this.watching.get(id);
    this.raw({ type: "unwatch", id });
    this.raw(watchMsg(id, w && w.token));
  }
}

function watchMsg(id, token) {
  return token ? { type: "watch", id, token } : { type: "watch", id };
}

export const socket = new Socket();

let messageTimer = 0;
// showMessage puts one line in #message (refusals, errors); a non-sticky
// line fades after a while.
export function showMessage(text, isError = false, sticky = false) {
  const el = document.getElementById("message");
  if (!el) return;
  clearTimeout(messageTimer);
  el.textContent = text || "";
  el.className = text ? (isError ? "show error" : "show") : "";
  if (text && !sticky) {
    messageTimer = setTimeout(() => {
      el.textContent = "";
      el.className = "";
    }, isError ? 8000 : 4000);
  }
}
