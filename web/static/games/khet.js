// Khet view: the 10x8 board with the restricted squares tinted in their
// colour, every piece drawn by kind and turned to its orientation, the last
// shot's laser from the Sphinx to where it stopped, and the piece it
// removed shown fading under a cross. A person clicks one of their pieces,
// sees the squares it may step to (legal moves worked out here as
// game/khet/move.go does; the server still judges) and clicks one, or a
// rotate button; the move goes out in the Tartu notation, e.g. "S23C".
// Moves are also said in words for the move list and the caption
// ("Silver 2,3 rotates clockwise").
//
// Positions come from the state string each move's effect carries (the
// format of State.String in game/khet/state.go); a move without one is
// played here with the same rules and laser. show(n) compares the 80
// squares of the shown position with those of position n and redraws only
// the squares that differ.

import { showMessage } from "../api.js";
import { el, options, effectOf } from "./shared.js";

const W = 10;
const H = 8;
const S = 60; // square size in user units
const M = 24; // margin for coordinates
const UP = [0, -1];
const DELTA = [UP, [1, 0], [0, 1], [-1, 0]]; // direction 0 up, 1 right, 2 down, 3 left
const KIND = { P: "pharaoh", C: "scarab", A: "anubis", Y: "pyramid", X: "sphinx" };
const COLOUR = ["silver", "red"];
const BODY = ["#dfe3e8", "#d8403a"];
const EDGE = ["#4f5864", "#6d1511"];
const MIRROR = "#5fd3f3";
// The classic setup, for a header without its initial state string.
const CLASSIC =
  "- - 0 26 R00X2 R40A2 R50P2 R60A2 R70Y1 R21Y2 S32Y3 R03Y0 S23Y2 R43C0 R53C1 R73Y1 S93Y3 R04Y1 S24Y3 S44C3 S54C2 R74Y0 S94Y2 R65Y1 S76Y0 S27Y3 S37A0 S47P0 S57A0 S97X0";

// A piece is a 3-character code: colour letter, kind letter, direction
// digit ("SY3"); an empty square is "".
const pieceColour = (p) => (p[0] === "S" ? 0 : 1);

// restricted: 1 silver may not enter (Red's squares), 2 red may not enter.
function restricted(x, y) {
  if (x === 0 || (x === 8 && (y === 0 || y === 7))) return 1;
  if (x === W - 1 || (x === 1 && (y === 0 || y === 7))) return 2;
  return 0;
}

const allowed = (c, x, y) => x >= 0 && y >= 0 && x < W && y < H && restricted(x, y) !== c + 1;

// parseState reads "<result|-> <last|-> <plies> <count> <pieces...>"; null
// when it is not one.
export function parseState(text) {
  const f = String(text || "").trim().split(/\s+/);
  if (f.length < 4) return null;
  const plies = parseInt(f[2], 10);
  const count = parseInt(f[3], 10);
  if (!(plies >= 0) || count !== f.length - 4) return null;
  const board = new Array(W * H).fill("");
  for (const t of f.slice(4)) {
    const m = /^([SR])(\d)(\d)([PCAYX])([0-3])$/.exec(t);
    if (!m || +m[2] >= W || +m[3] >= H) return null;
    board[+m[3] * W + +m[2]] = m[1] + m[4] + m[5];
  }
  return { result: f[0] === "-" ? "" : f[0], last: f[1] === "-" ? "" : f[1], plies, board };
}

// beam tells what piece p does to a beam travelling in direction t: the
// new direction, "hit" or "stop" (the table of game/khet/laser.go).
function beam(p, t) {
  const k = p[1];
  const d = +p[2];
  const entry = (t + 2) & 3;
  switch (k) {
    case "P":
      return "hit";
    case "X":
      return "stop";
    case "A":
      return entry === d ? "stop" : "hit";
    case "C":
      return d % 2 === 0 ? 3 - t : t ^ 1;
    case "Y":
      if (entry === d) return (d + 1) & 3;
      if (entry === ((d + 1) & 3)) return d;
      return "hit";
  }
  return "hit";
}

// fire follows colour c's laser on board b: the squares it crosses from the
// Sphinx (the last may be off the board) and the square it destroys (-1).
export function fire(b, c) {
  const letter = "SR"[c];
  const at = b.findIndex((p) => p && p[0] === letter && p[1] === "X");
  if (at < 0) return { path: [], hit: -1 };
  let x = at % W;
  let y = (at / W) | 0;
  let dir = +b[at][2];
  const path = [[x, y]];
  for (let i = 0; i < 4 * W * H; i++) {
    x += DELTA[dir][0];
    y += DELTA[dir][1];
    path.push([x, y]);
    if (x < 0 || y < 0 || x >= W || y >= H) break;
    const p = b[y * W + x];
    if (!p) continue;
    const out = beam(p, dir);
    if (out === "hit") return { path, hit: y * W + x };
    if (out === "stop") break;
    dir = out;
  }
  return { path, hit: -1 };
}

// legalMoves lists the moves of the piece on (x, y) for its owner, as
// Board.Moves does: { text, to } with to the target square or -1 for a
// rotation.
export function legalMoves(b, x, y, rules) {
  const p = b[y * W + x];
  if (!p) return [];
  const c = pieceColour(p);
  const L = p[0];
  const out = [];
  const rot = (a) => out.push({ text: `${L}${x}${y}${a}`, to: -1, rotate: a });
  if (p[1] === "X") {
    for (const [a, turn] of [
      ["C", 1],
      ["c", 3],
    ]) {
      const d = (+p[2] + turn) & 3;
      const nx = x + DELTA[d][0];
      const ny = y + DELTA[d][1];
      if (nx >= 0 && ny >= 0 && nx < W && ny < H) rot(a);
    }
    return out;
  }
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      const nx = x + dx;
      const ny = y + dy;
      if (!allowed(c, nx, ny)) continue;
      const t = b[ny * W + nx];
      const swap = p[1] === "C" && t && (t[1] === "Y" || t[1] === "A") && (rules.swapMoverOnly || allowed(pieceColour(t), x, y));
      if (!t || swap) out.push({ text: `${L}${x}${y}${(dy + 1) * 3 + dx + 1}`, to: ny * W + nx });
    }
  }
  if (p[1] !== "P" || rules.pharaohRotation) {
    rot("C");
    rot("c");
  }
  return out;
}

// play applies a move text to board b (a copy is returned) and fires the
// mover's laser; null when the text is no move of b.
export function play(b, text, rules) {
  const m = /^([SR])(\d)(\d)([0-8Cc])$/.exec(String(text));
  if (!m) return null;
  const x = +m[2];
  const y = +m[3];
  if (x >= W || y >= H) return null;
  const mv = legalMoves(b, x, y, rules).find((l) => l.text === text);
  if (!mv || b[y * W + x][0] !== m[1]) return null;
  const n = b.slice();
  const from = y * W + x;
  if (mv.to < 0) {
    const p = n[from];
    n[from] = p.slice(0, 2) + ((+p[2] + (m[4] === "C" ? 1 : 3)) & 3);
  } else {
    [n[from], n[mv.to]] = [n[mv.to], n[from]];
  }
  const shot = fire(n, m[1] === "S" ? 0 : 1);
  let removed = "";
  if (shot.hit >= 0) {
    const p = n[shot.hit];
    removed = `${p[0]}${shot.hit % W}${(shot.hit / W) | 0}${p[1]}${p[2]}`;
    n[shot.hit] = "";
  }
  return { board: n, path: shot.path, removed };
}

// drawPiece draws piece p facing up into g; the caller turns g.
function drawPiece(g, p) {
  const c = pieceColour(p);
  const body = BODY[c];
  const edge = EDGE[c];
  const sw = 2;
  switch (p[1]) {
    case "P":
      el("rect", { x: -20, y: -20, width: 40, height: 40, rx: 9, fill: body, stroke: edge, "stroke-width": sw }, g);
      el("circle", { cx: 0, cy: 0, r: 11, fill: "#f2c230", stroke: edge, "stroke-width": 1.5 }, g);
      el("path", { d: "M-7 -3L0 -10L7 -3", fill: "none", stroke: edge, "stroke-width": 2 }, g);
      break;
    case "X":
      el("rect", { x: -21, y: -21, width: 42, height: 42, rx: 4, fill: body, stroke: edge, "stroke-width": sw }, g);
      el("path", { d: "M0 -25L-11 -5H11Z", fill: edge }, g);
      el("circle", { cx: 0, cy: 6, r: 6, fill: "#ff1744", stroke: edge, "stroke-width": 1.5 }, g);
      break;
    case "A":
      el("rect", { x: -15, y: -12, width: 30, height: 32, rx: 5, fill: body, stroke: edge, "stroke-width": sw }, g);
      el("rect", { x: -22, y: -24, width: 44, height: 11, rx: 3, fill: "#c9a227", stroke: edge, "stroke-width": sw }, g);
      break;
    case "Y":
      el("path", { d: "M-23 -23L-23 23L23 23Z", fill: body, stroke: edge, "stroke-width": sw, "stroke-linejoin": "round" }, g);
      el("path", { d: "M-20 -17L17 20", stroke: MIRROR, "stroke-width": 5, "stroke-linecap": "round" }, g);
      break;
    case "C":
      el("path", { d: "M-24 -15L-15 -24L24 15L15 24Z", fill: body, stroke: MIRROR, "stroke-width": 3, "stroke-linejoin": "round" }, g);
      el("circle", { cx: 0, cy: 0, r: 7, fill: edge }, g);
      break;
  }
}

// resultText words the state string's result field (SG, dG3, RT ...).
function resultText(r) {
  if (!r) return "";
  const why = { G: "the pharaoh was hit", G3: "the position occurred a third time", GM: "the ply limit", E: "an error", T: "time" }[r.slice(1)] || r;
  if (r[0] === "d") return ` Draw: ${why}.`;
  return ` ${r[0] === "S" ? "Silver" : "Red"} wins: ${why}.`;
}

function pieceName(p) {
  return `${COLOUR[pieceColour(p)]} ${KIND[p[1]]}`;
}

// moveWords says a move in words, on board b (the position before it),
// for each form of game/khet/move.go: "Silver 5,3 rotates clockwise",
// "Red 4,3 moves to 5,4", "Silver 4,4 swaps with the red pyramid on 5,3";
// null for a text that is no move.
export function moveWords(b, text) {
  const m = /^([SR])(\d)(\d)([0-8Cc])$/.exec(String(text));
  if (!m || m[4] === "4") return null;
  const who = `${m[1] === "S" ? "Silver" : "Red"} ${m[2]},${m[3]}`;
  if (m[4] === "C") return `${who} rotates clockwise`;
  if (m[4] === "c") return `${who} rotates counter-clockwise`;
  const tx = +m[2] + (+m[4] % 3) - 1;
  const ty = +m[3] + Math.floor(+m[4] / 3) - 1;
  const there = tx >= 0 && ty >= 0 && tx < W && ty < H ? b[ty * W + tx] : "";
  if (there) return `${who} swaps with the ${pieceName(there)} on ${tx},${ty}`;
  return `${who} moves to ${tx},${ty}`;
}

let instances = 0;

function create(root, header) {
  const opts = options(header);
  const rules = { pharaohRotation: !!opts.pharaoh_rotation, swapMoverOnly: !!opts.swap_mover_only };
  const cx = (x) => M + x * S + S / 2;

  const board = document.createElement("div");
  board.className = "board";
  board.dataset.game = "khet";
  board.dataset.ply = "0";
  board.dataset.over = "0";
  const svgW = 2 * M + W * S;
  const svgH = 2 * M + H * S;
  const svg = el("svg", { viewBox: `0 0 ${svgW} ${svgH}`, class: "khet-svg", role: "img", "aria-label": "Khet board" });
  svg.style.cssText = "display:block;width:100%;max-width:760px;max-height:78vh;user-select:none";
  board.appendChild(svg);
  el("style", {}, svg).textContent =
    ".khet-svg .coord{font:12px sans-serif;fill:#cfc8b8;text-anchor:middle;dominant-baseline:central}" +
    ".khet-svg.kh-input .sq.own,.khet-svg.kh-input .sq.target{cursor:pointer}" +
    ".khet-svg .fade{opacity:.4;animation:khet-fade .9s ease-out}@keyframes khet-fade{from{opacity:1}to{opacity:.4}}";
  el("rect", { x: 0, y: 0, width: svgW, height: svgH, fill: "#3b3a36", rx: 6 }, svg);
  // Coordinates for each orientation: flipped, the board turns half round
  // (Red's home row at the bottom) and the labels count the other way.
  const coords = [false, true].map((flipped) => {
    const g = el("g", { class: "coord", display: flipped ? "none" : "inline" }, svg);
    for (let i = 0; i < W; i++) {
      const x = flipped ? W - 1 - i : i;
      el("text", { x: cx(i), y: M / 2 }, g).textContent = x;
      el("text", { x: cx(i), y: svgH - M / 2 }, g).textContent = x;
    }
    for (let i = 0; i < H; i++) {
      const y = flipped ? H - 1 - i : i;
      el("text", { x: M / 2, y: cx(i) }, g).textContent = y;
      el("text", { x: svgW - M / 2, y: cx(i) }, g).textContent = y;
    }
    return g;
  });
  const field = el("g", { class: "field" }, svg);
  const sqLayer = el("g", {}, field);
  const sqs = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const r = restricted(x, y);
      const fill = r === 1 ? "#e9b3ae" : r === 2 ? "#c3ccd8" : (x + y) % 2 ? "#e8e1cf" : "#f1ebdc";
      sqs.push(el("rect", { x: M + x * S, y: M + y * S, width: S, height: S, fill, stroke: "#9c9380", "stroke-width": 0.8, class: "sq", "data-square": `${x},${y}` }, sqLayer));
    }
  }
  // Layers above the squares never take clicks: the squares are the targets.
  const markLayer = el("g", { "pointer-events": "none" }, field);
  const pieceLayer = el("g", { "pointer-events": "none" }, field);
  const laserLayer = el("g", { "pointer-events": "none" }, field);
  const removedLayer = el("g", { "pointer-events": "none" }, field);
  const selLayer = el("g", { "pointer-events": "none" }, field);

  const caption = document.createElement("div");
  caption.className = "khet-caption";
  caption.style.cssText = "font:14px sans-serif;margin:6px 4px;min-height:1.3em";
  const bar = document.createElement("div");
  bar.className = "view-toolbar";
  bar.style.cssText = "display:flex;gap:8px;align-items:center;margin:4px;min-height:32px";
  board.append(caption, bar);
  root.appendChild(board);

  const initial = parseState(opts.initial) || parseState(CLASSIC);
  // positions[n]: { board, last, path, removed, result } after n moves.
  const positions = [{ board: initial.board, last: "", path: null, removed: "", result: initial.result }];
  const moves = [];
  // Each kind of piece is drawn once, facing up, and every square shows it
  // through a <use> turned to the piece's direction: a changed square is a
  // few attribute writes.
  const uid = "khet" + ++instances;
  const defs = el("defs", {}, svg);
  for (const c of "SR") {
    for (const k of "PCAYX") drawPiece(el("g", { id: `${uid}-${c}${k}` }, defs), c + k + "0");
  }
  const pieceEls = [];
  for (let i = 0; i < W * H; i++) pieceEls.push(el("use", { display: "none", class: "piece" }, pieceLayer));
  const shownCodes = new Array(W * H).fill("");
  let cur = -1;
  let over = false;
  let inputSide = null;
  let send = null;
  let selected = -1;
  let choices = [];

  function drawSquare(i, code) {
    shownCodes[i] = code;
    sqs[i].classList.toggle("own", !!code && inputSide !== null && pieceColour(code) === inputSide);
    const u = pieceEls[i];
    if (!code) {
      u.setAttribute("display", "none");
      u.removeAttribute("data-piece");
      return;
    }
    const x = i % W;
    const y = (i / W) | 0;
    u.setAttribute("href", `#${uid}-${code[0]}${code[1]}`);
    u.setAttribute("transform", `translate(${cx(x)} ${cx(y)}) rotate(${90 * +code[2]})`);
    u.setAttribute("data-piece", code);
    u.setAttribute("display", "inline");
  }

  function lastSquares(last) {
    const m = /^([SR])(\d)(\d)([0-8Cc])/.exec(last || "");
    if (!m) return [];
    const x = +m[2];
    const y = +m[3];
    const out = [[x, y]];
    if (m[4] !== "C" && m[4] !== "c") out.push([x + (+m[4] % 3) - 1, y + Math.floor(+m[4] / 3) - 1]);
    return out;
  }

  function drawMarks(pos) {
    markLayer.replaceChildren();
    for (const [x, y] of lastSquares(pos.last)) {
      if (x < 0 || y < 0 || x >= W || y >= H) continue;
      el("rect", { x: M + x * S + 2, y: M + y * S + 2, width: S - 4, height: S - 4, fill: "#ffe066", "fill-opacity": 0.55, class: "last-move" }, markLayer);
    }
  }

  function drawLaser(pos) {
    laserLayer.replaceChildren();
    removedLayer.replaceChildren();
    const path = pos.path;
    if (!path || path.length < 2) return;
    const pts = path.map(([x, y]) => [cx(x), cx(y)]);
    const [lx, ly] = path[path.length - 1];
    if (lx < 0 || ly < 0 || lx >= W || ly >= H) {
      // The beam left the board: stop it at the edge.
      const [ax, ay] = pts[pts.length - 2];
      const [bx, by] = pts[pts.length - 1];
      pts[pts.length - 1] = [(ax + bx) / 2, (ay + by) / 2];
    }
    const points = pts.map((p) => p.join(",")).join(" ");
    el("polyline", { points, fill: "none", stroke: "#fff176", "stroke-opacity": 0.55, "stroke-width": 9, "stroke-linejoin": "round", "stroke-linecap": "round" }, laserLayer);
    el("polyline", { points, fill: "none", stroke: "#ff1744", "stroke-width": 3, "stroke-linejoin": "round", "stroke-linecap": "round", class: "laser" }, laserLayer);
    const m = /^([SR])(\d)(\d)([PCAYX])([0-3])$/.exec(pos.removed || "");
    if (m) {
      const x = +m[2];
      const y = +m[3];
      const code = m[1] + m[4] + m[5];
      const g = el("g", { class: "removed", "data-piece": code }, removedLayer);
      el("use", { href: `#${uid}-${code[0]}${code[1]}`, transform: `translate(${cx(x)} ${cx(y)}) rotate(${90 * +m[5]})`, class: "fade" }, g);
      el("path", { d: `M${cx(x) - 20} ${cx(y) - 20}L${cx(x) + 20} ${cx(y) + 20}M${cx(x) + 20} ${cx(y) - 20}L${cx(x) - 20} ${cx(y) + 20}`, stroke: "#b71c1c", "stroke-width": 5, "stroke-linecap": "round" }, g);
      el("title", {}, g).textContent = `${pieceName(code)} removed from ${x},${y}`;
    }
  }

  function describe(n) {
    if (n === 0) return "Start position: Silver moves first.";
    const pos = positions[n];
    const mv = moves[n - 1];
    const words = moveWords(positions[n - 1].board, mv.text);
    let t = `${n}. ${mv.text}` + (words ? `: ${words}` : "");
    const m = /^([SR])(\d)(\d)([PCAYX])([0-3])$/.exec(pos.removed || "");
    t += m ? ` — the laser removed the ${pieceName(m[1] + m[4] + m[5])} on ${m[2]},${m[3]}` : " — the laser removed nothing";
    return t + "." + resultText(pos.result);
  }

  function latest() {
    return positions[positions.length - 1];
  }

  function gameOver() {
    return over || !!latest().result;
  }

  function show(n) {
    n = Math.max(0, Math.min(n | 0, moves.length));
    const pos = positions[n];
    for (let i = 0; i < W * H; i++) if (pos.board[i] !== shownCodes[i] || cur < 0) drawSquare(i, pos.board[i]);
    if (n !== cur) {
      drawMarks(pos);
      drawLaser(pos);
      caption.textContent = describe(n);
    }
    if (n !== moves.length) clearSelection();
    cur = n;
    board.dataset.ply = String(n);
  }

  function push(m) {
    const prev = latest();
    const text = String(m.move || "");
    const eff = effectOf(m);
    const st = parseState(eff.state);
    let pos;
    if (st) {
      pos = { board: st.board, last: text, path: Array.isArray(eff.path) ? eff.path : null, removed: eff.removed || "", result: st.result };
    } else {
      const r = play(prev.board, text, rules);
      pos = r
        ? { board: r.board, last: text, path: r.path, removed: r.removed, result: "" }
        : { board: prev.board, last: text, path: null, removed: "", result: "" };
      if (r && r.removed && r.removed[3] === "P") pos.result = (r.removed[0] === "S" ? "R" : "S") + "G";
    }
    moves.push({ side: m.side, text });
    positions.push(pos);
    clearSelection();
    board.dataset.over = gameOver() ? "1" : "0";
  }

  function toMove() {
    return moves.length % 2;
  }

  function canMove() {
    return inputSide !== null && send && !gameOver() && toMove() === inputSide;
  }

  function clearSelection() {
    selected = -1;
    choices = [];
    selLayer.replaceChildren();
    for (const s of sqs) s.classList.remove("target");
    bar.replaceChildren();
  }

  function select(i) {
    clearSelection();
    const b = latest().board;
    selected = i;
    const x = i % W;
    const y = (i / W) | 0;
    choices = legalMoves(b, x, y, rules);
    el("rect", { x: M + x * S + 2, y: M + y * S + 2, width: S - 4, height: S - 4, fill: "none", stroke: "#2e7d32", "stroke-width": 4, class: "selected" }, selLayer);
    for (const c of choices) {
      if (c.to < 0) continue;
      const tx = c.to % W;
      const ty = (c.to / W) | 0;
      sqs[c.to].classList.add("target");
      if (b[c.to]) {
        el("rect", { x: M + tx * S + 4, y: M + ty * S + 4, width: S - 8, height: S - 8, fill: "none", stroke: "#43a047", "stroke-width": 3, "stroke-dasharray": "6 4", class: "target-mark" }, selLayer);
      } else {
        el("circle", { cx: cx(tx), cy: cx(ty), r: 9, fill: "#43a047", "fill-opacity": 0.75, class: "target-mark" }, selLayer);
      }
    }
    const label = document.createElement("span");
    label.textContent = `${pieceName(b[i])} on ${x},${y}:`;
    bar.appendChild(label);
    for (const [a, action, title] of [
      ["C", "rotate-cw", "⟳ rotate clockwise"],
      ["c", "rotate-ccw", "⟲ rotate counter-clockwise"],
    ]) {
      const mv = choices.find((c) => c.rotate === a);
      if (!mv) continue;
      const btn = document.createElement("button");
      btn.type = "button";
      btn.dataset.action = action;
      btn.textContent = title;
      btn.addEventListener("click", () => submit(mv.text));
      bar.appendChild(btn);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.dataset.action = "deselect";
    cancel.textContent = "cancel";
    cancel.addEventListener("click", clearSelection);
    bar.appendChild(cancel);
  }

  function submit(text) {
    clearSelection();
    if (canMove()) send(text);
  }

  function onClick(e) {
    const t = e.target.closest && e.target.closest("[data-square]");
    if (!t || !canMove()) return;
    if (cur !== moves.length) show(moves.length);
    const [x, y] = t.dataset.square.split(",").map(Number);
    const i = y * W + x;
    const target = choices.find((c) => c.to === i);
    if (selected >= 0 && target) {
      submit(target.text);
      return;
    }
    const p = latest().board[i];
    if (p && pieceColour(p) === inputSide && i !== selected) select(i);
    else {
      if (selected < 0 || i !== selected) showMessage(selected >= 0 ? `${x},${y} is not a move of that piece` : `click one of your (${COLOUR[inputSide]}) pieces first`);
      clearSelection();
    }
  }

  let flipped = false;
  function setFlipped(on) {
    flipped = !!on;
    if (flipped) field.setAttribute("transform", `rotate(180 ${svgW / 2} ${svgH / 2})`);
    else field.removeAttribute("transform");
    coords[0].setAttribute("display", flipped ? "none" : "inline");
    coords[1].setAttribute("display", flipped ? "inline" : "none");
    board.dataset.flipped = flipped ? "1" : "0";
  }

  svg.addEventListener("click", onClick);
  show(0);
  setFlipped(false);

  return {
    push,
    length: () => moves.length,
    // moveText gives move ply (1 for the first) as the protocol writes it
    // and in words.
    moveText(ply) {
      const mv = moves[ply - 1];
      return mv ? { label: mv.text, words: moveWords(positions[ply - 1].board, mv.text) } : null;
    },
    show,
    input(side, fn) {
      inputSide = side === null || side === undefined ? null : side;
      send = inputSide === null ? null : fn;
      svg.classList.toggle("kh-input", inputSide !== null);
      clearSelection();
      for (let i = 0; i < W * H; i++) sqs[i].classList.toggle("own", !!shownCodes[i] && inputSide !== null && pieceColour(shownCodes[i]) === inputSide);
    },
    // flip turns the board half round (or back).
    flip() {
      setFlipped(!flipped);
    },
    // orient shows the board from side's seat: each player's own home row
    // at the bottom, as across a real table.
    orient(side) {
      setFlipped(side === 1);
    },
    result(record) {
      over = !!record;
      board.dataset.over = gameOver() ? "1" : "0";
      if (over) clearSelection();
    },
    destroy() {
      svg.removeEventListener("click", onClick);
      board.remove();
    },
  };
}

export default { create };
