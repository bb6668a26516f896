// Reading game files from disk into arena's record shape (the JSON a
// stored game has), so that the page shows them as it shows a stored
// game: Piskvork .psq and Gomoku SGF (GM[4]), Points SGF (GM[40]), Khet
// state logs (.khet, one state string per ply) and arena's own JSON
// records. The formats are the ones game/gomoku, game/points and
// game/khet write; like Piskvork, the readers take what those programs
// take (CR, LF or CRLF line ends, blank lines, moves without times).
// Every failure is a FileError naming the file, the line and what is
// wrong; nothing else is thrown for any input.

import { Field } from "./pointsrules.js";

// FileError says why a file cannot be opened.
export class FileError extends Error {
  constructor(file, line, msg) {
    super(file + (line ? ", line " + line : "") + ": " + msg);
    this.name = "FileError";
  }
}

// clip shortens text quoted in a message.
function clip(s) {
  s = String(s);
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s);
}

// lines splits text at CRLF, LF and CR, without a byte-order mark.
function lines(text) {
  return String(text).replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
}

// --- Piskvork .psq (game/gomoku/psq.go) ---

const PSQ_HEADER = /^piskvorky\s*(\d+)\s*[xX]\s*(\d+)\s*,\s*([+-]?\d+)\s*:\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$/i;
const PSQ_MOVE = /^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*(?:,\s*([+-]?\d+)\s*)?$/;

// parsePSQ reads a Piskvork record: "Piskvorky WxH, L1:L2, FIRST", the
// moves "x,y,ms" (1-based), the players' names and the error code.
export function parsePSQ(text, file) {
  const ls = lines(text);
  let n = 0;
  while (n < ls.length && ls[n].trim() === "") n++;
  if (n === ls.length) throw new FileError(file, 0, "the file is empty (want a Piskvork record starting \"Piskvorky 20x20, 0:0, 0\")");
  const h = PSQ_HEADER.exec(ls[n].trim());
  if (!h) throw new FileError(file, n + 1, `header ${clip(ls[n].trim())} is not "Piskvorky WIDTHxHEIGHT, LEVEL1:LEVEL2, FIRST"`);
  const W = +h[1];
  const H = +h[2];
  const first = +h[5];
  if (W < 1 || H < 1 || W > 1000 || H > 1000) throw new FileError(file, n + 1, `a ${W}x${H} board: each side must be 1..1000`);
  if (first !== 0 && first !== 1) throw new FileError(file, n + 1, `first player ${first}: must be 0 or 1`);
  n++;
  const moves = [];
  const taken = new Set();
  for (; n < ls.length; n++) {
    const line = ls[n].trim();
    if (line === "") continue;
    const m = PSQ_MOVE.exec(line);
    if (!m) break;
    const x = +m[1] - 1;
    const y = +m[2] - 1;
    if (x < 0 || y < 0 || x >= W || y >= H) throw new FileError(file, n + 1, `move ${clip(line)} is off the ${W}x${H} board`);
    if (taken.has(y * W + x)) throw new FileError(file, n + 1, `move ${clip(line)} is on an occupied square`);
    taken.add(y * W + x);
    moves.push({ side: moves.length % 2, move: x + "," + y, ms: m[3] === undefined ? 0 : +m[3] });
  }
  const rest = ls.slice(n).map((l) => l.trim()).filter(Boolean);
  let names = rest;
  let code = 0;
  for (let i = rest.length - 1; i >= 0; i--) {
    if (/^[+-]?\d+$/.test(rest[i])) {
      code = +rest[i];
      names = rest.slice(0, i);
      break;
    }
  }
  const players = [0, 1].map((i) => ({ name: names[i] || "player " + (i + 1) }));
  const rec = { id: file, game: "gomoku", options: { width: W, height: H, rule: 0 }, players, seats: [first, 1 - first], moves };
  return withResult(rec, psqResult(W, H, moves, code));
}

// psqResult works out how a Piskvork game ended: the error code says a
// player ran out of time (15) or failed (-2), which loses for the player
// to move; else five in a row wins, and a full board is a draw.
function psqResult(W, H, moves, code) {
  const lastSide = (moves.length - 1) % 2;
  if (!moves.length) return { side: -1, reason: "" };
  if (code === 15) return { side: lastSide, reason: "timeout" };
  if (code === -2) return { side: lastSide, reason: "error", detail: "the Piskvork record's error code -2: the player to move crashed or broke the rules" };
  if (madeFive(W, H, moves)) return { side: lastSide, reason: "five" };
  if (moves.length === W * H) return { side: -1, reason: "draw" };
  return { side: -1, reason: "", detail: "the game stops here without a result" };
}

// madeFive reports whether the last stone completes five or more in a row.
function madeFive(W, H, moves) {
  const colour = new Map();
  moves.forEach((m, i) => colour.set(m.move, i % 2));
  const [x, y] = moves[moves.length - 1].move.split(",").map(Number);
  const c = (moves.length - 1) % 2;
  for (const [dx, dy] of [
    [1, 0],
    [0, 1],
    [1, 1],
    [1, -1],
  ]) {
    let run = 1;
    for (const s of [1, -1]) {
      for (let k = 1; colour.get(x + s * k * dx + "," + (y + s * k * dy)) === c; k++) run++;
    }
    if (run >= 5) return true;
  }
  return false;
}

// withResult sets a record's winner (an index into players) from the
// side that won (-1: nobody).
function withResult(rec, { side, reason, detail }) {
  rec.winner = side >= 0 ? rec.seats[side] : null;
  rec.reason = reason;
  if (detail) rec.detail = detail;
  return rec;
}

// --- SGF (FF[4]; game/gomoku/sgf.go GM[4], game/points/sgf.go GM[40]) ---

// parseSGFTree reads the first game tree of an SGF collection into its
// main line: a list of nodes, each {PROP: [values]}; variations after the
// first are skipped. Errors name the line.
export function parseSGFTree(text, file) {
  const s = String(text).replace(/^\uFEFF/, "");
  let i = 0;
  const lineAt = (k) => s.slice(0, k).split(/\r\n|\n|\r/).length;
  const fail = (k, msg) => {
    throw new FileError(file, lineAt(k), msg);
  };
  const space = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  space();
  if (s[i] !== "(") fail(i, s.trim() === "" ? "the file is empty (want an SGF game tree \"(;...)\")" : `SGF starts with "(", not ${clip(s.slice(i, i + 10))}`);
  const main = [];
  // Descend the first variation of each tree; siblings are skipped whole.
  const tree = (take) => {
    const open = i;
    i++; // (
    space();
    if (s[i] !== ";") fail(i, `a game tree holds nodes (";"), found ${clip(s.slice(i, i + 10) || "the end of the file")}`);
    while (s[i] === ";") {
      i++;
      const node = {};
      space();
      while (i < s.length && /[A-Za-z]/.test(s[i])) {
        const at = i;
        while (i < s.length && /[A-Za-z]/.test(s[i])) i++;
        // FF[3] allowed lower-case letters in names: "AddBlack" is AB.
        const id = s.slice(at, i).replace(/[a-z]/g, "");
        space();
        if (s[i] !== "[") fail(i, `property ${clip(s.slice(at, i))} has no value ("[...]")`);
        const vals = [];
        while (s[i] === "[") {
          const from = i;
          i++;
          let v = "";
          while (i < s.length && s[i] !== "]") {
            if (s[i] === "\\") i++;
            if (i < s.length) v += s[i++];
          }
          if (i >= s.length) fail(from, `the value of ${id} opened here never closes ("]")`);
          i++;
          vals.push(v);
          space();
        }
        if (id) node[id] = (node[id] || []).concat(vals);
      }
      if (take) main.push(node);
      space();
    }
    let first = true;
    while (s[i] === "(") {
      tree(take && first);
      first = false;
      space();
    }
    if (i >= s.length) fail(open, `the game tree opened here never closes (")")`);
    if (s[i] !== ")") fail(i, `unexpected ${clip(s.slice(i, i + 10))} in a game tree`);
    i++;
    space();
  };
  tree(true);
  return main;
}

// sgfCoord reads one SGF coordinate letter (a..z, A..Z).
function sgfCoord(ch) {
  if (ch >= "a" && ch <= "z") return ch.charCodeAt(0) - 97;
  if (ch >= "A" && ch <= "Z") return ch.charCodeAt(0) - 65 + 26;
  return -1;
}

const SGF_GAMES = { 1: "Go", 2: "Othello", 3: "chess", 4: "Gomoku", 40: "Points" };

// parseSGF reads a Gomoku (GM[4]) or Points (GM[40]) game.
export function parseSGF(text, file) {
  const nodes = parseSGFTree(text, file);
  const root = nodes[0] || {};
  const one = (id) => (root[id] ? root[id][0] : "");
  const gm = one("GM") || "1";
  if (gm !== "4" && gm !== "40") {
    throw new FileError(file, 0, `an SGF game of ${SGF_GAMES[gm] || "GM[" + gm + "]"}: only Gomoku (GM[4]) and Points (GM[40]) open here`);
  }
  const game = gm === "4" ? "gomoku" : "points";
  const sz = /^\s*(\d+)\s*(?::\s*(\d+)\s*)?$/.exec(one("SZ") || (game === "gomoku" ? "15" : "39:32"));
  if (!sz) throw new FileError(file, 0, `board size SZ[${one("SZ")}] is not "N" or "W:H"`);
  const W = +sz[1];
  const H = sz[2] ? +sz[2] : W;
  if (W < 1 || H < 1 || W > 52 || H > 52) throw new FileError(file, 0, `a ${W}x${H} board: SGF coordinates reach 52`);
  const point = (v, what) => {
    if (v.length !== 2) throw new FileError(file, 0, `${what}: ${clip(v)} is not a point (two letters)${v === "" || v === "tt" ? "; a pass has no place in " + SGF_GAMES[gm] : ""}`);
    const x = sgfCoord(v[0]);
    const y = sgfCoord(v[1]);
    if (x < 0 || y < 0 || x >= W || y >= H) throw new FileError(file, 0, `${what}: ${clip(v)} is off the ${W}x${H} board`);
    return { x, y };
  };
  // Set-up stones (AB, AW) are the opening: Black's and White's in turn.
  const ab = (root.AB || []).map((v) => point(v, "AB"));
  const aw = (root.AW || []).map((v) => point(v, "AW"));
  const opening = [];
  for (let k = 0; k < Math.max(ab.length, aw.length); k++) {
    if (k < ab.length) opening.push(ab[k]);
    if (k < aw.length) opening.push(aw[k]);
  }
  const moves = [];
  nodes.forEach((node, k) => {
    for (const [id, side] of [
      ["B", 0],
      ["W", 1],
    ]) {
      for (const v of node[id] || []) {
        const p = point(v, `move ${moves.length + 1} (node ${k + 1})`);
        moves.push({ side, move: p.x + "," + p.y });
      }
    }
  });
  const players = [one("PB") || (game === "points" ? "Red" : "Black"), one("PW") || (game === "points" ? "Blue" : "White")].map((name) => ({ name }));
  const rec = { id: file, game, players, seats: [0, 1], moves };
  if (opening.length) rec.opening = opening.map((p) => p.x + "," + p.y);
  if (game === "gomoku") {
    rec.options = { width: W, height: H, rule: /^\d+$/.test(one("RU")) ? +one("RU") : 0 };
    checkGomoku(rec, W, file);
  } else {
    const [surround, ...flags] = (one("RU") || "standard").split(",").map((x) => x.trim());
    rec.options = { width: W, height: H, surround, grounding: flags.includes("grounding") };
    pointsEffects(rec, file);
  }
  return withResult(rec, sgfResult(one("RE"), one("TE"), game));
}

// checkGomoku refuses a stone on a stone.
function checkGomoku(rec, W, file) {
  const taken = new Set(rec.opening || []);
  rec.moves.forEach((m, k) => {
    if (taken.has(m.move)) throw new FileError(file, 0, `move ${k + 1} (${m.move}) is on an occupied square`);
    taken.add(m.move);
  });
}

// pointsEffects plays a Points game by the rules and gives each move the
// effect arena's records carry: what it captured and the score after it.
function pointsEffects(rec, file) {
  let f;
  try {
    f = new Field(rec.options.width, rec.options.height, rec.options.surround);
  } catch (e) {
    throw new FileError(file, 0, "RU: " + e.message);
  }
  (rec.opening || []).forEach((s, k) => {
    const [x, y] = s.split(",").map(Number);
    const why = f.check(x, y);
    if (why) throw new FileError(file, 0, `opening dot ${k + 1}: ${why}`);
    f.put(x, y, (k % 2) + 1);
  });
  rec.moves.forEach((m, k) => {
    const [x, y] = m.move.split(",").map(Number);
    const why = f.check(x, y);
    if (why) throw new FileError(file, 0, `move ${k + 1}: ${why}`);
    m.effect = f.put(x, y, m.side + 1);
  });
  rec.scores = [f.score[1], f.score[2]];
}

// sgfResult reads RE ("B+", "W+3", "B+T", "0", "?") and TE (arena's
// reason in words).
function sgfResult(re, te, game) {
  const m = /^\s*([BW])\+\s*(.*)$/i.exec(re);
  if (m) {
    const how = m[2].trim().toUpperCase();
    const reason = te || (how.startsWith("T") ? "timeout" : how.startsWith("R") ? "resign" : how.startsWith("F") ? "forfeit" : game === "gomoku" ? "five" : "score");
    return { side: m[1].toUpperCase() === "B" ? 0 : 1, reason };
  }
  if (/^\s*(0|draw|jigo)\s*$/i.test(re)) return { side: -1, reason: te || "draw" };
  return { side: -1, reason: te || "", detail: re && re !== "?" ? "result " + re : "the file gives no result" };
}

// --- Khet state logs (game/khet/formats.go: RecordLog) ---

const KHET_RESULT = { G: "pharaoh", G3: "repetition", GM: "max-plies", E: "error", T: "timeout" };

// parseKhetLog reads a .khet file: comment lines ("# khet ID setup NAME:
// silver A, red B" first, "# reason: detail" last) and one state string
// per line, the start, the state after each move and the final state
// again with its result. khet is games/khet.js (its parseState and play).
export function parseKhetLog(text, file, khet) {
  let head = null;
  let end = null;
  const states = [];
  lines(text).forEach((raw, k) => {
    const line = raw.trim();
    if (line === "") return;
    if (line.startsWith("#")) {
      const h = /^#\s*khet\s+(.*?)\s+setup\s+(\S+):\s*silver\s+(.*?),\s*red\s+(.*)$/.exec(line);
      if (h && !head) head = { id: h[1], setup: h[2], silver: h[3], red: h[4] };
      else if (states.length) end = line.replace(/^#\s*/, "");
      return;
    }
    const st = khet.parseState(line);
    if (!st) throw new FileError(file, k + 1, `${clip(line)} is not a Khet state string ("<result|-> <last|-> <plies> <count> <pieces...>")`);
    if (states.length) {
      const prev = states[states.length - 1].st;
      if (st.plies !== prev.plies + 1 && st.plies !== prev.plies) throw new FileError(file, k + 1, `ply ${st.plies} follows ply ${prev.plies}`);
    } else if (st.plies !== 0 && st.last) {
      throw new FileError(file, k + 1, `the first state is ply ${st.plies}: want the start of the game (ply 0)`);
    }
    states.push({ st, text: line, line: k + 1 });
  });
  if (!states.length) throw new FileError(file, 0, "no Khet state string in the file (want one per line, the start first)");
  const rules = {};
  const moves = [];
  let prev = states[0].st;
  for (const { st, text, line } of states.slice(1)) {
    if (st.plies === prev.plies) {
      prev = st; // the final state, sent again with the result
      continue;
    }
    const move = st.last.split("#")[0];
    if (!/^[SR]\d\d[0-8Cc]$/.test(move)) throw new FileError(file, line, `the last move ${clip(st.last)} is not a Khet move like S23C`);
    const effect = { state: text };
    // The laser's path, worked out again: the file has only where it
    // started; a move the rules here do not reproduce keeps none.
    const played = khet.play(prev.board, move, rules);
    if (played && played.board.every((p, i) => p === st.board[i])) {
      effect.path = played.path;
      if (played.removed) effect.removed = played.removed;
    }
    moves.push({ side: moves.length % 2, move, effect });
    prev = st;
  }
  const names = head ? [head.silver, head.red] : ["Silver", "Red"];
  const rec = {
    id: file,
    game: "khet",
    options: { setup: head ? head.setup : "", initial: states[0].text, final: states[states.length - 1].text },
    players: names.map((name) => ({ name })),
    seats: [0, 1],
    moves,
  };
  const r = prev.result;
  const side = !r || r[0] === "d" ? -1 : r[0] === "S" ? 0 : 1;
  const reason = (end && /^[a-z-]+/.exec(end)?.[0]) || KHET_RESULT[r.slice(1)] || (r ? "" : "");
  const detail = end && end.includes(":") ? end.slice(end.indexOf(":") + 1).trim() : r ? "" : "the game stops here without a result";
  return withResult(rec, { side, reason, detail });
}

// --- arena's JSON records ---

// checkRecord checks the shape of arena's JSON record (game.Record).
export function checkRecord(obj, file) {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new FileError(file, 0, "the JSON is not an object");
  if (typeof obj.game !== "string" || !/^[a-z0-9_-]+$/.test(obj.game)) throw new FileError(file, 0, "the record names no game (\"game\": \"gomoku\", ...)");
  if (!Array.isArray(obj.moves)) throw new FileError(file, 0, "the record has no list of moves");
  obj.moves.forEach((m, k) => {
    if (!m || typeof m !== "object" || typeof m.move !== "string") throw new FileError(file, 0, `move ${k + 1} is not {"side": N, "move": "..."}`);
  });
  if (obj.players !== undefined && !Array.isArray(obj.players)) throw new FileError(file, 0, "\"players\" is not a list");
  return obj;
}
