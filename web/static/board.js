// The game screen every page that shows a game shares (watch, replay,
// play, file): the game's view module, the players with their colours and
// clocks, the status line, the replay controls and the move list.

import { socket, info } from "./api.js";

window.arenaRenderTimes = window.arenaRenderTimes || [];

// Side colours as the games name them; Ants has up to ten players.
const SIDES = {
  gomoku: [
    ["Black", "#111"],
    ["White", "#f4f4f4"],
  ],
  points: [
    ["Red", "#d33"],
    ["Blue", "#26c"],
  ],
  khet: [
    ["Silver", "#bbb"],
    ["Red", "#c33"],
  ],
};
const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080"];

export function sideName(game, side) {
  const s = SIDES[game];
  if (s && s[side]) return s[side][0];
  return "Player " + (side + 1);
}

export function sideColour(game, side) {
  const s = SIDES[game];
  if (s && s[side]) return s[side][1];
  return PALETTE[side % PALETTE.length];
}

// sides lists the sides of a game with the player on each.
export function sides(header) {
  const players = header.players || [];
  const seats = header.seats && header.seats.length ? header.seats : players.map((_, i) => i);
  return seats.map((p, side) => ({
    side,
    player: p,
    name: (players[p] && players[p].name) || "player " + (p + 1),
    colour: sideColour(header.game, side),
    colourName: sideName(header.game, side),
  }));
}

// resultText says how a finished game ended, for #status and lists.
// aboutOf is what a player said about itself, for a tooltip.
function aboutOf(header, p) {
  const pl = header.players && header.players[p];
  return (pl && (pl.about || pl.command)) || undefined;
}

export function resultText(record) {
  if (!record) return "";
  const reason = record.reason ? String(record.reason) : "";
  const w = record.winner;
  const detail = record.detail ? " — " + record.detail : "";
  if (w === null || w === undefined) {
    return (reason && reason !== "draw" ? "Draw (" + reason + ")" : "Draw") + detail;
  }
  const ss = sides(record);
  const s = ss.find((x) => x.player === w);
  const name = (record.players && record.players[w] && record.players[w].name) || "player " + (w + 1);
  const who = s && SIDES[record.game] ? s.colourName + " (" + name + ")" : name;
  return who + " wins" + (reason ? " by " + reason : "") + detail;
}

// gameKind is what /api/info says of a game: { simultaneous, replay }
// (all false when the server does not list the game).
export async function gameKind(game) {
  let inf = null;
  try {
    inf = await info();
  } catch {
    inf = null;
  }
  const g = ((inf && inf.games) || []).find((x) => x.name === game) || {};
  return { simultaneous: !!g.simultaneous, replay: !!g.replay };
}

const views = new Map();
// loadView imports games/NAME.js once; adding a game's view is adding that file.
export function loadViewModule(game) {
  if (!/^[a-z0-9_-]+$/.test(game)) return Promise.reject(new Error("bad game name " + JSON.stringify(game)));
  if (!views.has(game)) {
    const p = import(`./games/${game}.js`).then((m) => {
      if (!m.default || typeof m.default.create !== "function") throw new Error("games/" + game + ".js has no create()");
      return m.default;
    });
    p.catch(() => views.delete(game));
    views.set(game, p);
  }
  return views.get(game);
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// fmtTime says when something happened: a while ago for the last day,
// else the date and the minute (short enough for a list's date column).
export function fmtTime(s) {
  if (!s) return "";
  const d = new Date(s);
  if (isNaN(d)) return "";
  const now = Date.now();
  const diff = (now - d.getTime()) / 1000;
  if (diff >= 0 && diff < 60) return "just now";
  if (diff >= 0 && diff < 3600) return Math.floor(diff / 60) + " min ago";
  if (diff >= 0 && diff < 86400) return Math.floor(diff / 3600) + " h ago";
  return d.toLocaleDateString() + " " + d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// playersLine shows "a vs b" with the winner's name in bold: only the
// name, each in its own element, the separators apart.
export function playersLine(players, winner) {
  const names = (players || []).map((p) => (typeof p === "string" ? p : p && p.name) || "?");
  const out = el("span", { class: "vs" });
  names.forEach((n, i) => {
    if (i > 0) out.append(el("span", { class: "sep" }, " vs "));
    out.append(el("span", { class: i === winner ? "winner" : "" }, n));
  });
  return out;
}

// renderRows updates a list in place, keyed by data-id: a row that stays
// is the same element (only its content changes), so a pointer on it, or
// a click on its way, still lands on it when the list updates.
export function renderRows(list, rows, empty, key = "id") {
  const old = new Map();
  for (const e of [...list.children]) {
    if (e.dataset[key]) old.set(e.dataset[key], e);
    else e.remove();
  }
  const want = rows.map((fresh) => {
    const e = old.get(fresh.dataset[key]);
    if (!e) return fresh;
    old.delete(fresh.dataset[key]);
    if (e.innerHTML !== fresh.innerHTML) e.replaceChildren(...fresh.childNodes);
    if (e.getAttribute("href") !== fresh.getAttribute("href")) e.setAttribute("href", fresh.getAttribute("href"));
    return e;
  });
  for (const e of old.values()) e.remove();
  want.forEach((e, i) => {
    if (list.children[i] !== e) list.insertBefore(e, list.children[i] || null);
  });
  if (!rows.length) list.append(el("p", { class: "empty" }, empty));
}

export function fmtClock(ms) {
  if (ms === null || ms === undefined || !isFinite(ms)) return "–";
  if (ms < 0) ms = 0;
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000);
  if (s < 60) return String(s);
  const m = Math.floor(s / 60);
  if (m < 60) return m + ":" + String(s % 60).padStart(2, "0");
  return Math.floor(m / 60) + ":" + String(m % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
}

// Control icons are drawn, not taken from a font that may lack the glyphs.
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};

function icon(name) {
  const NS = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("viewBox", "0 0 16 16");
  s.setAttribute("width", "14");
  s.setAttribute("height", "14");
  s.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(NS, "path");
  p.setAttribute("d", ICONS[name]);
  p.setAttribute("fill", "currentColor");
  s.append(p);
  return s;
}

const SPEEDS = [
  ["2000", "0.5 / s"],
  ["1000", "1 / s"],
  ["500", "2 / s"],
  ["250", "4 / s"],
  ["100", "10 / s"],
  ["40", "25 / s"],
];

// Screen is one game on the page. mode is "replay" (a finished game),
// "watch" or "play" (a live game: new moves follow unless the user went
// back in history).
export class Screen {
  constructor(root, { mode = "replay", onPly = null, onFollow = null } = {}) {
    this.root = root;
    this.mode = mode;
    this.onPly = onPly;
    this.onFollow = onFollow;
    this.view = null;
    this.header = null;
    this.ply = 0;
    this.following = mode !== "replay";
    this.over = false;
    this.playTimer = 0;
    this.clocks = null;
    this.clockAt = 0;
    this.clockTimer = 0;
    this.moves = [];
    this.cleanups = [];
    this.build();
  }

  build() {
    const b = (action, icon, title) => el("button", { type: "button", "data-action": action, title, "aria-label": title }, icon);
    this.boardHost = el("div", { class: "board-host" });
    this.playersEl = el("div", { class: "players" });
    this.statusEl = el("div", { id: "status", class: "status", role: "status" });
    this.playBtn = b("play", icon("play"), "play / pause (space)");
    this.liveBtn = b("live", "● live", "back to the live position");
    this.liveBtn.hidden = true;
    this.controls = el(
      "div",
      { id: "replay-controls", class: "controls" },
      b("first", icon("first"), "first (Home)"),
      b("prev", icon("prev"), "previous (←)"),
      this.playBtn,
      b("next", icon("next"), "next (→)"),
      b("last", icon("last"), "last (End)"),
      this.liveBtn,
    );
    this.controls.addEventListener("click", (e) => {
      const a = e.target.closest("button[data-action]");
      if (a) this.action(a.dataset.action);
    });
    this.seek = el("input", { id: "replay-seek", type: "range", min: "0", max: "0", value: "0", step: "1", "aria-label": "seek" });
    this.seek.addEventListener("input", () => this.goto(Number(this.seek.value), true));
    this.speed = el("select", { id: "replay-speed", "aria-label": "speed" }, SPEEDS.map(([v, l]) => el("option", { value: v }, l)));
    this.speed.value = "500";
    this.speed.addEventListener("change", () => {
      if (this.playTimer) {
        this.stop();
        this.play();
      }
    });
    this.plyLabel = el("span", { class: "ply-label" });
    this.extraControls = el("div", { class: "controls-row", title: "keys: ← → step, Home / End, space plays" }, el("label", {}, "speed ", this.speed), this.plyLabel);
    this.moveList = el("ol", { class: "move-list" });
    this.moveListEl = this.moveList;
    this.moveList.addEventListener("click", (e) => {
      const li = e.target.closest("[data-ply]");
      if (li) this.goto(Number(li.dataset.ply), true);
    });
    this.extra = el("div", { class: "extra" });
    this.moveInfo = el("div", { class: "move-info" });
    this.side = el(
      "aside",
      { class: "side-col" },
      this.playersEl,
      this.statusEl,
      this.extra,
      this.controls,
      this.seek,
      this.extraControls,
      this.moveList,
      this.moveInfo,
    );
    this.root.append(el("div", { class: "game-layout screen-" + this.mode }, el("div", { class: "board-col" }, this.boardHost), this.side));

    this.onKey = (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      if (t && t.closest && t.closest("input, select, textarea, [contenteditable]")) return;
      const map = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play", f: "flip" };
      const a = map[e.key];
      if (!a) return;
      if (a === "play" && t && t.closest && t.closest("button, a")) return;
      e.preventDefault();
      this.action(a);
    };
    document.addEventListener("keydown", this.onKey);
  }

  // init loads the game's view for header (a record without moves).
  async init(header) {
    this.header = header;
    const [mod, kind] = await Promise.all([loadViewModule(header.game), gameKind(header.game)]);
    if (this.destroyed) return;
    // A game whose players all move at once, every turn, counts turns
    // and has no list of single moves.
    this.simultaneous = kind.simultaneous;
    this.boardHost.replaceChildren();
    // A view may go to a position itself (the Ants graphs: a click on a turn).
    this.view = mod.create(this.boardHost, header, { seek: (n) => this.goto(n, true) });
    // The view may draw its own .board root; if it does not, the host is it.
    this.board = this.boardHost.querySelector(".board") || this.boardHost;
    if (this.board === this.boardHost) this.boardHost.classList.add("board");
    this.board.dataset.game = header.game;
    this.board.dataset.ply = "0";
    this.board.dataset.over = "0";
    if (this.simultaneous) this.speed.value = "100";
    this.buildPlayers();
    if (typeof this.view.perspective === "function") this.buildPerspective();
    if (typeof this.view.flip === "function") this.buildFlip();
    if (this.seatSide !== undefined) this.seat(this.seatSide);
    this.moveList.hidden = this.simultaneous;
    this.goto(0);
    this.refreshControls();
  }

  buildPlayers() {
    this.playersEl.replaceChildren();
    this.clockEls = [];
    for (const s of sides(this.header)) {
      const clock = el("span", { id: "clock-" + s.side, class: "clock" }, "–");
      this.clockEls[s.side] = clock;
      this.playersEl.append(
        el(
          "div",
          { class: "player", "data-side": s.side },
          el("span", { class: "swatch", style: "background:" + s.colour, title: s.colourName }),
          el("span", { class: "pname", title: aboutOf(this.header, s.player) }, s.name),
          el("span", { class: "pside" }, SIDES[this.header.game] ? s.colourName : ""),
          clock,
        ),
      );
    }
  }

  buildPerspective() {
    const sel = el(
      "select",
      { id: "perspective", "aria-label": "view" },
      el("option", { value: "-1" }, "Full view"),
      sides(this.header).map((s) => el("option", { value: String(s.side) }, s.name + "'s view")),
    );
    sel.addEventListener("change", () => {
      const p = Number(sel.value);
      if (this.view && typeof this.view.perspective === "function") {
        this.view.perspective(p);
        this.render(this.ply);
      }
    });
    this.extraControls.append(el("label", {}, "view ", sel));
  }

  // buildFlip offers turning the board round, for views that can.
  buildFlip() {
    const btn = el("button", { type: "button", id: "flip-board", "data-action": "flip", title: "flip the board (f)" }, "⇅ flip");
    btn.addEventListener("click", () => this.action("flip"));
    this.extraControls.append(btn);
  }

  // seat shows the board from the seat of the person playing side, for
  // views with an orientation (Khet: each player's home row at the bottom).
  seat(side) {
    this.seatSide = side;
    if (this.view && typeof this.view.orient === "function") this.view.orient(side);
  }

  length() {
    return this.view ? this.view.length() : 0;
  }

  push(move) {
    this.moves.push(move);
    if (this.view) this.view.push(move);
    if (this.header && !this.simultaneous) this.appendMoveItem(move, this.moves.length);
  }

  // moveText is how the list names move ply: the view's label for it
  // (Gomoku's "H8" as its board is labelled) and words where the view
  // has them (Khet's "Silver 5,3 rotates clockwise"), else the record's text.
  moveText(ply) {
    const m = this.moves[ply - 1];
    const t = this.view && typeof this.view.moveText === "function" ? this.view.moveText(ply) : null;
    return { label: (t && t.label) || (m ? String(m.move) : ""), words: (t && t.words) || "" };
  }

  appendMoveItem(m, ply) {
    const { label, words } = this.moveText(ply);
    const took = m.ms !== undefined ? Math.round(m.ms) + " ms" : "";
    const li = el(
      "li",
      { "data-ply": ply, class: "side-" + m.side, title: [label === m.move ? "" : m.move, took].filter(Boolean).join(" · ") || undefined },
      el("span", { class: "n" }, ply + "."),
      el("span", { class: "dot", style: "background:" + sideColour(this.header.game, m.side) }),
      el("span", { class: "mv" }, label),
      words ? el("span", { class: "words" }, words) : null,
    );
    // (moveList may be a fragment while a record loads: the class goes on the list.)
    if (words) this.moveListEl.classList.add("with-words");
    this.moveList.append(li);
  }

  // pushAll loads a whole list of moves (a record) without drawing each.
  pushAll(moves) {
    const frag = document.createDocumentFragment();
    const keep = this.moveList;
    this.moveList = frag;
    for (const m of moves) this.push(m);
    this.moveList = keep;
    this.moveList.append(frag);
  }

  // added is called after new live moves: follow them unless the user is
  // looking at an earlier position.
  added() {
    if (this.following) this.goto(this.length());
    else this.refreshControls();
  }

  render(n) {
    if (!this.view) return;
    const t0 = performance.now();
    this.view.show(n);
    window.arenaRenderTimes.push(performance.now() - t0);
    this.board.dataset.ply = String(n);
  }

  goto(n, byUser = false) {
    if (!this.view) return;
    const max = this.length();
    n = Math.max(0, Math.min(max, Math.round(n) || 0));
    this.ply = n;
    this.render(n);
    if (byUser && this.mode !== "replay") {
      const f = n === max;
      if (f !== this.following) {
        this.following = f;
        if (this.onFollow) this.onFollow(f);
      }
    }
    this.refreshControls();
    if (this.onPly) this.onPly(n);
  }

  // showMoveInfo tells what the shown move cost and what the bot printed
  // while thinking (its search depth, score...).
  showMoveInfo() {
    const m = this.header && !this.simultaneous && this.ply > 0 ? this.moves[this.ply - 1] : null;
    if (!m) {
      this.moveInfo.replaceChildren();
      return;
    }
    const { label, words } = this.moveText(this.ply);
    const head = this.ply + ". " + label + (words ? ": " + words : "") + (typeof m.ms === "number" ? " · " + (m.ms < 1000 ? Math.round(m.ms) + " ms" : (m.ms / 1000).toFixed(2) + " s") : "");
    const out = (m.output || []).slice(-6);
    this.moveInfo.replaceChildren(el("div", { class: "mi-head" }, head));
    if (out.length) this.moveInfo.append(el("pre", {}, out.join("\n")));
  }

  refreshControls() {
    this.showMoveInfo();
    const max = this.length();
    this.seek.max = String(max);
    this.seek.value = String(this.ply);
    this.plyLabel.textContent = (this.header && this.simultaneous ? "turn " : "move ") + this.ply + " / " + max;
    this.liveBtn.hidden = this.mode === "replay" || this.over || this.following;
    for (const li of this.moveList.querySelectorAll ? this.moveList.querySelectorAll("li.current") : []) li.classList.remove("current");
    if (this.ply > 0 && this.moveList.querySelector) {
      const cur = this.moveList.querySelector(`li[data-ply="${this.ply}"]`);
      if (cur) {
        cur.classList.add("current");
        const box = this.moveList;
        if (cur.offsetTop < box.scrollTop || cur.offsetTop + cur.offsetHeight > box.scrollTop + box.clientHeight) {
          box.scrollTop = cur.offsetTop - box.clientHeight / 2;
        }
      }
    }
  }

  action(a) {
    switch (a) {
      case "first":
        this.stop();
        return this.goto(0, true);
      case "prev":
        this.stop();
        return this.goto(this.ply - 1, true);
      case "next":
        this.stop();
        return this.goto(this.ply + 1, true);
      case "last":
        this.stop();
        return this.goto(this.length(), true);
      case "live":
        this.stop();
        return this.goto(this.length(), true);
      case "play":
        return this.playTimer ? this.stop() : this.play();
      case "flip":
        if (this.view && typeof this.view.flip === "function") this.view.flip();
        return;
    }
  }

  play() {
    if (!this.view) return;
    if (this.ply >= this.length()) this.goto(0, true);
    this.playBtn.replaceChildren(icon("pause"));
    this.playBtn.classList.add("on");
    const step = Number(this.speed.value) || 500;
    this.playTimer = setInterval(() => {
      if (this.ply >= this.length()) {
        this.stop();
        return;
      }
      this.goto(this.ply + 1, true);
    }, step);
  }

  stop() {
    if (this.playTimer) clearInterval(this.playTimer);
    this.playTimer = 0;
    this.playBtn.replaceChildren(icon("play"));
    this.playBtn.classList.remove("on");
  }

  // finish marks the game over and draws its end.
  finish(record) {
    this.over = true;
    this.record = record;
    if (this.view && typeof this.view.result === "function" && record) this.view.result(record);
    if (this.board) this.board.dataset.over = "1";
    this.freezeClocks();
    if (record) {
      this.setStatus(resultText(record), "over");
      this.showUsage(record);
    }
    if (this.following) this.goto(this.length());
    else this.refreshControls();
  }

  // showUsage puts each player's thinking time where a finished game
  // without live clocks has none, and marks a player who failed.
  showUsage(record) {
    if (!this.clockEls || !this.header) return;
    for (const s of sides(this.header)) {
      const p = record.players && record.players[s.player];
      const e = this.clockEls[s.side];
      if (!p || !e) continue;
      if (!this.clocks && typeof p.time_ms === "number") {
        e.textContent = fmtClock(p.time_ms) + (p.time_ms < 60000 ? "s" : "");
        e.title = "thinking time over the game";
        e.classList.add("used");
      }
      const row = e.closest(".player");
      if (p.fault && row && !row.querySelector(".fault")) {
        row.querySelector(".pname").append(el("span", { class: "fault", title: p.fault + (p.exit ? " (" + p.exit + ")" : "") }, p.fault));
      }
    }
  }

  setStatus(text, cls = "") {
    this.statusEl.textContent = text;
    this.statusEl.className = "status " + cls;
  }

  // setClocks takes the server's clocks: remaining match time per side,
  // the mover's deadline, counted down here between updates.
  setClocks(c) {
    if (!c || this.over) return;
    this.clocks = c;
    this.clockAt = performance.now();
    this.tick();
    if (!this.clockTimer) this.clockTimer = setInterval(() => this.tick(), 100);
  }

  toMove() {
    if (this.clocks && Array.isArray(this.clocks.to_move)) return this.clocks.to_move;
    if (this.over || !this.header) return [];
    const last = this.moves[this.moves.length - 1];
    if (!last || last.side < 0) return last ? [] : [0];
    return [(last.side + 1) % sides(this.header).length];
  }

  tick() {
    const c = this.clocks;
    if (!c || !this.clockEls) return;
    const elapsed = this.frozen !== undefined ? this.frozen : performance.now() - this.clockAt;
    const moving = new Set(c.to_move || []);
    this.clockEls.forEach((e, side) => {
      if (!e) return;
      const left = c.left_ms ? c.left_ms[side] : null;
      const on = moving.has(side) && !this.over;
      let text = "–";
      let move = "";
      let ms = null;
      let budget = null;
      const deadline = on && c.deadline_ms !== null && c.deadline_ms !== undefined ? c.deadline_ms - elapsed : null;
      if (left !== null && left !== undefined) {
        ms = on ? left - elapsed : left;
        budget = left;
        text = fmtClock(ms);
        // A per-move limit shorter than the game clock is the one that bites.
        if (deadline !== null && deadline < ms) {
          move = fmtClock(deadline);
          ms = deadline;
          budget = c.deadline_ms;
        }
      } else if (deadline !== null) {
        ms = deadline;
        budget = c.deadline_ms;
        text = fmtClock(ms);
      }
      // A side with only a time a move (a bot against a person, most
      // often) shows that time while the other moves.
      const perMove = c.turn_ms ? c.turn_ms[side] : null;
      const idle = text === "–" && !on && perMove !== null && perMove !== undefined;
      if (idle) text = fmtClock(perMove) + (perMove < 60000 ? "s" : "");
      e.classList.toggle("per-move", idle);
      e.title = idle ? fmtClock(perMove) + (perMove < 60000 ? " s" : "") + " a move" : "";
      if (move) e.replaceChildren(text, el("small", { class: "move-clock", title: "time left for this move" }, move));
      else e.textContent = text;
      e.classList.toggle("running", on);
      // Short per-move limits would be red all the time: warn only in the
      // last quarter of the time that was left, and under ten seconds.
      e.classList.toggle("low", on && ms !== null && ms < 10000 && ms < budget / 4);
      const row = e.closest(".player");
      if (row) row.classList.toggle("to-move", on);
    });
  }

  freezeClocks() {
    if (this.clocks && this.frozen === undefined) this.frozen = performance.now() - this.clockAt;
    if (this.clocks) {
      this.clocks = { ...this.clocks, to_move: [] };
      this.tick();
    }
    clearInterval(this.clockTimer);
    this.clockTimer = 0;
    if (this.clockEls) for (const e of this.clockEls) if (e) e.closest(".player").classList.remove("to-move");
  }

  destroy() {
    this.destroyed = true;
    this.stop();
    clearInterval(this.clockTimer);
    document.removeEventListener("keydown", this.onKey);
    for (const c of this.cleanups) c();
    if (this.view) {
      try {
        this.view.destroy();
      } catch {
        // A view failing to clean up must not keep the page from moving on.
      }
    }
    this.view = null;
  }
}

// LiveGame follows one game over the websocket into a Screen: the snapshot
// on watch, each move (a gap asks for a new snapshot), the end.
export class LiveGame {
  constructor(screen, id, { onUpdate = null, onEnd = null, onRefused = null, onSeats = null, onError = null, token = "" } = {}) {
    this.screen = screen;
    this.id = id;
    this.onSeats = onSeats;
    this.onError = onError;
    this.onUpdate = onUpdate;
    this.onEnd = onEnd;
    this.onRefused = onRefused;
    this.count = 0;
    this.ready = false;
    this.pending = [];
    this.off = socket.on((m) => this.handle(m));
    this.unwatch = socket.watch(id, token);
  }

  handle(m) {
    if (m.id !== this.id) return;
    switch (m.type) {
      case "game":
        this.snapshot(m);
        break;
      case "move":
        if (!this.ready) {
          this.pending.push(m);
          break;
        }
        this.move(m);
        break;
      case "end":
        if (!this.ready) {
          this.pending.push(m);
          break;
        }
        this.end(m.record, m.error);
        break;
      case "clocks":
        if (!this.ready) break;
        this.screen.setClocks(m.clocks);
        if (this.onUpdate) this.onUpdate();
        break;
      case "refused":
        if (this.onRefused) this.onRefused(m.error);
        break;
      case "error":
        if (this.onError) this.onError(m.error);
        break;
    }
  }

  async snapshot(m) {
    const s = this.screen;
    if (Array.isArray(m.seats) && this.onSeats) this.onSeats(m.seats);
    if (!m.header && !s.view) {
      // The game is registered but not started (a bot is starting up);
      // the server sends another snapshot when it starts.
      this.ready = true;
      if (m.done) this.end(m.record, m.error);
      else s.setStatus("waiting for the game to start…");
      return;
    }
    if (!s.view) {
      this.ready = false;
      try {
        await s.init(m.header);
      } catch (e) {
        s.setStatus("cannot show this game: " + e.message, "error");
        return;
      }
      if (s.destroyed) return;
    }
    const moves = m.moves || [];
    if (moves.length > this.count) {
      s.pushAll(moves.slice(this.count));
      this.count = moves.length;
    }
    this.ready = true;
    s.setClocks(m.clocks);
    if (m.done) this.end(m.record, m.error);
    else s.added();
    const p = this.pending;
    this.pending = [];
    for (const x of p) this.handle(x);
    if (this.onUpdate) this.onUpdate();
  }

  move(m) {
    if (!this.screen.view) return;
    const ply = typeof m.ply === "number" ? m.ply : this.count + 1;
    if (ply <= this.count) return;
    if (ply > this.count + 1) {
      // A move was missed (a reconnect): take a fresh snapshot.
      socket.rewatch(this.id);
      return;
    }
    this.screen.push(m.move);
    this.count = ply;
    this.screen.setClocks(m.clocks);
    this.screen.added();
    if (this.onUpdate) this.onUpdate();
  }

  end(record, error) {
    if (this.screen.over) return;
    this.screen.finish(record);
    if (!record) this.screen.setStatus(error ? "The game could not be played: " + error : "The game is over", "error");
    if (this.onEnd) this.onEnd(record);
  }

  destroy() {
    this.off();
    this.unwatch();
  }
}
