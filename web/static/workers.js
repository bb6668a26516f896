// The workers view: the match workers that play this server's games
// (arena serve --nats or --workers), as "arena workers" lists them, kept
// up to date by asking GET /api/workers every two seconds. A server that
// plays its games itself has no workers: /api/info says so, and the page
// shows no view (the home page) or says so (#/workers).

import { getJSON } from "./api.js";
import { el } from "./board.js";

// EVERY is the time between two listings: workers report every 2 s.
const EVERY = 2000;
// SILENT is the age in seconds of a heartbeat past which a worker is
// shown as silent: it was killed or cut off, and its games go to others
// once their lease runs out.
const SILENT = 10;

function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

// ago says how long ago something was, from its age in seconds.
function ago(age) {
  const s = Math.max(0, Math.round(age || 0));
  if (s < 60) return s + " s ago";
  if (s < 3600) return Math.floor(s / 60) + " min ago";
  return Math.floor(s / 3600) + " h ago";
}

function workerRow(w) {
  const silent = (w.age || 0) > SILENT;
  return el(
    "div",
    {
      class: "row wrow" + (silent ? " silent" : ""),
      "data-id": w.name,
      "data-worker": w.name,
      "data-slots": w.slots,
      "data-running": w.running,
      "data-done": w.done,
      "data-silent": silent ? "true" : "false",
    },
    el("span", { class: "wname", title: w.name }, w.name),
    el("span", { class: "host", title: w.host }, w.host || ""),
    el("span", { class: "num", "data-col": "slots" }, w.slots),
    el("span", { class: "num", "data-col": "running" }, w.running),
    el("span", { class: "num", "data-col": "done" }, w.done),
    el("span", { class: "beat", "data-col": "heartbeat", title: w.heartbeat ? new Date(w.heartbeat).toLocaleString() : "" }, (silent ? "silent, " : "") + ago(w.age)),
  );
}

const header = () =>
  el(
    "div",
    { class: "row wrow whead", "aria-hidden": "true" },
    el("span", {}, "worker"),
    el("span", {}, "host"),
    el("span", { class: "num" }, "slots"),
    el("span", { class: "num" }, "running"),
    el("span", { class: "num" }, "done"),
    el("span", {}, "last heartbeat"),
  );

// renderWorkers puts rows into list in their order, keeping the element
// of a worker whose row has not changed (a selection in it survives the
// refresh) and replacing the others whole, their data-* included.
function renderWorkers(list, rows) {
  const old = new Map([...list.children].map((e) => [e.dataset.worker, e]));
  const want = rows.map((fresh) => {
    const e = old.get(fresh.dataset.worker);
    old.delete(fresh.dataset.worker);
    return e && e.outerHTML === fresh.outerHTML ? e : fresh;
  });
  for (const e of old.values()) e.remove();
  want.forEach((e, i) => {
    if (list.children[i] !== e) list.insertBefore(e, list.children[i] || null);
  });
  for (const e of [...list.children].slice(want.length)) e.remove();
}

// summary is the line over the list: the workers and their games.
function summary(ws) {
  if (!ws.length) return "No workers have joined yet: start one with arena worker --nats URL.";
  const sum = (k) => ws.reduce((n, w) => n + (w[k] || 0), 0);
  const silent = ws.filter((w) => (w.age || 0) > SILENT).length;
  return [plural(ws.length, "worker"), plural(sum("slots"), "slot"), sum("running") + " running", sum("done") + " done"]
    .concat(silent ? [silent + " silent"] : [])
    .join(" · ");
}

// workersCard is the view, refreshing itself while page is current. At
// most limit workers are listed (0: all), with a link to #/workers for
// the rest.
export function workersCard(page, limit = 0) {
  const sum = el("p", { id: "workers-summary", class: "note" }, "loading…");
  const list = el("div", { id: "workers-list", class: "list" });
  const more = el("p", { class: "more", hidden: true }, el("a", { href: "#/workers" }, "All workers →"));
  const card = el("section", { class: "card", id: "workers", "data-refreshed": "0" }, el("h2", {}, "Workers"), sum, el("div", { class: "list" }, header()), list, more);
  let timer = 0;
  let refreshed = 0;
  const load = async () => {
    try {
      const ws = (await getJSON("/api/workers")) || [];
      if (!page.current()) return;
      const shown = limit > 0 ? ws.slice(0, limit) : ws;
      renderWorkers(list, shown.map(workerRow));
      more.hidden = shown.length === ws.length;
      sum.textContent = summary(ws);
      sum.classList.remove("error");
      card.dataset.refreshed = String(++refreshed);
    } catch (e) {
      if (!page.current()) return;
      sum.textContent = "Cannot list the workers: " + e.message;
      sum.classList.add("error");
    }
    if (page.current()) timer = setTimeout(load, EVERY);
  };
  load();
  page.onLeave(() => clearTimeout(timer));
  return card;
}

// workersPage is #/workers: every worker, or why there are none.
export function workersPage(page, inf) {
  document.title = "workers · arena";
  if (!inf.workers) {
    page.root.append(
      el(
        "section",
        { class: "card", id: "workers" },
        el("h2", {}, "Workers"),
        el("p", { class: "empty", id: "workers-summary" }, "This server plays its games itself: it has no workers. Start it with --workers N or --nats URL to play them on worker processes."),
      ),
    );
    return;
  }
  page.root.append(workersCard(page));
}
