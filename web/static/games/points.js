// Points (dots) view: a field of intersections on squared paper, red and
// blue dots (dead ones faded), every captured area filled and outlined as
// the closed chain of the capturer's dots around it, the score, the last
// dot marked and the opening crosses in place from the start.
//
// The record's effects say which points changed owner (captures with their
// areas, the score after each move); the outline of an area is worked out
// here once, when its move is pushed, from the points the capturer owned
// then (see polygon). Each move keeps its owner changes, so show(n) steps
// from the shown ply to n applying or undoing them: the cost is the moves
// crossed, and the DOM is touched only where something changes.

import { showMessage } from "../api.js";
import { el, options, parsePoint, effectOf } from "./shared.js";

const CELL = 20;
const MARGIN = 22;
const RED = 1;
const BLUE = 2;
const FILL = { [RED]: "#e53935", [BLUE]: "#1e63d6" };
const DEAD = { [RED]: "#f3a9a7", [BLUE]: "#a3bff0" };

// colourOf reads a capture's "by": game/points writes colours as words.
const colourOf = (by) => (by === "red" ? RED : by === "blue" ? BLUE : 0);

// polygon returns the outline of a captured area as closed loops of point
// indices. The area is a 4-connected set of points whose 4-neighbours the
// capturer owns, so every unit square with an area corner is either inside
// the chain entirely (two or more area corners, all corners owned) or cut by
// the chain's diagonal (one area corner: the triangle of it and its two
// neighbours, the smallest ring as the rules take it). The union of those
// pieces is the area the chain encloses; the edges used once are its outline.
// An area that is not enclosed (grounding hands such dots over) has none.
export function polygon(W, H, area, owned) {
  const inArea = new Set(area);
  // Only an enclosure has an outline: every 4-neighbour of its points is
  // on the field and the capturer's. Dots handed over by grounding touch
  // free points or the edge and get none.
  for (const i of area) {
    const x = i % W;
    const y = (i / W) | 0;
    if (x === 0 || y === 0 || x === W - 1 || y === H - 1) return [];
    for (const v of [i - 1, i + 1, i - W, i + W]) if (!inArea.has(v) && !owned(v)) return [];
  }
  const seen = new Set();
  const edges = new Map();
  const N = W * H;
  const addEdge = (a, b) => {
    const k = a < b ? a * N + b : b * N + a;
    edges.set(k, (edges.get(k) || 0) + 1);
  };
  const addPoly = (vs) => {
    for (let i = 0; i < vs.length; i++) addEdge(vs[i], vs[(i + 1) % vs.length]);
  };
  for (const i of area) {
    const x = i % W;
    const y = (i / W) | 0;
    for (const [sx, sy] of [
      [x - 1, y - 1],
      [x, y - 1],
      [x - 1, y],
      [x, y],
    ]) {
      if (sx < 0 || sy < 0 || sx >= W - 1 || sy >= H - 1) continue;
      const sq = sy * W + sx;
      if (seen.has(sq)) continue;
      seen.add(sq);
      const c = [sq, sq + 1, sq + W + 1, sq + W]; // clockwise corners
      const a = c.map((v) => inArea.has(v));
      const s = c.map((v) => inArea.has(v) || owned(v));
      const na = a.filter(Boolean).length;
      const ns = s.filter(Boolean).length;
      if (na >= 2 && ns === 4) {
        addPoly(c);
      } else if (na === 1) {
        const k = a.indexOf(true);
        const p = (k + 3) % 4;
        const q = (k + 1) % 4;
        if (s[p] && s[q]) addPoly([c[p], c[k], c[q]]);
      } else if (ns === 3) {
        addPoly(c.filter((_, j) => s[j]));
      }
    }
  }
  const adj = new Map();
  const link = (a, b) => {
    if (!adj.has(a)) adj.set(a, []);
    adj.get(a).push(b);
  };
  for (const [k, n] of edges) {
    if (n !== 1) continue;
    const a = Math.floor(k / N);
    const b = k % N;
    link(a, b);
    link(b, a);
  }
  const used = new Set();
  const key = (a, b) => (a < b ? a * N + b : b * N + a);
  const loops = [];
  for (const [start, ns] of adj) {
    for (const first of ns) {
      if (used.has(key(start, first))) continue;
      const loop = [start];
      let at = first;
      used.add(key(start, first));
      while (at !== start && loop.length <= edges.size) {
        loop.push(at);
        const next = adj.get(at).find((v) => !used.has(key(at, v)));
        if (next === undefined) break;
        used.add(key(at, next));
        at = next;
      }
      if (loop.length >= 3) loops.push(loop);
    }
  }
  return loops;
}

function create(root, header) {
  const opts = options(header);
  const W = Math.max(2, opts.width || 39);
  const H = Math.max(2, opts.height || 32);
  const N = W * H;
  const px = (x) => MARGIN + x * CELL;
  const inside = (p) => p && p.x >= 0 && p.y >= 0 && p.x < W && p.y < H;
  const players = header.players || [];
  const seats = header.seats || [0, 1];
  const nameOf = (side) => (players[seats[side]] && players[seats[side]].name) || (side ? "Blue" : "Red");

  const board = document.createElement("div");
  board.className = "board";
  board.dataset.game = "points";
  board.dataset.ply = "0";
  board.dataset.over = "0";

  const score = document.createElement("div");
  score.className = "points-score";
  score.style.cssText = "display:flex;gap:1.5em;align-items:center;font:600 15px sans-serif;margin:0 0 6px 4px";
  const scoreSpan = [];
  for (const side of [0, 1]) {
    const s = document.createElement("span");
    s.dataset.side = String(side);
    const dot = document.createElement("span");
    dot.style.cssText = `display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:6px;background:${FILL[side + 1]}`;
    const name = document.createElement("span");
    name.textContent = nameOf(side) + " ";
    const n = document.createElement("b");
    n.className = "score";
    n.textContent = "0";
    s.append(dot, name, n);
    score.appendChild(s);
    scoreSpan.push(n);
  }
  board.appendChild(score);

  const svgW = 2 * MARGIN + (W - 1) * CELL;
  const svgH = 2 * MARGIN + (H - 1) * CELL;
  const svg = el("svg", { viewBox: `0 0 ${svgW} ${svgH}`, class: "points-svg", role: "img", "aria-label": `Points field ${W}x${H}` });
  svg.style.cssText = "display:block;width:100%;max-width:" + Math.max(560, svgW * 1.2) + "px;max-height:82vh;user-select:none";
  board.appendChild(svg);
  el("style", {}, svg).textContent =
    ".points-svg.pt-input .pt-hit.free{cursor:pointer}.points-svg .coord{font:8px sans-serif;fill:#8a94a8;text-anchor:middle;dominant-baseline:central}" +
    `.points-svg .hid{display:none}.points-svg circle.dr{fill:${FILL[RED]};r:5.5px}.points-svg circle.db{fill:${FILL[BLUE]};r:5.5px}` +
    `.points-svg circle.dr.dead{fill:${DEAD[RED]};r:4px}.points-svg circle.db.dead{fill:${DEAD[BLUE]};r:4px}`;
  el("rect", { x: 0, y: 0, width: svgW, height: svgH, fill: "#fdfdf8", rx: 4 }, svg);
  let d = "";
  for (let x = 0; x < W; x++) d += `M${px(x)} ${px(0)}V${px(H - 1)}`;
  for (let y = 0; y < H; y++) d += `M${px(0)} ${px(y)}H${px(W - 1)}`;
  el("path", { d, fill: "none", stroke: "#cfd8ea", "stroke-width": 1 }, svg);
  const coords = el("g", { class: "coord" }, svg);
  for (let x = 0; x < W; x++) el("text", { x: px(x), y: MARGIN / 2 - 2 }, coords).textContent = x;
  for (let y = 0; y < H; y++) el("text", { x: MARGIN / 2 - 3, y: px(y) }, coords).textContent = y;

  const areaLayer = el("g", { "pointer-events": "none" }, svg);
  const dotLayer = el("g", { "pointer-events": "none" }, svg);
  const lastMark = el("circle", { r: 8, fill: "none", "stroke-width": 2, display: "none", "pointer-events": "none" }, svg);
  const preview = el("circle", { r: 5.5, "fill-opacity": 0.45, display: "none", "pointer-events": "none" }, svg);
  const hitLayer = el("g", { fill: "transparent" }, svg);
  const hits = new Array(N);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      hits[y * W + x] = el(
        "rect",
        { x: px(x) - CELL / 2, y: px(y) - CELL / 2, width: CELL, height: CELL, class: "pt-hit free", "data-move": `${x},${y}` },
        hitLayer,
      );
    }
  }
  root.appendChild(board);

  // The latest position (after every pushed move) and the one on screen.
  const dot = new Uint8Array(N);
  const own = new Uint8Array(N);
  const sDot = new Uint8Array(N);
  const sOwn = new Uint8Array(N);
  const capOf = new Int32Array(N).fill(-1);
  const dotEl = new Array(N);
  const dotState = new Uint8Array(N); // 0 hidden, 1 alive, 2 dead (what the DOM shows)
  const moves = []; // {side, idx, colour, changes: [idx, old, new]..., score}
  const captures = []; // {ply, by, el, hiddenAt, on}
  let free = N; // free points of the latest position
  let cur = 0;
  let over = false;
  let inputSide = null;
  let send = null;

  function makeDot(idx, colour) {
    dotEl[idx] = el("circle", { cx: px(idx % W), cy: px((idx / W) | 0), class: "hid" }, dotLayer);
  }

  // A dot's look is one class, so a change costs one attribute write.
  const hitFree = new Uint8Array(N).fill(1);

  // paint brings one point's dot and hit target in line with sDot/sOwn.
  function paint(idx) {
    const c = sDot[idx];
    const state = c === 0 ? 0 : sOwn[idx] === c || sOwn[idx] === 0 ? 1 : 2;
    if (state !== dotState[idx]) {
      const e = dotEl[idx];
      if (e) e.setAttribute("class", state === 0 ? "hid" : (c === RED ? "dr" : "db") + (state === 2 ? " dead" : ""));
      dotState[idx] = state;
    }
    const f = c === 0 && sOwn[idx] === 0 ? 1 : 0;
    if (f !== hitFree[idx]) {
      hits[idx].classList.toggle("free", f === 1);
      hitFree[idx] = f;
    }
  }

  for (const [i, s] of (header.opening || []).entries()) {
    const p = parsePoint(s);
    if (!inside(p)) continue;
    const idx = p.y * W + p.x;
    const colour = i % 2 ? BLUE : RED;
    if (latestFree(idx)) free--;
    dot[idx] = own[idx] = sDot[idx] = sOwn[idx] = colour;
    makeDot(idx, colour);
    paint(idx);
  }

  function toMove() {
    if (moves.length) return 1 - moves[moves.length - 1].side;
    return (header.opening || []).length % 2;
  }

  function push(m) {
    const side = m.side === 1 ? 1 : 0;
    const colour = side + 1;
    const p = parsePoint(m.move);
    const ply = moves.length + 1;
    const mv = { side, idx: -1, colour, changes: [], score: null };
    if (inside(p) && dot[p.y * W + p.x] === 0) {
      const idx = p.y * W + p.x;
      if (latestFree(idx)) free--;
      mv.idx = idx;
      dot[idx] = colour;
      makeDot(idx, colour);
      mv.changes.push(idx, own[idx], colour);
      own[idx] = colour;
    }
    const eff = effectOf(m);
    for (const c of eff.captures || []) {
      const by = colourOf(c.by);
      if (!by) continue;
      const area = [];
      for (const s of c.area || []) {
        const q = parsePoint(s);
        if (inside(q)) area.push(q.y * W + q.x);
      }
      for (const i of area) {
        if (own[i] !== by) {
          if (latestFree(i)) free--;
          mv.changes.push(i, own[i], by);
          own[i] = by;
        }
        const k = capOf[i];
        if (k >= 0 && captures[k].by !== by && captures[k].hiddenAt > ply) captures[k].hiddenAt = ply;
      }
      const loops = polygon(W, H, area, (v) => own[v] === by);
      if (!loops.length) continue;
      const d = loops.map((l) => "M" + l.map((v) => `${px(v % W)} ${px((v / W) | 0)}`).join("L") + "Z").join("");
      const e = el(
        "path",
        {
          d,
          fill: FILL[by],
          "fill-opacity": 0.28,
          "fill-rule": "evenodd",
          stroke: FILL[by],
          "stroke-width": 2,
          "stroke-linejoin": "round",
          display: "none",
          class: "capture",
        },
        areaLayer,
      );
      e.dataset.by = by === RED ? "red" : "blue";
      const k = captures.length;
      captures.push({ ply, by, el: e, hiddenAt: Infinity, on: false });
      for (const i of area) capOf[i] = k;
    }
    const prev = moves.length ? moves[moves.length - 1].score : [0, 0];
    mv.score = Array.isArray(eff.score) ? eff.score : prev;
    moves.push(mv);
    updateOver();
  }

  // apply plays mv forward or takes it back on the screen's arrays and
  // notes the points it touched; show paints each of them once.
  function apply(mv, forward) {
    const ch = mv.changes;
    if (forward) {
      if (mv.idx >= 0) sDot[mv.idx] = mv.colour;
      for (let j = 0; j < ch.length; j += 3) sOwn[ch[j]] = ch[j + 2];
    } else {
      for (let j = ch.length - 3; j >= 0; j -= 3) sOwn[ch[j]] = ch[j + 1];
      if (mv.idx >= 0) sDot[mv.idx] = 0;
    }
    for (let j = 0; j < ch.length; j += 3) touch(ch[j]);
    if (mv.idx >= 0) touch(mv.idx);
  }

  const dirtyMark = new Uint8Array(N);
  const dirty = [];
  function touch(idx) {
    if (!dirtyMark[idx]) {
      dirtyMark[idx] = 1;
      dirty.push(idx);
    }
  }

  function latestFree(idx) {
    return dot[idx] === 0 && own[idx] === 0;
  }

  // The game ends by itself when no point is free (a point never becomes
  // free again); other ends come with result().
  function updateOver() {
    board.dataset.over = over || (moves.length > 0 && free === 0) ? "1" : "0";
  }

  function show(n) {
    n = Math.max(0, Math.min(n | 0, moves.length));
    while (cur < n) apply(moves[cur++], true);
    while (cur > n) apply(moves[--cur], false);
    for (const idx of dirty) {
      dirtyMark[idx] = 0;
      paint(idx);
    }
    dirty.length = 0;
    for (const c of captures) {
      const on = c.ply <= n && n < c.hiddenAt;
      if (on !== c.on) {
        c.el.setAttribute("display", on ? "inline" : "none");
        c.on = on;
      }
    }
    const last = n > 0 ? moves[n - 1] : null;
    if (last && last.idx >= 0) {
      lastMark.setAttribute("cx", px(last.idx % W));
      lastMark.setAttribute("cy", px((last.idx / W) | 0));
      lastMark.setAttribute("stroke", FILL[last.colour]);
      lastMark.setAttribute("display", "inline");
    } else {
      lastMark.setAttribute("display", "none");
    }
    const sc = last ? last.score : [0, 0];
    scoreSpan[0].textContent = String(sc[0] ?? 0);
    scoreSpan[1].textContent = String(sc[1] ?? 0);
    preview.setAttribute("display", "none");
    board.dataset.ply = String(n);
  }

  function canPlay() {
    return inputSide !== null && send && board.dataset.over !== "1" && toMove() === inputSide;
  }

  function target(e) {
    const t = e.target.closest && e.target.closest("[data-move]");
    const p = t ? parsePoint(t.dataset.move) : null;
    return inside(p) ? p : null;
  }

  function onMove(e) {
    const p = target(e);
    if (!p || !canPlay() || !latestFree(p.y * W + p.x)) {
      preview.setAttribute("display", "none");
      return;
    }
    preview.setAttribute("cx", px(p.x));
    preview.setAttribute("cy", px(p.y));
    preview.setAttribute("fill", FILL[inputSide + 1]);
    preview.setAttribute("display", "inline");
  }

  function onClick(e) {
    const p = target(e);
    if (!p || !canPlay()) return;
    const idx = p.y * W + p.x;
    if (!latestFree(idx)) {
      // Judged here, so a taken point never reaches the server; the
      // person still learns why nothing happened.
      showMessage(dot[idx] ? `${p.x},${p.y} already holds a dot` : `${p.x},${p.y} is inside a captured area`, true);
      return;
    }
    if (cur !== moves.length) show(moves.length);
    send(`${p.x},${p.y}`);
  }

  function onLeave() {
    preview.setAttribute("display", "none");
  }

  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerleave", onLeave);
  svg.addEventListener("click", onClick);
  show(0);

  return {
    push,
    length: () => moves.length,
    show,
    input(side, fn) {
      inputSide = side === null || side === undefined ? null : side;
      send = inputSide === null ? null : fn;
      svg.classList.toggle("pt-input", inputSide !== null);
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
      board.remove();
    },
  };
}

export default { create };
