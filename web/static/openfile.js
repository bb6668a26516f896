// The "Open file" page: a game file from disk shown as a stored game is
// (replay controls, move list), read here in the browser: arena's JSON
// records, Ants replays (rev-3 replay JSON, arena's or the official
// engine's), Piskvork .psq, Gomoku and Points SGF, and Khet state logs.
// Also showRecord, which loads a record into a screen for every page.

import { showMessage } from "./api.js";
import { Screen, el, loadViewModule } from "./board.js";
import { FileError, parsePSQ, parseSGF, parseKhetLog, checkRecord } from "./files/parse.js";

// showRecord loads a finished record into a screen.
export async function showRecord(screen, rec, replay) {
  const header = { ...rec };
  delete header.moves;
  if (replay) header.replay = replay;
  await screen.init(header);
  screen.pushAll(rec.moves || []);
  screen.finish(rec);
}

// antsReplayHeader makes a header for an official Ants replay: an object
// with "replaydata" (as the engine writes it and we store it) or the
// replaydata object alone, which is wrapped to look like the former.
function antsReplayHeader(obj, name) {
  const replay = obj.replaydata ? obj : { replaydata: obj };
  const rd = replay.replaydata;
  const n = Number(rd.players) || (replay.playernames ? replay.playernames.length : 0) || (replay.score ? replay.score.length : 2);
  const names = replay.playernames || Array.from({ length: n }, (_, i) => "player " + (i + 1));
  const players = names.map((nm) => ({ name: String(nm) }));
  const header = { id: name, game: "ants", players, seats: players.map((_, i) => i), replay };
  const rec = { ...header, reason: "score", scores: replay.score || null, winner: null };
  if (Array.isArray(replay.score)) rec.detail = "scores " + players.map((p, i) => p.name + " " + replay.score[i]).join(", ");
  if (Array.isArray(replay.rank)) {
    const best = Math.min(...replay.rank);
    const top = replay.rank.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
    if (top.length === 1) rec.winner = top[0];
  }
  return { header, rec };
}

// isAntsReplay tells an Ants replay from a record.
function isAntsReplay(obj) {
  return !!obj && typeof obj === "object" && (!!obj.replaydata || (!!obj.revision && !!obj.map && !!obj.ants));
}

// kindOf names a file's format by its name, else by its first bytes.
function kindOf(name, text) {
  const ext = (/\.([a-z0-9]+)$/i.exec(name) || [])[1];
  const byExt = { psq: "psq", sgf: "sgf", khet: "khet", json: "json", replay: "json" }[(ext || "").toLowerCase()];
  if (byExt) return byExt;
  const t = text.replace(/^\uFEFF/, "").trimStart();
  if (t.startsWith("{")) return "json";
  if (t.startsWith("(")) return "sgf";
  if (/^piskvorky/i.test(t)) return "psq";
  if (/^#\s*khet|^[-SRd]\S*\s+\S+\s+\d+\s+\d+/.test(t)) return "khet";
  return "";
}

// readGameFile reads a file's text into what showRecord takes: {rec,
// replay}. It throws FileError for what it cannot read.
export async function readGameFile(name, text) {
  switch (kindOf(name, text)) {
    case "json": {
      let obj;
      try {
        obj = JSON.parse(text);
      } catch (e) {
        throw new FileError(name, 0, "not JSON: " + e.message);
      }
      if (isAntsReplay(obj)) {
        const { header, rec } = antsReplayHeader(obj, name);
        return { rec: { ...rec, moves: [] }, replay: header.replay };
      }
      const rec = checkRecord(obj, name);
      // A stored Ants record holds each player's orders, not the turns'
      // positions (only a live game sends those): its replay file does.
      if (rec.game === "ants" && !rec.moves.some((m) => m.side === -1 && m.effect)) {
        throw new FileError(name, 0, "an Ants record holds the orders, not the map of each turn: open the game's replay file instead (⤓ replay on the game's page)");
      }
      return { rec, replay: null };
    }
    case "psq":
      return { rec: parsePSQ(text, name), replay: null };
    case "sgf":
      return { rec: parseSGF(text, name), replay: null };
    case "khet":
      return { rec: parseKhetLog(text, name, await import("./games/khet.js")), replay: null };
  }
  throw new FileError(name, 0, "not a game file this page reads: a record (.json), an Ants replay (.replay), Piskvork (.psq), SGF (.sgf, Gomoku or Points) or a Khet log (.khet)");
}

// filePage opens a file chosen or dropped; title makes the game's heading.
export function filePage(page, title) {
  const input = el("input", { id: "replay-file", type: "file", accept: ".json,.replay,.psq,.sgf,.khet,.txt,application/json" });
  const drop = el(
    "label",
    { class: "drop", for: "replay-file" },
    "Choose a file or drop it here: a game record (JSON) from this arena, an Ants replay (ours or the official engine's), a Piskvork .psq, a Gomoku or Points .sgf, or a Khet .khet log.",
    input,
  );
  const box = el("div");
  page.root.append(el("section", { class: "card" }, el("h2", {}, "Open a replay file"), drop), box);
  let screen = null;
  page.onLeave(() => screen && screen.destroy());
  const open = async (file) => {
    if (!file) return;
    if (screen) screen.destroy();
    box.replaceChildren();
    screen = null;
    showMessage("");
    try {
      const { rec, replay } = await readGameFile(file.name, await file.text());
      if (!page.current()) return;
      await loadViewModule(rec.game).catch(() => {
        throw new FileError(file.name, 0, `a game of ${JSON.stringify(rec.game)}, which this page cannot show`);
      });
      const s = new Screen(box, { mode: "replay" });
      screen = s;
      box.prepend(el("div", { class: "page-head" }, title(rec)));
      await showRecord(s, rec, replay);
      s.goto(0);
    } catch (e) {
      // Beside the file input, where the reader looks, as long as the
      // page is open.
      box.replaceChildren(el("p", { class: "error file-error", role: "alert" }, e.message));
    }
  };
  input.addEventListener("change", () => open(input.files[0]));
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    open(e.dataTransfer.files[0]);
  });
}
