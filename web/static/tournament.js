// Tournaments: the list, the start form, and one tournament's standings,
// crosstable, rating plot and games.

import { getJSON, postJSON, info, token, showMessage } from "./api.js";
import { el, renderRows, playersLine, fmtTime } from "./board.js";
import { resultsLink } from "./downloads.js";

const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324", "#808000", "#000075", "#a9a9a9", "#469990"];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(title, ...children) {
  return el("section", { class: "card" }, title ? el("h2", {}, title) : null, ...children);
}

export async function tournamentsPage(page) {
  const list = el("div", { id: "tournament-list", class: "list" }, el("p", { class: "empty" }, "loading…"));
  const formBox = el("div");
  page.root.append(el("div", { class: "home-grid" }, card("Tournaments", list), card("Start a tournament", formBox)));
  info()
    .then((inf) => page.current() && formBox.append(tournamentForm(inf)))
    .catch((e) => formBox.append(el("p", { class: "error" }, e.message)));
  const load = async () => {
    const ts = await getJSON("/api/tournaments");
    if (!page.current()) return;
    renderRows(
      list,
      (ts || []).map((t) =>
        el(
          "a",
          { class: "row trow", href: "#/tournament/" + encodeURIComponent(t.name), "data-name": t.name },
          el("span", { class: "badge game" }, t.game || "?"),
          el("span", { class: "tname" }, t.name),
          el("span", { class: "badge " + (t.status === "running" ? "live" : "") }, t.status || ""),
          el("span", { class: "moves" }, (t.games ?? 0) + " games"),
          el("span", { class: "when", title: t.updated ? new Date(t.updated).toLocaleString() : undefined }, el("span", { class: "date" }, fmtTime(t.updated))),
        ),
      ),
      "No tournaments yet.",
      "name",
    );
    if ((ts || []).some((t) => t.status === "running")) {
      const timer = setTimeout(() => load().catch(() => {}), 5000);
      page.onLeave(() => clearTimeout(timer));
    }
  };
  await load();
}

function tournamentForm(inf) {
  const games = (inf.games || []).filter((g) => g.bots && g.bots.length);
  if (!games.length) return el("p", { class: "empty" }, "No bots are registered on the server (arena serve --bot GAME:NAME=CMD).");
  const name = el("input", { name: "name", required: true, pattern: "[A-Za-z0-9._\\-]+", placeholder: "name", value: "t-" + new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "") });
  const gameSel = el("select", { name: "game" }, games.map((g) => el("option", { value: g.name }, g.title || g.name)));
  const bots = el("div", { class: "checks" });
  const format = el("select", { name: "format" }, ["round-robin", "gauntlet", "swiss", "knockout"].map((f) => el("option", { value: f }, f)));
  const rounds = el("input", { name: "rounds", type: "number", min: "0", value: "0", size: "4", title: "0: the format's default" });
  const per = el("input", { name: "games", type: "number", min: "0", value: "2", size: "4", title: "games per pairing" });
  const turn = el("input", { name: "turn_time", placeholder: "e.g. 1s", size: "6" });
  const submit = el("button", { type: "submit" }, "Start tournament");
  const form = el(
    "form",
    { id: "tournament-form", class: "form" },
    el("label", {}, "name ", name),
    el("label", {}, "game ", gameSel),
    bots,
    el("div", { class: "row-fields" }, el("label", {}, "format ", format), el("label", {}, "rounds ", rounds), el("label", {}, "games per pairing ", per), el("label", {}, "turn time ", turn)),
    submit,
  );
  const fill = () => {
    const g = games.find((x) => x.name === gameSel.value);
    bots.replaceChildren(el("span", {}, "bots:"), ...g.bots.map((b) => el("label", { class: "check" }, el("input", { type: "checkbox", name: "bot", value: b, checked: true }), " " + b)));
    turn.value = g.turn_time || "";
  };
  gameSel.addEventListener("change", fill);
  fill();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!token()) {
      showMessage("This needs the server's token: paste it in the token field at the top.", true);
      return;
    }
    const body = {
      name: name.value.trim(),
      game: gameSel.value,
      bots: [...bots.querySelectorAll("input:checked")].map((c) => c.value),
      format: format.value,
      rounds: Number(rounds.value) || 0,
      games: Number(per.value) || 0,
    };
    if (turn.value.trim()) body.turn_time = turn.value.trim();
    submit.disabled = true;
    try {
      const res = await postJSON("/api/tournaments", body);
      location.hash = "#/tournament/" + encodeURIComponent((res && res.name) || body.name);
    } catch (err) {
      showMessage(err.message, true);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

const num = (v, d = 0) => (v === null || v === undefined || !isFinite(v) ? "" : Number(v).toFixed(d));
const cell = (c, k) => (c ? (c[k] ?? c[{ wins: "w", draws: "d", losses: "l" }[k]] ?? 0) : 0);

// A player's failures by kind; the table names the common three and sums the rest.
function faults(row) {
  const f = row.faults || {};
  let other = 0;
  for (const [k, v] of Object.entries(f)) if (!["timeout", "crash", "illegal"].includes(k)) other += v;
  return { timeout: f.timeout || 0, crash: f.crash || 0, illegal: f.illegal || 0, other, detail: Object.entries(f).map(([k, v]) => k + " " + v).join(", ") };
}

function standingsTable(rep) {
  const rows = rep.standings || [];
  const skill = rows.some((r) => r.mu !== undefined && r.mu !== null);
  const head = ["#", "Player", "Games", "W", "D", "L", "Points"];
  if (skill) head.push("μ", "σ", "ordinal");
  else head.push("Elo");
  head.push("timeouts", "crashes", "illegal", "other");
  const table = el(
    "table",
    { id: "standings", class: "table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", class: h === "Player" ? "" : "num" }, h)))),
    el(
      "tbody",
      {},
      rows.map((r) => {
        const f = faults(r);
        const rating = skill
          ? [el("td", { class: "num" }, num(r.mu, 2)), el("td", { class: "num" }, num(r.sigma, 2)), el("td", { class: "num" }, num(r.ordinal, 2))]
          : [
              el(
                "td",
                { class: "num elo", title: r.elo_low !== undefined ? "95% interval " + num(r.elo_low) + " … " + num(r.elo_high) : "" },
                num(r.elo),
                r.elo_low !== undefined && r.elo_low !== null ? el("span", { class: "interval" }, " [" + num(r.elo_low) + ", " + num(r.elo_high) + "]") : null,
              ),
            ];
        return el(
          "tr",
          { "data-player": r.player },
          el("td", { class: "num" }, r.rank ?? ""),
          el("th", { scope: "row" }, r.player),
          el("td", { class: "num" }, r.games ?? ""),
          el("td", { class: "num" }, r.wins ?? 0),
          el("td", { class: "num" }, r.draws ?? 0),
          el("td", { class: "num" }, r.losses ?? 0),
          el("td", { class: "num strong" }, num(r.points, r.points % 1 ? 1 : 0)),
          rating,
          el("td", { class: "num fault" + (f.timeout ? " bad" : ""), "data-fault": "timeout" }, f.timeout),
          el("td", { class: "num fault" + (f.crash ? " bad" : ""), "data-fault": "crash" }, f.crash),
          el("td", { class: "num fault" + (f.illegal ? " bad" : ""), "data-fault": "illegal" }, f.illegal),
          el("td", { class: "num fault" + (f.other ? " bad" : ""), "data-fault": "other", title: f.detail }, f.other),
        );
      }),
    ),
  );
  return el("div", { class: "table-wrap" }, table);
}

function crosstable(rep) {
  const names = (rep.standings || []).map((r) => r.player);
  const ct = rep.crosstable || {};
  const los = rep.los || {};
  const table = el(
    "table",
    { id: "crosstable", class: "table cross" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), names.map((n, i) => el("th", { scope: "col", title: n }, String(i + 1))))),
    el(
      "tbody",
      {},
      names.map((a, i) =>
        el(
          "tr",
          { "data-player": a },
          el("th", { scope: "row" }, i + 1 + ". " + a),
          names.map((b) => {
            if (a === b) return el("td", { class: "self" }, "—");
            const c = ct[a] && ct[a][b];
            const w = cell(c, "wins");
            const d = cell(c, "draws");
            const l = cell(c, "losses");
            const p = los[a] && los[a][b];
            const cls = !c || w + d + l === 0 ? "none" : w > l ? "plus" : w < l ? "minus" : "even";
            return el("td", { class: "num " + cls, title: a + " vs " + b + ": " + w + " wins, " + d + " draws, " + l + " losses" + (p !== undefined ? "; LOS " + Math.round(p * 100) + "%" : "") }, c ? w + "-" + d + "-" + l : "");
          }),
        ),
      ),
    ),
  );
  return el("div", { class: "table-wrap" }, table);
}

// ratingPlot draws each player's rating after each checkpoint of history.
function ratingPlot(rep) {
  const hist = rep.history || [];
  const names = (rep.standings || []).map((r) => r.player);
  const skill = (rep.standings || []).some((r) => r.mu !== undefined && r.mu !== null);
  const W = 640;
  const H = 260;
  const L = 48;
  const R = 12;
  const T = 12;
  const B = 28;
  const root = svg("svg", { id: "rating-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "rating over time", class: "plot" });
  let lo = Infinity;
  let hi = -Infinity;
  let gmax = 0;
  for (const h of hist) {
    gmax = Math.max(gmax, h.games || 0);
    for (const v of Object.values(h.ratings || {})) {
      if (isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!hist.length || !isFinite(lo)) {
    root.append(svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "axis-label" }, "no rating history yet"));
    return root;
  }
  if (hi - lo < 1e-9) {
    hi += skill ? 1 : 10;
    lo -= skill ? 1 : 10;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const x = (g) => L + ((W - L - R) * (gmax ? g / gmax : 0));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  // Axes with a few round ticks.
  const step = niceStep((hi - lo) / 4);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis-label" }, String(Math.round(v * 100) / 100)));
  }
  const gstep = niceStep(Math.max(1, gmax) / 6);
  for (let g = 0; g <= gmax; g += gstep) {
    root.append(svg("text", { x: x(g), y: H - 8, "text-anchor": "middle", class: "axis-label" }, String(g)));
  }
  root.append(svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }));
  root.append(svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }));
  const all = [...new Set([...names, ...hist.flatMap((h) => Object.keys(h.ratings || {}))])];
  all.forEach((n, i) => {
    const pts = hist.filter((h) => h.ratings && isFinite(h.ratings[n])).map((h) => x(h.games || 0).toFixed(1) + "," + y(h.ratings[n]).toFixed(1));
    if (!pts.length) return;
    const colour = PALETTE[i % PALETTE.length];
    const line = svg("polyline", { points: pts.join(" "), fill: "none", stroke: colour, "stroke-width": 2, "data-player": n });
    line.append(svg("title", {}, n));
    root.append(line);
    const last = pts[pts.length - 1].split(",");
    root.append(svg("circle", { cx: last[0], cy: last[1], r: 3, fill: colour }));
  });
  return el(
    "figure",
    { class: "plot-box" },
    root,
    el(
      "figcaption",
      { class: "legend" },
      all.map((n, i) => el("span", { class: "key" }, el("span", { class: "swatch", style: "background:" + PALETTE[i % PALETTE.length] }), n)),
      el("span", { class: "axis-note" }, (skill ? "ordinal" : "Elo") + " by games played"),
    ),
  );
}

function niceStep(raw) {
  if (!(raw > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function resultsList(rep) {
  const names = (rep.standings || []).map((r) => r.player);
  const rows = rep.results || records || [];
  const list = el("div", { id: "tournament-games", class: "list" });
  for (const g of rows) {
    const players = (g.players || []).map((p) => (typeof p === "string" ? p : p && p.name));
    const res = g.winner === null || g.winner === undefined ? "draw" : (players[g.winner] || "?") + " won";
    list.append(
      el(
        "a",
        { class: "row", href: "#/replay/" + encodeURIComponent(g.id), "data-id": g.id },
        el("span", { class: "badge" }, g.round !== undefined ? "round " + g.round : ""),
        playersLine(players, g.winner),
        el("span", { class: "moves" }, g.moves === 1 ? "1 move" : (g.moves ?? "") + " moves"),
        el("span", { class: "result" }, res + (g.reason ? " · " + g.reason : "")),
      ),
    );
  }
  if (!rows.length) list.append(el("p", { class: "empty" }, names.length ? "No finished games yet." : "No games yet."));
  return list;
}

export async function tournamentPage(page, name) {
  if (!name) throw new Error("no tournament name");
  const box = el("div");
  page.root.append(box);
  let timer = 0;
  page.onLeave(() => clearTimeout(timer));
  // A tournament the page has just started has a (still empty) report at
  // once: the server answers for it until its first game is stored.
  box.append(el("p", { class: "empty" }, "loading…"));
  const load = async (first) => {
    let rep;
    try {
      rep = await getJSON("/api/tournaments/" + encodeURIComponent(name));
    } catch (e) {
      if (first) throw e;
      showMessage(e.message, true);
      timer = setTimeout(() => load(false), 5000);
      return;
    }
    if (!page.current()) return;
    const running = !rep.finished;
    document.title = (rep.tournament || name) + " · tournament · arena";
    const fresh = [
      el(
        "div",
        { class: "page-head", "data-part": "head" },
        el("span", { class: "badge game" }, rep.game || ""),
        el("h2", {}, rep.tournament || name),
        el("span", { class: "badge " + (running ? "live" : "") }, running ? "running" : "finished"),
        el("span", { class: "when" }, [rep.format, (rep.games ?? 0) + (rep.total ? " / " + rep.total : "") + " games"].filter(Boolean).join(" · ")),
        rep.games ? resultsLink(rep.tournament || name, rep.game) : null,
      ),
      el("section", { class: "card", "data-part": "standings" }, el("h2", {}, "Standings"), standingsTable(rep), rep.rating_note ? el("p", { class: "note" }, rep.rating_note) : null),
      el("div", { class: "two-col", "data-part": "cross-plot" }, card("Crosstable", crosstable(rep)), card("Rating over time", ratingPlot(rep))),
      rep.matches && rep.matches.length ? el("section", { class: "card", "data-part": "matches" }, el("h2", {}, "Matches"), el("ul", { class: "matches" }, rep.matches.map((m) => el("li", {}, m)))) : null,
      el("section", { class: "card", "data-part": "games" }, el("h2", {}, "Games"), resultsList(rep)),
    ].filter(Boolean);
    // Refreshes change only the parts that changed, and the games list row
    // by row: what the reader points at stays where it is.
    if (box.querySelector("[data-part]")) {
      for (const f of fresh) {
        const cur = box.querySelector(`:scope > [data-part="${f.dataset.part}"]`);
        if (!cur) {
          box.append(f);
        } else if (f.dataset.part === "games") {
          const list = cur.querySelector(".list");
          const rows = [...f.querySelector(".list").children].filter((e) => e.dataset.id);
          renderRows(list, rows, "No finished games yet.");
        } else if (cur.outerHTML !== f.outerHTML) {
          cur.replaceWith(f);
        }
      }
    } else {
      box.replaceChildren(...fresh);
    }
    if (running) timer = setTimeout(() => load(false), 3000);
  };
  await load(true);
}
