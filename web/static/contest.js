// Contests: the list, a contest's leaderboard and languages, a
// participant's own page (upload, submissions with their compile logs,
// games with its own bot's stderr) and the organiser's view.

import { getJSON, token, showMessage } from "./api.js";
import { el, renderRows, fmtTime } from "./board.js";

function card(title, ...children) {
  return el("section", { class: "card" }, title ? el("h2", {}, title) : null, ...children);
}

// A participant's token is kept per contest in this browser.
const tokenKey = (name) => "arena-contest-token:" + name;
function myToken(name) {
  try {
    return localStorage.getItem(tokenKey(name)) || "";
  } catch {
    return "";
  }
}
function setMyToken(name, t) {
  try {
    if (t) localStorage.setItem(tokenKey(name), t);
    else localStorage.removeItem(tokenKey(name));
  } catch {
    // Private mode: the token lives as long as the page.
  }
}

// call is one contest API call with a bearer token (the participant's or
// the organiser's); it throws the server's error message.
async function call(method, url, bearer, body, headers = {}) {
  const h = { Accept: "application/json", ...headers };
  if (bearer) h.Authorization = "Bearer " + bearer;
  const res = await fetch(url, { method, headers: h, body });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new Error((data && data.error) || res.status + " " + res.statusText);
  return data;
}

const base = (name) => "/api/contests/" + encodeURIComponent(name);

export async function contestsPage(page) {
  const list = el("div", { id: "contest-list", class: "list" }, el("p", { class: "empty" }, "loading…"));
  page.root.append(card("Contests", list));
  const cs = await getJSON("/api/contests");
  if (!page.current()) return;
  renderRows(
    list,
    (cs || []).map((c) =>
      el(
        "a",
        { class: "row trow", href: "#/contest/" + encodeURIComponent(c.name) },
        el("span", { class: "badge game" }, c.game),
        el("span", { class: "tname" }, c.name),
        el("span", { class: "badge" }, c.paused ? "paused" : "ladder running"),
      ),
    ),
    "No contests: create one with arena contest create.",
  );
}

function interval(r) {
  return r.mu.toFixed(1) + " ± " + (3 * r.sigma).toFixed(1);
}

function leaderboard(board) {
  const rows = board.standings.map((r) =>
    el(
      "tr",
      { "data-user": r.user },
      el("td", {}, String(r.rank)),
      el("td", {}, r.user + (r.disqualified ? " (disqualified)" : "")),
      el("td", { class: "rating" }, r.rating.toFixed(2)),
      el("td", {}, interval(r)),
      el("td", { class: "games" }, String(r.games)),
      el("td", {}, r.wins + "/" + r.draws + "/" + r.losses),
      el("td", { class: "language" }, r.language || "—"),
      el("td", {}, r.last_submission ? fmtTime(r.last_submission) : "—"),
    ),
  );
  return el(
    "table",
    { id: "leaderboard", class: "standings" },
    el("thead", {}, el("tr", {}, ...["#", "participant", "rating", "μ ± 3σ", "games", "W/D/L", "language", "last submission"].map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows),
  );
}

function languages(board) {
  return el(
    "table",
    { id: "languages", class: "standings" },
    el("thead", {}, el("tr", {}, el("th", {}, "language"), el("th", {}, "build"), el("th", {}, "run"))),
    el(
      "tbody",
      {},
      ...board.languages.map((l) =>
        el(
          "tr",
          { class: l.available ? "" : "unavailable" },
          el("td", {}, l.title),
          el("td", {}, l.available ? el("code", {}, l.compile.map((c) => c.join(" ")).join(" && ") || "—") : l.why),
          el("td", {}, el("code", {}, l.run.join(" "))),
        ),
      ),
    ),
  );
}

function gameList(games, mine) {
  const box = el("div", { class: "list" });
  renderRows(
    box,
    games.map((g) =>
      el(
        "div",
        { class: "row contest-game", "data-id": g.id },
        el("a", { href: g.replay }, g.users.join(" vs ")),
        el("span", { class: "moves" }, (mine ? g.outcome + " · " : "") + g.reason + " · " + g.moves + " moves"),
        mine && g.stderr ? el("details", {}, el("summary", {}, "your bot's stderr"), el("pre", { class: "stderr" }, g.stderr)) : null,
      ),
    ),
    "No games yet.",
  );
  return box;
}

export async function contestPage(page, name) {
  const board = await getJSON(base(name));
  if (!page.current()) return;
  document.title = "arena · " + name;
  page.root.append(
    el(
      "div",
      { class: "home-grid" },
      el(
        "div",
        {},
        card("Contest " + name + " (" + board.game + ")", el("p", {}, board.paused ? "The ladder is paused." : "The ladder is running: " + board.games + " games so far."), leaderboard(board)),
        card("Recent games", gameList(board.recent, false)),
        card("Languages", el("p", {}, "Uploads are built in the sandbox, without network, with these fixed commands, then play test games against the built-in bot."), languages(board)),
      ),
      el("div", {}, participantCard(name, board), organiserCard(name)),
    ),
  );
}

// participantCard is the participant's own part of the page: the token,
// the upload, its submissions and its games.
function participantCard(name, board) {
  const box = el("div", { id: "participant" });
  const draw = async () => {
    box.replaceChildren();
    const t = myToken(name);
    if (!t) {
      const input = el("input", { type: "password", id: "participant-token", placeholder: "your token" });
      box.append(
        el("form", { onsubmit: (e) => (e.preventDefault(), setMyToken(name, input.value.trim()), draw()) }, el("label", {}, "Participant token ", input), el("button", { type: "submit" }, "Open my page")),
      );
      if (board.open_registration) {
        const who = el("input", { id: "register-name", placeholder: "your name" });
        box.append(
          el(
            "form",
            {
              onsubmit: async (e) => {
                e.preventDefault();
                try {
                  const r = await call("POST", base(name) + "/register", "", JSON.stringify({ name: who.value.trim() }), { "Content-Type": "application/json" });
                  setMyToken(name, r.token);
                  showMessage("Registered. Your token (keep it): " + r.token);
                  draw();
                } catch (err) {
                  showMessage(err.message, true);
                }
              },
            },
            el("label", {}, "Register ", who),
            el("button", { type: "submit" }, "Register"),
          ),
        );
      }
      return;
    }
    let me;
    try {
      me = await call("GET", base(name) + "/me", t);
    } catch (err) {
      setMyToken(name, "");
      showMessage(err.message, true);
      return draw();
    }
    const file = el("input", { type: "file", id: "upload-file" });
    box.append(
      el("p", {}, "Signed in as ", el("strong", { id: "me" }, me.user), " ", el("button", { onclick: () => (setMyToken(name, ""), draw()) }, "Sign out")),
      el(
        "form",
        {
          id: "upload",
          onsubmit: async (e) => {
            e.preventDefault();
            const f = file.files[0];
            if (!f) return;
            try {
              await call("POST", base(name) + "/submissions", t, f, { "Content-Type": "application/octet-stream", "X-Filename": f.name });
              showMessage("Uploaded: building and testing it.");
              setTimeout(draw, 1000);
            } catch (err) {
              showMessage(err.message, true);
            }
          },
        },
        el("label", {}, "Upload a bot (a source file, .zip or .tar.gz) ", file),
        el("button", { type: "submit" }, "Submit"),
      ),
      el("h3", {}, "My submissions"),
      el(
        "div",
        { id: "my-submissions", class: "list" },
        ...me.submissions.map((s) =>
          el(
            "div",
            { class: "row submission " + s.state, "data-id": s.id },
            el("span", { class: "badge" }, s.state),
            el("span", {}, (s.language || "?") + " · " + fmtTime(s.created) + (s.reason ? " · " + s.reason : "")),
            el("details", {}, el("summary", {}, "log"), el("pre", { class: "log" }, s.log)),
          ),
        ),
      ),
      el("h3", {}, "My games"),
      el("div", { id: "my-games" }, gameList(me.games, true)),
    );
    if (me.submissions.some((s) => s.state === "compiling")) setTimeout(draw, 1500);
  };
  draw();
  return card("My page", box);
}

// organiserCard shows the organiser's actions to the holder of the
// server's token.
function organiserCard(name) {
  if (!token()) return null;
  const act = async (body) => {
    try {
      await call("POST", base(name) + "/admin", token(), JSON.stringify(body), { "Content-Type": "application/json" });
      showMessage("Done: " + body.action);
    } catch (err) {
      showMessage(err.message, true);
    }
  };
  const user = el("input", { id: "dq-user", placeholder: "participant" });
  const game = el("input", { id: "rerun-game", placeholder: "game ID" });
  const download = async () => {
    const res = await fetch(base(name) + "/export", { headers: { Authorization: "Bearer " + token() } });
    if (!res.ok) return showMessage("download: " + res.status, true);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: "contest-" + name + ".zip" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };
  return card(
    "Organiser",
    el("p", {}, el("button", { id: "pause", onclick: () => act({ action: "pause" }) }, "Pause the ladder"), " ", el("button", { id: "resume", onclick: () => act({ action: "resume" }) }, "Resume")),
    el("p", {}, user, " ", el("button", { onclick: () => act({ action: "disqualify", user: user.value.trim() }) }, "Disqualify")),
    el("p", {}, game, " ", el("button", { onclick: () => act({ action: "rerun", game: game.value.trim() }) }, "Re-run the game")),
    el("p", {}, el("button", { id: "export", onclick: download }, "Download everything")),
  );
}
