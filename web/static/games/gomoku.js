// Gomoku view: a Go-style board of any size with coordinates on every side
// (column letters, row numbers from the bottom, as moves are written),
// stones with their move numbers (toggleable), the last stone marked and,
// when the shown position ends with a winning line, that line drawn through
// the stones. The rule for "winning" comes from the record's options (five
// or more, exactly five, renju, caro), mirroring game/gomoku/state.go.
//
// Every stone gets its SVG element once, when it is pushed; show(n) only
// toggles the stones between the shown ply and n, so stepping and seeking
// cost the distance moved, never a redraw of the board.

import { showMessage } from "../api.js";
import { el, options, parsePoint } from "./shared.js";

const CELL = 30; // user units between two lines
const MARGIN = 32; // room for the coordinates
const BLACK = 1;
const WHITE = 2;
// Rule bits of game/gomoku/types.go.
const EXACT_FIVE = 1;
const CONTINUOUS = 2;
const RENJU = 4;
const CARO = 8;
const DIRS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [-1, 1],
];

function create(root, header) {
  const opts = options(header);
  const W = Math.max(1, opts.width || 20);
  const H = Math.max(1, opts.height || opts.width || 20);
  const rule = opts.rule || 0;
  const px = (x) => MARGIN + x * CELL;
  const inside = (x, y) => x >= 0 && y >= 0 && x < W && y < H;

  const board = document.createElement("div");
  board.className = "board";
  board.dataset.game = "gomoku";
  board.dataset.ply = "0";
  board.dataset.over = "0";
  const svgW = 2 * MARGIN + (W - 1) * CELL;
  const svgH = 2 * MARGIN + (H - 1) * CELL;
  const svg = el("svg", {
    viewBox: `0 0 ${svgW} ${svgH}`,
    class: "gomoku-svg",
    role: "img",
    "aria-label": `Gomoku board ${W}x${H}`,
  });
  svg.style.cssText = "display:block;width:100%;max-width:" + Math.max(480, svgW) + "px;max-height:82vh;user-select:none";
  board.appendChild(svg);
  el("style", {}, svg).textContent =
    ".gomoku-svg.nonum .num{display:none}.gomoku-svg.gk-input .gk-hit.free{cursor:pointer}" +
    ".gomoku-svg .num{font:600 12px sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}" +
    ".gomoku-svg .coord{font:11px sans-serif;fill:#5a4321;text-anchor:middle;dominant-baseline:central}";

  // Board, grid and coordinates: drawn once.
  el("rect", { x: 0, y: 0, width: svgW, height: svgH, fill: "#dcb35c", rx: 6 }, svg);
  const grid = el("g", { stroke: "#5a4321", "stroke-width": 1 }, svg);
  let d = "";
  for (let x = 0; x < W; x++) d += `M${px(x)} ${px(0)}V${px(H - 1)}`;
  for (let y = 0; y < H; y++) d += `M${px(0)} ${px(y)}H${px(W - 1)}`;
  el("path", { d, fill: "none" }, grid);
  if (W % 2 && H % 2) el("circle", { cx: px((W - 1) / 2), cy: px((H - 1) / 2), r: 3, fill: "#5a4321" }, svg);
  // Coordinates as players write them: column letters from the left,
  // row numbers from the bottom (the protocol's y counts from the top).
  const colLabel = (x) => (x >= 26 ? String.fromCharCode(65 + Math.floor(x / 26) - 1) : "") + String.fromCharCode(65 + (x % 26));
  const rowLabel = (y) => String(H - y);
  const label = (p) => (p && inside(p.x, p.y) ? colLabel(p.x) + rowLabel(p.y) : null);
  const coords = el("g", { class: "coord" }, svg);
  for (let x = 0; x < W; x++) {
    for (const y of [MARGIN / 2 - 2, svgH - MARGIN / 2 + 2]) el("text", { x: px(x), y, "data-col": x }, coords).textContent = colLabel(x);
  }
  for (let y = 0; y < H; y++) {
    for (const x of [MARGIN / 2 - 3, svgW - MARGIN / 2 + 3]) el("text", { x, y: px(y), "data-row": y }, coords).textContent = rowLabel(y);
  }

  const winUnder = el("g", { "pointer-events": "none" }, svg);
  const stonesLayer = el("g", {}, svg);
  const winLayer = el("g", { "pointer-events": "none" }, svg);
  const lastMark = el("circle", { r: CELL * 0.47, fill: "none", stroke: "#e53935", "stroke-width": 2.5, display: "none" }, svg);
  const preview = el("circle", { r: CELL * 0.44, "fill-opacity": 0.45, display: "none", "pointer-events": "none" }, svg);
  const hitLayer = el("g", { fill: "transparent" }, svg);
  const hits = new Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      hits[y * W + x] = el(
        "rect",
        { x: px(x) - CELL / 2, y: px(y) - CELL / 2, width: CELL, height: CELL, class: "gk-hit free", "data-move": `${x},${y}` },
        hitLayer,
      );
    }
  }

  const bar = document.createElement("div");
  bar.className = "view-toolbar";
  const numBtn = document.createElement("button");
  numBtn.type = "button";
  numBtn.dataset.action = "numbers";
  numBtn.textContent = "Move numbers";
  numBtn.setAttribute("aria-pressed", "true");
  bar.appendChild(numBtn);
  board.appendChild(bar);
  root.appendChild(board);

  // stones[i] is the i-th stone of the game, opening stones first.
  const stones = [];
  const opening = [];
  const moves = [];
  const latest = new Uint8Array(W * H); // the position after every pushed move
  const shown = new Uint8Array(W * H); // the position on screen
  let shownCount = 0; // stones on screen
  let cur = 0; // ply on screen
  let over = false;
  let inputSide = null;
  let send = null;
  let numbers = true;
  try {
    numbers = localStorage.getItem("arena.gomoku.numbers") !== "0";
  } catch {
    // No storage (private windows): numbers stay on.
  }

  function addStone(p, colour) {
    const i = stones.length;
    const s = { p, colour, g: null };
    if (p && inside(p.x, p.y)) {
      const g = el("g", { display: "none" }, stonesLayer);
      el(
        "circle",
        {
          cx: px(p.x),
          cy: px(p.y),
          r: CELL * 0.45,
          fill: colour === BLACK ? "#1b1b1b" : "#f7f7f2",
          stroke: colour === BLACK ? "#000" : "#777",
          "stroke-width": 1,
        },
        g,
      );
      const t = el("text", { x: px(p.x), y: px(p.y) + 0.5, class: "num", fill: colour === BLACK ? "#fff" : "#111" }, g);
      t.textContent = i + 1;
      if (i >= 99) t.style.fontSize = "10px";
      s.g = g;
      latest[p.y * W + p.x] = colour;
    }
    stones.push(s);
  }

  for (const m of header.opening || []) {
    const p = parsePoint(m);
    opening.push(p);
    addStone(p, opening.length % 2 ? BLACK : WHITE);
  }

  function toMove() {
    // side 0 is Black; the opening alternates from Black.
    if (moves.length) return 1 - moves[moves.length - 1].side;
    return opening.length % 2;
  }

  function setStone(i, on) {
    const s = stones[i];
    if (!s.g) return;
    s.g.setAttribute("display", on ? "inline" : "none");
    shown[s.p.y * W + s.p.x] = on ? s.colour : 0;
    hits[s.p.y * W + s.p.x].classList.toggle("free", !on);
  }

  // fives lists the winning lines through the stone on p in grid g, by the
  // rule of the options (see State.winning in game/gomoku/state.go).
  function fives(g, p) {
    const me = g[p.y * W + p.x];
    if (!me) return [];
    const opp = me === BLACK ? WHITE : BLACK;
    const out = [];
    for (const [dx, dy] of DIRS) {
      let back = 0;
      let fwd = 0;
      while (inside(p.x - (back + 1) * dx, p.y - (back + 1) * dy) && g[(p.y - (back + 1) * dy) * W + p.x - (back + 1) * dx] === me) back++;
      while (inside(p.x + (fwd + 1) * dx, p.y + (fwd + 1) * dy) && g[(p.y + (fwd + 1) * dy) * W + p.x + (fwd + 1) * dx] === me) fwd++;
      const n = back + fwd + 1;
      let win = n >= 5;
      if (win && rule & RENJU) win = n === 5 || me === WHITE;
      else if (win && rule & EXACT_FIVE) win = n === 5;
      else if (win && rule & CARO) {
        const at = (k) => {
          const x = p.x + k * dx;
          const y = p.y + k * dy;
          return inside(x, y) ? g[y * W + x] : 0;
        };
        win = at(-(back + 1)) !== opp || at(fwd + 1) !== opp;
      }
      if (win) out.push([{ x: p.x - back * dx, y: p.y - back * dy }, { x: p.x + fwd * dx, y: p.y + fwd * dy }]);
    }
    return out;
  }

  function drawWin(lines) {
    winLayer.replaceChildren();
    winUnder.replaceChildren();
    for (const [a, b] of lines) {
      const n = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
      const dx = Math.sign(b.x - a.x);
      const dy = Math.sign(b.y - a.y);
      for (let k = 0; k <= n; k++) {
        el("circle", { cx: px(a.x + k * dx), cy: px(a.y + k * dy), r: CELL * 0.47, fill: "none", stroke: "#e53935", "stroke-width": 3, class: "win-stone" }, winLayer);
      }
      el(
        "line",
        { x1: px(a.x), y1: px(a.y), x2: px(b.x), y2: px(b.y), stroke: "#e53935", "stroke-width": 4, "stroke-linecap": "round", class: "win-line" },
        winUnder,
      );
    }
  }

  // positionOver reports whether the latest position ends the game by
  // itself: a winning line (continuous games go on after one) or a full
  // board. Other ends (fouls, limits, faults) come with result().
  function positionOver() {
    if (stones.length >= W * H) return true;
    if (rule & CONTINUOUS || !moves.length) return false;
    const last = stones[stones.length - 1];
    return !!(last.p && inside(last.p.x, last.p.y)) && fives(latest, last.p).length > 0;
  }

  function updateOver() {
    board.dataset.over = over || positionOver() ? "1" : "0";
  }

  function show(n) {
    n = Math.max(0, Math.min(n | 0, moves.length));
    const want = opening.length + n;
    while (shownCount < want) setStone(shownCount++, true);
    while (shownCount > want) setStone(--shownCount, false);
    cur = n;
    const last = shownCount > 0 ? stones[shownCount - 1] : null;
    if (last && last.g && n > 0) {
      lastMark.setAttribute("cx", px(last.p.x));
      lastMark.setAttribute("cy", px(last.p.y));
      lastMark.setAttribute("display", "inline");
    } else {
      lastMark.setAttribute("display", "none");
    }
    drawWin(last && last.g ? fives(shown, last.p) : []);
    preview.setAttribute("display", "none");
    board.dataset.ply = String(n);
  }

  function canPlay() {
    return inputSide !== null && send && !over && !positionOver() && toMove() === inputSide;
  }

  function cellOf(e) {
    const t = e.target.closest && e.target.closest("[data-move]");
    return t ? parsePoint(t.dataset.move) : null;
  }

  function onMove(e) {
    const p = cellOf(e);
    if (!p || !canPlay() || latest[p.y * W + p.x]) {
      preview.setAttribute("display", "none");
      return;
    }
    preview.setAttribute("cx", px(p.x));
    preview.setAttribute("cy", px(p.y));
    preview.setAttribute("fill", inputSide === 0 ? "#1b1b1b" : "#fff");
    preview.setAttribute("display", "inline");
  }

  function onClick(e) {
    const p = cellOf(e);
    if (!p || !canPlay()) return;
    if (latest[p.y * W + p.x]) {
      // Judged here, so a taken point never reaches the server; the
      // person still learns why nothing happened.
      showMessage(`${label(p)} is taken: choose an empty point`, true);
      return;
    }
    if (cur !== moves.length) show(moves.length);
    send(`${p.x},${p.y}`);
  }

  function onLeave() {
    preview.setAttribute("display", "none");
  }

  function onNumbers() {
    numbers = !numbers;
    drawNumbers();
    try {
      localStorage.setItem("arena.gomoku.numbers", numbers ? "1" : "0");
    } catch {
      // The choice then lasts for this board only.
    }
  }

  function drawNumbers() {
    svg.classList.toggle("nonum", !numbers);
    numBtn.setAttribute("aria-pressed", String(numbers));
  }

  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerleave", onLeave);
  svg.addEventListener("click", onClick);
  numBtn.addEventListener("click", onNumbers);

  drawNumbers();
  show(0);

  return {
    push(m) {
      const p = parsePoint(m.move);
      const side = m.side === 1 ? 1 : 0;
      moves.push({ side, p, text: String(m.move) });
      addStone(p, side === 0 ? BLACK : WHITE);
      updateOver();
    },
    length: () => moves.length,
    // moveText names move ply (1 for the first) by the board's own
    // labels ("H8"); a move off the board keeps its protocol text.
    moveText(ply) {
      const mv = moves[ply - 1];
      return mv ? { label: label(mv.p) || mv.text } : null;
    },
    show,
    input(side, fn) {
      inputSide = side === null || side === undefined ? null : side;
      send = inputSide === null ? null : fn;
      svg.classList.toggle("gk-input", inputSide !== null);
      if (inputSide === null) preview.setAttribute("display", "none");
    },
    result(record) {
      over = !!record;
      updateOver();
    },
    destroy() {
      svg.removeEventListener("pointermove", onMove);
      svg.removeEventListener("pointerleave", onLeave);
      svg.removeEventListener("click", onClick);
      numBtn.removeEventListener("click", onNumbers);
      board.remove();
    },
  };
}

export default { create };
