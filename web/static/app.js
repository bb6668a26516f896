// The page shell: header, hash router and the pages (live and recent
// games, watch, replay, open a file, play, tournaments). Game boards are
// the views in games/NAME.js; board.js holds the screen they share.

import { takeTokenFromURL, token, setToken, getJSON, postJSON, info, socket, showMessage, ApiError } from "./api.js";
import { Screen, LiveGame, el, sides, sideName, resultText, renderRows, playersLine, fmtTime, gameKind } from "./board.js";
import { tournamentsPage, tournamentPage } from "./tournament.js";
import { contestsPage, contestPage } from "./contest.js";
import { filePage, showRecord } from "./openfile.js";
import { recordLinks } from "./downloads.js";
import { workersCard, workersPage } from "./workers.js";

const app = document.getElementById("app");
let cleanup = [];
let routeSeq = 0;

// Route is the current hash split into its path parts and query.
function parseRoute() {
  let h = location.hash.replace(/^#/, "");
  if (!h.startsWith("/")) h = "/" + h;
  const qi = h.indexOf("?");
  const path = qi >= 0 ? h.slice(0, qi) : h;
  const query = new URLSearchParams(qi >= 0 ? h.slice(qi + 1) : "");
  const parts = path.split("/").filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  return { parts, query };
}

// page is what a page function gets: where to draw, how to clean up, and
// whether it is still the current page (after an await).
function newPage() {
  const seq = ++routeSeq;
  return {
    root: app,
    onLeave: (f) => cleanup.push(f),
    current: () => seq === routeSeq,
  };
}

// kinds holds what /api/info says of each game (simultaneous moves, a
// replay file): route waits for it once, so lists count turns or moves
// by the game's kind without naming a game.
const kinds = new Map();
let kindsLoaded = null;
function loadKinds() {
  if (!kindsLoaded) {
    kindsLoaded = info()
      .then((inf) => {
        for (const g of inf.games || []) kinds.set(g.name, g);
        // The workers' page is in the menu when there are workers.
        const nav = document.querySelector('header nav a[data-nav="workers"]');
        if (nav) nav.hidden = !inf.workers;
      })
      .catch(() => {
        kindsLoaded = null;
      });
  }
  return kindsLoaded;
}
const countsTurns = (game) => !!(kinds.get(game) || {}).simultaneous;

async function route() {
  takeTokenFromURL();
  await loadKinds();
  for (const f of cleanup.splice(0)) {
    try {
      f();
    } catch {
      // A page's cleanup failing must not break the next page.
    }
  }
  showMessage("");
  app.replaceChildren();
  document.title = "arena";
  const { parts, query } = parseRoute();
  const page = newPage();
  const name = parts[0] || "";
  for (const a of document.querySelectorAll("header nav a")) {
    a.classList.toggle("active", a.dataset.nav === (name === "watch" ? "" : name === "replay" ? "replays" : name === "tournament" ? "tournaments" : name === "contest" ? "contests" : name));
  }
  try {
    switch (name) {
      case "":
        return await homePage(page);
      case "watch":
        return await watchPage(page, parts[1]);
      case "replay":
        return await replayPage(page, parts[1], query);
      case "replays":
        return await replaysPage(page, query);
      case "file":
        return filePage(page, gameTitle);
      case "play":
        return parts[1] ? await playGamePage(page, parts[1], query) : await playFormPage(page);
      case "tournaments":
        return await tournamentsPage(page);
      case "tournament":
        return await tournamentPage(page, parts.slice(1).join("/"));
      case "contests":
        return await contestsPage(page);
      case "contest":
        return await contestPage(page, parts.slice(1).join("/"));
      case "workers":
        return workersPage(page, await info());
      default:
        app.append(el("section", { class: "card" }, el("h2", {}, "Not found"), el("p", {}, "No page here. ", el("a", { href: "#/" }, "Go to the live games."))));
    }
  } catch (e) {
    if (!page.current()) return;
    showMessage(e.message, true, true);
    app.append(el("section", { class: "card error-card" }, el("h2", {}, "Something went wrong"), el("p", {}, e.message)));
  }
}

function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function card(title, ...children) {
  return el("section", { class: "card" }, title ? el("h2", {}, title) : null, ...children);
}

function shortResult(g) {
  if (!g.done && g.done !== undefined) return el("span", { class: "badge live" }, "live");
  const names = (g.players || []).map((p) => (typeof p === "string" ? p : p && p.name));
  if (g.winner === null || g.winner === undefined) return el("span", { class: "result" }, "draw" + (g.reason && g.reason !== "draw" ? " · " + g.reason : ""));
  return el("span", { class: "result" }, (names[g.winner] || "?") + " won" + (g.reason ? " · " + g.reason : ""));
}

// gameRow is one game in a list; when is a date or the elements to show
// in its place.
function gameRow(g, href, when) {
  return el(
    "a",
    { class: "row", href, "data-id": g.id },
    el("span", { class: "badge game" }, g.game || "?"),
    playersLine(g.players, g.winner),
    el("span", { class: "moves" }, plural(g.moves ?? 0, countsTurns(g.game) ? "turn" : "move")),
    shortResult(g),
    el("span", { class: "when" }, typeof when === "string" ? el("span", { class: "date" }, when) : when),
  );
}

// renderLive lists the games being played, the newest first; a game that
// ends leaves the list (it is under "Recent games" once stored).
function renderLive(list, games) {
  const rows = (games || []).filter((g) => !g.done).sort((a, b) => String(b.start || "").localeCompare(String(a.start || "")));
  renderRows(list, rows.map((g) => gameRow(g, "#/watch/" + encodeURIComponent(g.id), fmtTime(g.start))), "No games are being played right now.");
}

function renderRecords(list, recs) {
  // A tournament game names its tournament on a line of its own, so that
  // a long name never pushes the date out of sight.
  const when = (r) => (r.tournament ? [el("span", { class: "tour", title: r.tournament }, r.tournament), el("span", { class: "date" }, fmtTime(r.end))] : fmtTime(r.end));
  renderRows(list, (recs || []).map((r) => gameRow(r, "#/replay/" + encodeURIComponent(r.id), when(r))), "No stored games yet.");
}

async function homePage(page) {
  const live = el("div", { id: "live-list", class: "list" }, el("p", { class: "empty" }, "connecting…"));
  const records = el("div", { id: "records-list", class: "list" }, el("p", { class: "empty" }, "loading…"));
  const formBox = el("div");
  const running = el("div");
  const workersBox = el("div");
  app.append(
    el(
      "div",
      { class: "home-grid" },
      el("div", {}, card("Live games", live), workersBox, card("Recent games", records, el("p", { class: "more" }, el("a", { href: "#/replays" }, "All stored games →")))),
      el("div", {}, running, card("Start a match", formBox), card("Play", el("p", {}, "Play a game yourself against a bot, a friend on this screen or in another browser."), el("a", { class: "button", href: "#/play" }, "New game"))),
    ),
  );
  // Games seen running: when one of them ends, the recent games are
  // fetched again, so that it moves from one list to the other.
  let playing = new Set();
  const loadRecords = () =>
    getJSON("/api/records?limit=20")
      .then((r) => page.current() && renderRecords(records, r))
      .catch((e) => page.current() && records.replaceChildren(el("p", { class: "empty error" }, e.message)));
  const showLive = (games) => {
    renderLive(live, games);
    const now = new Set((games || []).filter((g) => !g.done).map((g) => g.id));
    const ended = [...playing].some((id) => !now.has(id));
    playing = now;
    if (ended) loadRecords();
  };
  page.onLeave(socket.on((m) => m.type === "lobby" && showLive(m.games)));
  page.onLeave(socket.lobby());
  getJSON("/api/live")
    .then((g) => page.current() && live.querySelector(".empty") && showLive(g))
    .catch((e) => page.current() && live.replaceChildren(el("p", { class: "empty error" }, e.message)));
  getJSON("/api/tournaments")
    .then((ts) => {
      const on = (ts || []).filter((t) => t.status === "running");
      if (!page.current() || !on.length) return;
      running.append(
        card(
          "Tournaments running",
          el(
            "div",
            { class: "list" },
            on.map((t) => el("a", { class: "row short", href: "#/tournament/" + encodeURIComponent(t.name) }, el("span", { class: "tname" }, t.name), el("span", { class: "moves" }, t.game + " · " + plural(t.games ?? 0, "game")))),
          ),
        ),
      );
    })
    .catch(() => {});
  loadRecords();
  try {
    const inf = await info();
    if (!page.current()) return;
    if (inf.workers) workersBox.append(workersCard(page, 8));
    formBox.append(matchForm(inf));
  } catch (e) {
    formBox.append(el("p", { class: "error" }, e.message));
  }
}

function durationField(name, label, value, placeholder) {
  return el("label", {}, label, el("input", { name, value: value || "", placeholder: placeholder || "e.g. 1s", pattern: "^$|^[0-9.]+(ns|us|µs|ms|s|m|h)([0-9.]+(ns|us|µs|ms|s|m|h))*$", size: "6" }));
}

// parseDuration reads a Go duration ("1m30s", "300ms") in milliseconds;
// NaN when it is not one.
function parseDuration(s) {
  if (!s) return NaN;
  const unit = { h: 3600000, m: 60000, s: 1000, ms: 1, us: 0.001, "µs": 0.001, ns: 0.000001 };
  let total = 0;
  let rest = String(s).trim();
  if (rest === "0") return 0;
  while (rest) {
    const m = /^([0-9]*\.?[0-9]+)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!m) return NaN;
    total += Number(m[1]) * unit[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

function needToken() {
  if (token()) return false;
  showMessage("This needs the server's token: paste it in the token field at the top (arena serve prints it).", true);
  const t = document.getElementById("token");
  if (t) t.focus();
  return true;
}

// matchForm starts bot-against-bot matches among the registered bots.
function matchForm(inf) {
  const games = inf.games || [];
  const gameSel = el("select", { name: "game" }, games.map((g) => el("option", { value: g.name }, g.title || g.name)));
  const botsBox = el("div", { class: "bots" });
  const turn = durationField("turn_time", "turn time ", "");
  const match = durationField("match_time", "match time ", "", "0s: none");
  const count = el("input", { name: "games", type: "number", min: "1", max: "1000", value: "1", size: "4" });
  const submit = el("button", { type: "submit" }, "Start match");
  const form = el(
    "form",
    { id: "match-form", class: "form" },
    el("label", {}, "game ", gameSel),
    botsBox,
    el("div", { class: "row-fields" }, el("label", {}, "games ", count), turn, match),
    submit,
  );
  const game = () => games.find((g) => g.name === gameSel.value);
  const botSelect = (g, i) =>
    el(
      "select",
      { name: "bot", "aria-label": "bot " + (i + 1) },
      (g.bots || []).map((b, j) => el("option", { value: b, selected: j === i % Math.max(1, g.bots.length) }, b)),
    );
  const fill = () => {
    const g = game();
    botsBox.replaceChildren();
    if (!g) return;
    if (!g.bots || !g.bots.length) {
      botsBox.append(el("p", { class: "empty" }, "No bots registered for this game (arena serve --bot " + g.name + ":NAME=CMD)."));
      return;
    }
    const [lo, hi] = g.players || [2, 2];
    const n = Math.max(2, lo || 2);
    for (let i = 0; i < n; i++) botsBox.append(el("label", {}, "player " + (i + 1) + " ", botSelect(g, i)));
    if ((hi || 2) > n) {
      const add = el("button", { type: "button", class: "small" }, "+ player");
      add.addEventListener("click", () => {
        const k = botsBox.querySelectorAll("select").length;
        if (k >= hi) return;
        add.before(el("label", {}, "player " + (k + 1) + " ", botSelect(g, k)));
        if (k + 1 >= hi) add.remove();
      });
      botsBox.append(add);
    }
    turn.querySelector("input").value = g.turn_time || "";
    match.querySelector("input").value = g.match_time || "";
  };
  gameSel.addEventListener("change", fill);
  fill();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (needToken()) return;
    const body = {
      game: gameSel.value,
      bots: [...botsBox.querySelectorAll("select")].map((s) => s.value),
      games: Number(count.value) || 1,
    };
    const t = turn.querySelector("input").value.trim();
    const m = match.querySelector("input").value.trim();
    if (t) body.turn_time = t;
    if (m) body.match_time = m;
    submit.disabled = true;
    try {
      const res = await postJSON("/api/matches", body);
      const id = res && res.ids && res.ids[0];
      if (id) location.hash = "#/watch/" + encodeURIComponent(id);
      else showMessage("match started");
    } catch (err) {
      showMessage(err.message, true);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function gameTitle(header) {
  const ss = sides(header);
  document.title = ss.map((s) => s.name).join(" vs ") + " · " + header.game + " · arena";
  return el(
    "div",
    { class: "game-title" },
    el("span", { class: "badge game" }, header.game),
    el("h2", {}, ss.map((s) => s.name).join(" vs ")),
    header.id ? el("span", { class: "gid" }, header.id) : null,
  );
}

// statusOf describes a live position: who is to move.
function liveStatus(screen) {
  const h = screen.header;
  if (!h) return "";
  if (countsTurns(h.game)) return "turn " + screen.length();
  const ss = sides(h);
  const tm = screen.toMove();
  if (!tm.length) return "";
  return tm.map((s) => (ss[s] ? ss[s].colourName + " (" + ss[s].name + ")" : "side " + s)).join(", ") + " to move";
}

async function watchPage(page, id) {
  if (!id) throw new Error("no game id");
  const head = el("div", { class: "page-head" }, el("h2", {}, "Game " + id));
  const box = el("div");
  app.append(head, box);
  // A just-started game can take a moment to appear in the live list.
  let found = null;
  for (let i = 0; i < 8 && page.current(); i++) {
    const live = await getJSON("/api/live");
    found = (live || []).find((g) => g.id === id);
    if (found) break;
    await new Promise((r) => setTimeout(r, 400));
  }
  if (!page.current()) return;
  const screen = new Screen(box, { mode: "watch" });
  page.onLeave(() => screen.destroy());
  const replayLink = () => el("a", { class: "button", href: "#/replay/" + encodeURIComponent(id) }, "Replay this game");
  if (!found) {
    const rec = await getJSON("/api/records/" + encodeURIComponent(id));
    if (!page.current()) return;
    await showRecord(screen, rec, null);
    head.replaceChildren(gameTitle(rec));
    screen.extra.append(replayLink());
    return;
  }
  screen.setStatus("waiting for the game…");
  const live = new LiveGame(screen, id, {
    onError: (err) => showMessage(err, true),
    onUpdate: () => {
      if (!screen.over) screen.setStatus(liveStatus(screen));
      if (screen.header && !head.dataset.done) {
        head.dataset.done = "1";
        // A game that is over (already, or by a message that came while
        // its view loaded) gets no badge: onEnd has run before this.
        head.replaceChildren(gameTitle(screen.header), screen.over ? null : el("span", { class: "badge live" }, "live"));
      }
    },
    onEnd: () => {
      const b = head.querySelector(".badge.live");
      if (b) b.remove();
      screen.extra.replaceChildren(replayLink());
    },
  });
  page.onLeave(() => live.destroy());
}

// stillPlayed shows, in place of a replay, that game id is still being
// played here, with a link to its live view, and reports whether it did
// (or the user has left the page); false: the game is stored, or unknown,
// and the record says which.
async function stillPlayed(page, id) {
  // The live list, not /api/live/ID: asking for one game that is not in
  // it would be an error in the browser's log for every stored game.
  const live = await getJSON("/api/live");
  const g = (live || []).find((x) => x.id === id);
  if (!page.current()) return true; // the user went on: nothing more to show
  if (!g || g.done) return false;
  // This browser's own game goes back to its board, any other to the watch page.
  const mine = loadSeats(id).seats.length > 0;
  app.append(
    card(
      "This game is still being played",
      el("p", {}, playersLine(g.players, null), " · " + plural(g.moves ?? 0, countsTurns(g.game) ? "turn" : "move") + " so far. Its replay is here once it ends; till then, watch it live."),
      el("a", { class: "button", id: "watch-live", href: (mine ? "#/play/" : "#/watch/") + encodeURIComponent(id) }, mine ? "Back to the game" : "Watch it live"),
    ),
  );
  return true;
}

async function replayPage(page, id, query) {
  if (!id) throw new Error("no game id");
  if (await stillPlayed(page, id)) return;
  const rec = await getJSON("/api/records/" + encodeURIComponent(id));
  let replay = null;
  if ((await gameKind(rec.game)).replay) {
    try {
      replay = await getJSON("/api/records/" + encodeURIComponent(id) + "/replay");
    } catch (e) {
      showMessage("no replay file for this " + ((kinds.get(rec.game) || {}).title || rec.game) + " game: " + e.message, true);
    }
  }
  if (!page.current()) return;
  const head = el("div", { class: "page-head" }, gameTitle(rec), rec.start ? el("span", { class: "when" }, fmtTime(rec.start)) : null);
  const box = el("div");
  app.append(head, box);
  const want = query.get("ply");
  let ready = false;
  const screen = new Screen(box, {
    mode: "replay",
    onPly: (n) => {
      if (!ready) return;
      const h = "#/replay/" + encodeURIComponent(id) + "?ply=" + n;
      if (location.hash !== h) history.replaceState(null, "", h);
    },
  });
  page.onLeave(() => screen.destroy());
  await showRecord(screen, rec, replay);
  ready = true;
  screen.goto(want !== null && want !== "" ? Number(want) : screen.length());
  screen.extra.append(recordLinks(id));
}

async function replaysPage(page, query) {
  const limit = 50;
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const game = query.get("game") || "";
  const list = el("div", { id: "records-list", class: "list" }, el("p", { class: "empty" }, "loading…"));
  const gameSel = el("select", { name: "game", "aria-label": "game" }, el("option", { value: "" }, "all games"));
  const nav = el("div", { class: "pager" });
  app.append(card("Stored games", el("div", { class: "filters" }, el("label", {}, "game ", gameSel)), list, nav));
  gameSel.addEventListener("change", () => (location.hash = "#/replays" + (gameSel.value ? "?game=" + encodeURIComponent(gameSel.value) : "")));
  info()
    .then((inf) => {
      for (const g of inf.games || []) gameSel.append(el("option", { value: g.name, selected: g.name === game }, g.title || g.name));
    })
    .catch(() => {});
  const q = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (game) q.set("game", game);
  const recs = await getJSON("/api/records?" + q);
  if (!page.current()) return;
  renderRecords(list, recs);
  const link = (o) => "#/replays?" + new URLSearchParams({ ...(game ? { game } : {}), offset: String(o) });
  if (offset > 0) nav.append(el("a", { class: "button", href: link(Math.max(0, offset - limit)) }, "← newer"));
  if ((recs || []).length === limit) nav.append(el("a", { class: "button", href: link(offset + limit) }, "older →"));
}

// Seats a browser holds for a game, kept in sessionStorage so a reload
// keeps playing: {seats: [{side, token}], invite}.
function loadSeats(id) {
  try {
    return JSON.parse(sessionStorage.getItem("arena.play." + id) || "null") || { seats: [] };
  } catch {
    return { seats: [] };
  }
}

function saveSeats(id, v) {
  try {
    sessionStorage.setItem("arena.play." + id, JSON.stringify(v));
  } catch {
    // Without storage a reload loses the seat; the game still goes on.
  }
}

async function playFormPage(page) {
  const inf = await info();
  if (!page.current()) return;
  const games = (inf.games || []).filter((g) => g.human);
  if (!games.length) {
    app.append(card("Play", el("p", { class: "empty" }, "This server offers no game a person can play.")));
    return;
  }
  const gameSel = el("select", { name: "game" }, games.map((g) => el("option", { value: g.name }, g.title || g.name)));
  const oppSel = el("select", { name: "opponent" });
  const sideSel = el("select", { name: "side" });
  const turn = durationField("turn_time", "time per move ", "");
  const match = durationField("match_time", "time per game ", "", "0s: none");
  // How long a bot opposite thinks, where its protocol tells it its clock.
  const botTime = durationField("bot_time", "bot's time per move ", "");
  const submit = el("button", { type: "submit" }, "Play");
  let savedName = "";
  try {
    savedName = localStorage.getItem("arena.name") || "";
  } catch {
    // No storage: the server names the person.
  }
  const nameIn = el("input", { name: "name", maxlength: "40", placeholder: "person", value: savedName, autocomplete: "nickname" });
  const form = el(
    "form",
    { id: "play-form", class: "form" },
    el("label", {}, "your name ", nameIn),
    el("label", {}, "game ", gameSel),
    el("label", {}, "opponent ", oppSel),
    el("label", {}, "you play ", sideSel),
    el("div", { class: "row-fields" }, turn, match),
    botTime,
    submit,
  );
  app.append(card("New game", form));
  const fill = () => {
    const g = games.find((x) => x.name === gameSel.value);
    const bots = g.bots && g.bots.length ? g.bots : ["builtin"];
    oppSel.replaceChildren(
      el("optgroup", { label: "bots" }, bots.map((b) => el("option", { value: b }, b))),
      el("optgroup", { label: "people" }, el("option", { value: "local" }, "a friend on this screen"), el("option", { value: "remote" }, "a friend in another browser (invite link)")),
    );
    sideSel.replaceChildren(
      el("option", { value: "0" }, sideName(g.name, 0) + " (moves first)"),
      el("option", { value: "1" }, sideName(g.name, 1)),
      el("option", { value: "-1" }, "random"),
    );
    // The game's default clocks are made for bots; a person gets at
    // least half a minute a move.
    const tt = parseDuration(g.turn_time);
    turn.querySelector("input").value = tt > 0 && tt < 30000 ? "30s" : g.turn_time || "";
    match.querySelector("input").value = g.match_time || "";
  };
  const showBotTime = () => {
    const g = games.find((x) => x.name === gameSel.value);
    botTime.hidden = !g.bot_time || oppSel.value === "local" || oppSel.value === "remote";
    botTime.querySelector("input").placeholder = "the game's own" + (g.turn_time && g.turn_time !== "0s" ? " (" + g.turn_time + ")" : "");
  };
  gameSel.addEventListener("change", fill);
  gameSel.addEventListener("change", showBotTime);
  oppSel.addEventListener("change", showBotTime);
  fill();
  showBotTime();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { game: gameSel.value, opponent: oppSel.value, side: Number(sideSel.value) };
    const nm = nameIn.value.trim();
    if (nm) body.name = nm;
    try {
      if (nm) localStorage.setItem("arena.name", nm);
    } catch {
      // The name is only a convenience.
    }
    const t = turn.querySelector("input").value.trim();
    const m = match.querySelector("input").value.trim();
    if (t) body.turn_time = t;
    if (m) body.match_time = m;
    const bt = botTime.querySelector("input").value.trim();
    if (bt && !botTime.hidden) body.bot_time = bt;
    submit.disabled = true;
    try {
      await startGame(body);
    } finally {
      submit.disabled = false;
    }
  });
}

// startGame asks the server for a person's game (the play form's request,
// or a rematch's), keeps this browser's seats and opens the game's page.
async function startGame(body) {
  const isBot = body.opponent !== "local" && body.opponent !== "remote";
  try {
    const res = await postJSON("/api/play", body, isBot);
    const inviteTok = res.invite ? new URLSearchParams(res.invite.split("?")[1] || "").get("seat") : null;
    const mine = (res.seats || []).filter((s) => s.token !== inviteTok);
    const other = (res.seats || []).find((s) => s.token === inviteTok);
    let invite = null;
    if (res.invite) invite = res.invite + (other && !/[?&]side=/.test(res.invite) ? "&side=" + other.side : "");
    saveSeats(res.id, { seats: mine, invite, opponent: body.opponent, request: body });
    location.hash = "#/play/" + encodeURIComponent(res.id) + (mine[0] ? "?seat=" + encodeURIComponent(mine[0].token) : "");
  } catch (err) {
    showMessage(err instanceof ApiError && err.status === 401 ? "Playing a bot needs the server's token (field at the top): " + err.message : err.message, true);
  }
}

async function playGamePage(page, id, query) {
  const stored = loadSeats(id);
  const seat = query.get("seat");
  if (seat && !stored.seats.some((s) => s.token === seat)) {
    const side = query.get("side");
    stored.seats.push({ side: side !== null && side !== "" ? Number(side) : -1, token: seat });
    saveSeats(id, stored);
  }
  const mySides = new Map(stored.seats.filter((s) => s.side >= 0).map((s) => [s.side, s.token]));
  const unknown = stored.seats.filter((s) => !(s.side >= 0)).map((s) => s.token);
  const head = el("div", { class: "page-head" }, el("h2", {}, "Game " + id));
  const box = el("div");
  app.append(head, box);
  const screen = new Screen(box, { mode: mySides.size || unknown.length ? "play" : "watch" });
  page.onLeave(() => screen.destroy());
  // One person at the board sees it from their own seat; two at one screen
  // keep the usual orientation.
  const orient = () => {
    if (mySides.size === 1) screen.seat(mySides.keys().next().value);
  };
  orient();

  let inputSide = undefined;
  let seenMoves = -1; // moves shown so far; -1: none yet
  let baseTitle = null;
  let sent = false;
  const tokenFor = (side) => mySides.get(side) || unknown[0];
  // The side to move as the server sees it: a waiting person's seat, or
  // its guess of the next in turn. Taking the guess too enables the board
  // as soon as the opponent's move shows (the seat starts waiting within
  // the same instant on the server; a click that still comes too early is
  // refused with a message, never lost).
  const movers = () => {
    const c = screen.clocks;
    const out = new Set(screen.toMove());
    if (c && Array.isArray(c.seats)) c.seats.forEach((st, side) => st && st.waiting && out.add(side));
    return [...out];
  };
  const updateInput = () => {
    if (!screen.view) return;
    let side = null;
    if (!screen.over && screen.following && !sent) {
      const tm = movers();
      const mine = tm.find((s) => mySides.has(s));
      if (mine !== undefined) side = mine;
      else if (unknown.length && tm.length) side = tm[0];
    }
    if (side === inputSide && side === null) return;
    inputSide = side;
    if (side === null) screen.view.input(null);
    else {
      screen.view.input(side, (text) => {
        sent = true;
        socket.send({ type: "move", id, token: tokenFor(side), move: String(text) });
        updateInput();
      });
    }
    resignBtn.disabled = screen.over || (!mySides.size && !unknown.length);
    if (!screen.over) {
      const ss = screen.header ? sides(screen.header) : [];
      const tm = screen.toMove();
      const who = tm.map((s) => (ss[s] ? ss[s].colourName + " (" + ss[s].name + ")" : "side " + s)).join(", ");
      if (baseTitle === null && screen.header) baseTitle = document.title;
      if (baseTitle !== null) document.title = (side !== null && mySides.size <= 1 ? "● Your move · " : "") + baseTitle;
      if (side !== null && mySides.size > 1) screen.setStatus(who + " to move", "your-turn");
      else if (side !== null) screen.setStatus("Your move" + (ss[side] ? " (" + ss[side].colourName + ")" : ""), "your-turn");
      else if (sent) screen.setStatus("sending…");
      else screen.setStatus(who ? "Waiting for " + who : "waiting…");
    }
  };

  let armed = 0;
  const resignBtn = el("button", { type: "button", class: "danger", "data-action": "resign" }, "Resign");
  resignBtn.addEventListener("click", () => {
    if (!armed) {
      resignBtn.textContent = "Really resign?";
      armed = setTimeout(() => {
        armed = 0;
        resignBtn.textContent = "Resign";
      }, 3000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    resignBtn.textContent = "Resign";
    const tm = screen.toMove();
    const side = tm.find((s) => mySides.has(s));
    const tok = side !== undefined ? mySides.get(side) : mySides.values().next().value || unknown[0];
    if (tok) socket.send({ type: "resign", id, token: tok });
  });
  page.onLeave(() => clearTimeout(armed));
  const actions = el("div", { class: "play-actions" }, mySides.size || unknown.length ? resignBtn : el("span", { class: "empty" }, "You are watching: this browser holds no seat in this game."));
  screen.extra.append(actions);
  if (stored.invite) {
    const url = location.origin + location.pathname + stored.invite;
    const field = el("input", { readonly: true, value: url, class: "invite", "aria-label": "invite link" });
    const copy = el("button", { type: "button" }, "Copy");
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(url);
        showMessage("invite link copied");
      } catch {
        showMessage("select the link and copy it");
      }
    });
    screen.extra.prepend(el("div", { class: "invite-box" }, el("p", {}, "Send this link to your opponent:"), el("div", { class: "inline" }, field, copy)));
  }

  screen.onFollow = () => updateInput();
  screen.setStatus("starting the game…");
  const live = new LiveGame(screen, id, {
    token: seat || (stored.seats[0] && stored.seats[0].token) || "",
    onSeats: (ss) => {
      const tok = seat || (stored.seats[0] && stored.seats[0].token);
      const i = unknown.indexOf(tok);
      if (i >= 0 && ss.length === 1) {
        unknown.splice(i, 1);
        mySides.set(ss[0], tok);
        const st = stored.seats.find((x) => x.token === tok);
        if (st) st.side = ss[0];
        saveSeats(id, stored);
        orient();
      }
    },
    onError: (err) => showMessage(err, true),
    onUpdate: () => {
      sent = false;
      // A new move makes what was said about the last one (a taken
      // point, a refused move) stale: it goes with the move.
      if (screen.moves.length > seenMoves) {
        if (seenMoves >= 0) showMessage("");
        seenMoves = screen.moves.length;
      }
      if (screen.header && !head.dataset.done) {
        head.dataset.done = "1";
        head.replaceChildren(gameTitle(screen.header));
      }
      inputSide = undefined;
      updateInput();
    },
    onRefused: (err) => {
      showMessage(err || "move refused", true);
      sent = false;
      inputSide = undefined;
      updateInput();
    },
    onEnd: () => {
      if (baseTitle !== null) document.title = baseTitle;
      if (screen.view) screen.view.input(null);
      inputSide = null;
      resignBtn.disabled = true;
      actions.replaceChildren(
        el("a", { class: "button", href: "#/replay/" + encodeURIComponent(id) }, "Replay"),
        el("a", { class: "button", href: "#/play" }, "New game"),
      );
      // A rematch against the same bot (or friend at this screen) on the
      // same clocks, colours swapped as on lichess. A friend in another
      // browser needs a new invite: "New game" makes one.
      const req = stored.request;
      if (req && req.opponent !== "remote") {
        const again = { ...req };
        if (mySides.size === 1) again.side = 1 - mySides.keys().next().value;
        const btn = el("button", { type: "button", "data-action": "rematch" }, "Rematch");
        btn.addEventListener("click", async () => {
          btn.disabled = true;
          await startGame(again);
          btn.disabled = false;
        });
        actions.prepend(btn);
      }
      const box2 = screen.extra.querySelector(".invite-box");
      if (box2) box2.remove();
    },
  });
  page.onLeave(() => live.destroy());
  // The server may not know the game for a moment after creating it: ask again until it answers.
  let tries = 0;
  const again = setInterval(() => {
    if (screen.view || ++tries > 20) return clearInterval(again);
    socket.rewatch(id);
  }, 1000);
  page.onLeave(() => clearInterval(again));
}

function setupHeader() {
  const input = document.getElementById("token");
  const state = document.getElementById("token-state");
  const show = () => {
    const t = token();
    if (document.activeElement !== input) input.value = t;
    state.textContent = t ? "✓" : "";
    state.title = t ? "token set: you can start matches and tournaments" : "no token: you can watch and replay";
  };
  input.addEventListener("change", () => setToken(input.value.trim()));
  window.addEventListener("arena-token", show);
  show();
  const conn = document.getElementById("conn");
  socket.onState((up) => {
    conn.classList.toggle("up", up);
    conn.classList.toggle("down", !up);
    conn.title = up ? "connected" : "reconnecting…";
  });
}

window.addEventListener("hashchange", route);
takeTokenFromURL();
setupHeader();
route();
