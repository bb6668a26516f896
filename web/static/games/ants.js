// Ants view: the map on a <canvas> (water, land seen or not yet seen, the
// fog of war of one player or the full view), food, hills (razed ones
// crossed out), the ants in their players' colours, the ants that died in
// the shown turn as crosses, a line per player with its score, ants and
// hills, and under the map the graphs of those over the turns
// (ants-graphs.js), where a click goes to a turn through the screen's
// seek (create's third argument). The map zooms and pans (ants-zoom.js).
//
// Two inputs, one model (a frame per turn, position n = after turn n):
//
// (a) header.replay: a rev-3 replay as the official engine and arena
//     (game/ants/replay.go) write it, the whole file or only its
//     replaydata. replaydata.map {rows, cols, data: a string per row, '%'
//     water}; ants [row, col, start, end, owner, orders] (an ant lives in
//     the positions start..end-1, walking its orders, one of "nesw-" per
//     turn, from where it spawned; an ant whose end is at most the last
//     turn died in turn end; some files put a conversion turn after start,
//     7 fields, which is then the turn it becomes an ant); food [row, col,
//     start, end(, owner)] (on the map in start..end-1); hills [row, col,
//     owner, end] (razed in turn end unless end is past the last turn);
//     scores [per player: a score per turn, the last one standing for the
//     turns after it]; game_length (outside replaydata) is the last turn.
//     All frames are built once, into flat typed arrays.
//
// (b) live: header.options (game/ants/play.go, mapView) carries rows, cols,
//     water (a string per row, '%' water, '.' land), viewradius2 and start,
//     turn 0's frame; every pushed move (Side -1, Move "turn N") carries the
//     turn's frame in its effect (game/ants/frame.go):
//       {"turn", "ants": [[square...] per seat], "dead": [[square...] per
//        seat], "food": [square...], "hills": [[square, owner, razed]...],
//        "scores": [...], "hive": [...], "alive": [0|1...]}
//     with square = row*cols + col and seats the engine's players.
//     Moves of a stored record (one per bot per turn, no frame) are ignored:
//     a finished game is shown from its replay.
//
// Hooks for tests: the canvas carries data-rows and data-cols (a square is
// canvas.width/cols pixels wide at zoom 1; ants-zoom.js names the zoom's
// hooks, ants-graphs.js the graphs'), each player's legend entry
// .ants-player[data-seat=S] starts with a swatch of its colour, and
// view._frame(n) is the model of turn n ({ants, own, dead, deadOwn, food,
// hills: [[square, owner, razed]], scores}).
//
// show(n) paints the land as one cols x rows image scaled up (one
// drawImage); where a square is under 6 pixels (big maps, little zoom) the
// food and the ants are pixels of that image too, else rectangles batched
// by colour, those outside the zoomed view skipped; then the hills and
// the crosses. A zoom or a pan draws the shown turn again (paint), with
// the same image unless the squares crossed those 6 pixels. The fog of
// war marks the squares in sight of the viewer's ants (viewradius2) and
// remembers which squares it has ever seen, growing that memory turn by
// turn from the squares its ants first stood on.

import { parseJSON } from "./shared.js";
import { createGraphs, METRICS } from "./ants-graphs.js";
import { createViewport } from "./ants-zoom.js";

// The players' colours by seat: the page's palette (board.js PALETTE), so
// that the ants match the swatches beside the players' names.
const COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080"];
const WATER = [0x1d, 0x3c, 0x66]; // in sight (full view: seen by someone)
const WATER_FOG = [0x14, 0x27, 0x42]; // seen before, out of sight now (full view: never seen)
const LAND_SEEN = [0x8a, 0x72, 0x4a];
const LAND_FOG = [0x55, 0x47, 0x30];
const UNKNOWN = [0x24, 0x1e, 0x16]; // a player's view: never seen
const FOOD = "#f5f0dc";
const ORDER = { n: [-1, 0], e: [0, 1], s: [1, 0], w: [0, -1] };

function colour(p) {
  return COLOURS[p % COLOURS.length];
}

// rgba packs a colour for a little-endian Uint32Array over ImageData.
function rgba(c) {
  return (0xff << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
}

function hex(c) {
  return [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
}

function emptyFrame(n) {
  return {
    ants: new Int32Array(0),
    own: new Uint8Array(0),
    dead: new Int32Array(0),
    deadOwn: new Uint8Array(0),
    food: new Int32Array(0),
    hills: [],
    scores: new Array(n).fill(0),
    alive: null,
  };
}

// liveFrame turns a frame of game/ants/frame.go into the view's model.
function liveFrame(f, n) {
  if (!f || typeof f !== "object") return emptyFrame(n);
  const flat = (lists) => {
    let total = 0;
    for (const l of lists || []) total += (l || []).length;
    const locs = new Int32Array(total);
    const own = new Uint8Array(total);
    let i = 0;
    (lists || []).forEach((l, p) => {
      for (const loc of l || []) {
        locs[i] = loc;
        own[i++] = p;
      }
    });
    return [locs, own];
  };
  const [ants, own] = flat(f.ants);
  const [dead, deadOwn] = flat(f.dead);
  return {
    ants,
    own,
    dead,
    deadOwn,
    food: Int32Array.from(f.food || []),
    hills: (f.hills || []).map((h) => [h[0], h[1], h[2] ? 1 : 0]),
    scores: f.scores || new Array(n).fill(0),
    alive: f.alive || null,
  };
}

// fromReplay builds every turn's frame of a rev-3 replay.
function fromReplay(rep) {
  rep = parseJSON(rep) || {};
  let d = rep.replaydata !== undefined ? parseJSON(rep.replaydata) : rep;
  if (!d || !d.map) throw new Error("not an Ants replay (no replaydata.map)");
  const rows = d.map.rows | 0;
  const cols = d.map.cols | 0;
  if (rows <= 0 || cols <= 0) throw new Error("Ants replay: bad map size");
  const water = new Uint8Array(rows * cols);
  (d.map.data || []).forEach((line, r) => {
    for (let c = 0; c < cols && c < line.length; c++) if (line[c] === "%") water[r * cols + c] = 1;
  });
  const scores = d.scores || [];
  let n = d.players | 0 || scores.length;
  let last = rep.game_length;
  if (typeof last !== "number") {
    last = 0;
    for (const s of scores) last = Math.max(last, s.length - 1);
  }
  last = Math.max(0, last | 0);
  const T = last + 1;
  const ants = (d.ants || []).map((a) =>
    a.length >= 7 ? [a[0], a[1], a[3], a[4], a[5], a[6]] : [a[0], a[1], a[2], a[3], a[4], a[5]],
  );
  for (const a of ants) n = Math.max(n, (a[4] | 0) + 1);
  // Count first, then fill: one flat array for all turns, a view per turn.
  const liveN = new Int32Array(T + 1);
  const deadN = new Int32Array(T + 1);
  for (const a of ants) {
    const s = Math.max(0, a[2]);
    const e = Math.min(a[3], T);
    if (s < e) {
      liveN[s]++;
      liveN[e]--;
    }
    if (a[3] <= last && a[3] >= s) deadN[a[3]]++;
  }
  const liveOff = new Int32Array(T + 1);
  const deadOff = new Int32Array(T + 1);
  let run = 0;
  for (let t = 0; t < T; t++) {
    run += liveN[t];
    liveOff[t + 1] = liveOff[t] + run;
    deadOff[t + 1] = deadOff[t] + deadN[t];
  }
  const antLoc = new Int32Array(liveOff[T]);
  const antOwn = new Uint8Array(liveOff[T]);
  const deadLoc = new Int32Array(deadOff[T]);
  const deadOwn = new Uint8Array(deadOff[T]);
  const liveAt = liveOff.slice(0, T);
  const deadAt = deadOff.slice(0, T);
  for (const a of ants) {
    let r = a[0] | 0;
    let c = a[1] | 0;
    const s = a[2] | 0;
    const e = a[3] | 0;
    const owner = a[4] | 0;
    const orders = a[5] || "";
    for (let t = s; t <= e && t <= last; t++) {
      if (t > s) {
        const m = ORDER[orders[t - s - 1]];
        if (m) {
          r = (r + m[0] + rows) % rows;
          c = (c + m[1] + cols) % cols;
        }
      }
      if (t < 0) continue;
      if (t < e) {
        antLoc[liveAt[t]] = r * cols + c;
        antOwn[liveAt[t]++] = owner;
      } else {
        deadLoc[deadAt[t]] = r * cols + c;
        deadOwn[deadAt[t]++] = owner;
      }
    }
  }
  const foodN = new Int32Array(T + 1);
  for (const f of d.food || []) {
    const s = Math.max(0, f[2]);
    const e = Math.min(f[3], T);
    if (s < e) {
      foodN[s]++;
      foodN[e]--;
    }
  }
  const foodOff = new Int32Array(T + 1);
  run = 0;
  for (let t = 0; t < T; t++) {
    run += foodN[t];
    foodOff[t + 1] = foodOff[t] + run;
  }
  const foodLoc = new Int32Array(foodOff[T]);
  const foodAt = foodOff.slice(0, T);
  for (const f of d.food || []) {
    for (let t = Math.max(0, f[2]); t < f[3] && t <= last; t++) foodLoc[foodAt[t]++] = f[0] * cols + f[1];
  }
  const hills = (d.hills || []).map((h) => [h[0] * cols + h[1], h[2] | 0, h[3] | 0]);
  const frames = new Array(T);
  for (let t = 0; t < T; t++) {
    frames[t] = {
      ants: antLoc.subarray(liveOff[t], liveOff[t + 1]),
      own: antOwn.subarray(liveOff[t], liveOff[t + 1]),
      dead: deadLoc.subarray(deadOff[t], deadOff[t + 1]),
      deadOwn: deadOwn.subarray(deadOff[t], deadOff[t + 1]),
      food: foodLoc.subarray(foodOff[t], foodOff[t + 1]),
      hills: hills.map(([loc, owner, end]) => [loc, owner, end <= last && end <= t ? 1 : 0]),
      scores: Array.from({ length: n }, (_, p) => {
        const h = scores[p] || [0];
        return h[Math.min(t, h.length - 1)];
      }),
      alive: null,
    };
  }
  return {
    rows,
    cols,
    water,
    frames,
    players: n,
    names: rep.playernames || null,
    viewradius2: d.viewradius2 || 77,
    status: rep.status || null,
  };
}

// fromLive starts the model of a game being played from its header.
function fromLive(header) {
  const o = parseJSON(header.options) || {};
  const rows = o.rows | 0;
  const cols = o.cols | 0;
  if (rows <= 0 || cols <= 0) throw new Error("this Ants game carries no map (no replay, no rows/cols)");
  const water = new Uint8Array(rows * cols);
  (o.water || []).forEach((line, r) => {
    for (let c = 0; c < cols && c < line.length; c++) if (line[c] === "%") water[r * cols + c] = 1;
  });
  const n = Math.max((header.seats || []).length, (header.players || []).length, 2);
  const start = parseJSON(o.start);
  return {
    rows,
    cols,
    water,
    frames: [start ? liveFrame(start, n) : emptyFrame(n)],
    players: n,
    names: null,
    viewradius2: o.viewradius2 || 77,
    status: null,
  };
}

// discOffsets lists the (dr, dc) of a vision disc.
function discOffsets(r2) {
  const out = [];
  const R = Math.floor(Math.sqrt(r2));
  for (let dr = -R; dr <= R; dr++) for (let dc = -R; dc <= R; dc++) if (dr * dr + dc * dc <= r2) out.push(dr, dc);
  return out;
}

// seriesAdd appends a frame's values to the graphs' series: each
// player's ants, hills still standing and score.
function seriesAdd(series, f) {
  const n = series.ants.length;
  const ants = new Array(n).fill(0);
  const hills = new Array(n).fill(0);
  for (let i = 0; i < f.own.length; i++) if (f.own[i] < n) ants[f.own[i]]++;
  for (const [, owner, razed] of f.hills) if (!razed && owner < n) hills[owner]++;
  for (let s = 0; s < n; s++) {
    series.ants[s].push(ants[s]);
    series.hills[s].push(hills[s]);
    series.score[s].push(Number(f.scores[s]) || 0);
  }
}

function create(el, header, screen = {}) {
  const root = document.createElement("div");
  root.className = "board ants-board";
  root.dataset.game = "ants";
  root.dataset.ply = "0";
  root.dataset.over = "0";
  root.style.cssText = "display:flex;flex-direction:column;gap:6px;align-items:flex-start";
  el.appendChild(root);

  let m;
  const replay = header.replay !== undefined && header.replay !== null;
  try {
    m = replay ? fromReplay(header.replay) : fromLive(header);
  } catch (err) {
    const p = document.createElement("p");
    p.className = "ants-error";
    p.textContent = String(err.message || err);
    root.appendChild(p);
    return { push() {}, length: () => 0, show() {}, input() {}, perspective() {}, result() {}, destroy: () => root.remove() };
  }
  const { rows, cols, water } = m;
  const N = rows * cols;
  const names = [];
  for (let s = 0; s < m.players; s++) {
    const pi = header.seats && header.seats[s] !== undefined ? header.seats[s] : s;
    const pl = header.players && header.players[pi];
    names.push((pl && pl.name) || (m.names && m.names[s]) || "player " + (s + 1));
  }
  const series = {};
  for (const metric of METRICS) series[metric] = Array.from({ length: m.players }, () => []);
  for (const f of m.frames) seriesAdd(series, f);

  // The canvas: an integer number of pixels per square, scaled by CSS to
  // the room the page gives it.
  const avail = Math.max(320, el.clientWidth || 800);
  const cell = Math.max(2, Math.min(16, Math.ceil(avail / Math.max(cols, rows))));
  const W = cols * cell;
  const H = rows * cell;
  const mapBox = document.createElement("div");
  mapBox.className = "ants-map";
  mapBox.style.cssText = "position:relative;max-width:100%";
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  canvas.className = "ants-canvas";
  canvas.dataset.rows = String(rows);
  canvas.dataset.cols = String(cols);
  canvas.style.cssText = `display:block;max-width:100%;height:auto;max-height:80vh;aspect-ratio:${cols}/${rows};image-rendering:pixelated;background:#000`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `Ants map ${cols}x${rows}`);
  mapBox.appendChild(canvas);
  root.appendChild(mapBox);
  const ctx = canvas.getContext("2d", { alpha: false });
  const viewport = createViewport(canvas, cols, rows, cell, paint);
  mapBox.appendChild(viewport.buttons);

  const legend = document.createElement("div");
  legend.className = "ants-legend";
  legend.style.cssText = "display:flex;flex-wrap:wrap;gap:4px 14px;font:13px sans-serif;align-items:center";
  root.appendChild(legend);
  const turnEl = document.createElement("span");
  turnEl.className = "ants-turn";
  turnEl.style.fontWeight = "600";
  legend.appendChild(turnEl);
  const rowsEl = [];
  for (let s = 0; s < m.players; s++) {
    const item = document.createElement("span");
    item.className = "ants-player";
    item.dataset.seat = String(s);
    const sw = document.createElement("span");
    sw.style.cssText = `display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-radius:2px;background:${colour(s)}`;
    const txt = document.createElement("span");
    item.append(sw, txt);
    legend.appendChild(item);
    rowsEl.push(txt);
  }

  const graphs = createGraphs(series, colour, (n) => (screen.seek ? screen.seek(n) : show(n)));
  root.appendChild(graphs.root);
  // The graphs are as wide as the map is shown, whatever room it gets.
  const resize = new ResizeObserver(() => (graphs.root.style.width = canvas.getBoundingClientRect().width + "px"));
  resize.observe(canvas);

  // The land layer: one pixel per square, scaled up by drawImage.
  const bg = document.createElement("canvas");
  bg.width = cols;
  bg.height = rows;
  const bgCtx = bg.getContext("2d");
  const img = bgCtx.createImageData(cols, rows);
  const px = new Uint32Array(img.data.buffer);
  const cWater = rgba(WATER);
  const cWaterFog = rgba(WATER_FOG);
  const cSeen = rgba(LAND_SEEN);
  const cFog = rgba(LAND_FOG);
  const cDark = rgba(UNKNOWN);
  const cFood = rgba(hex(FOOD));
  const cAnts = COLOURS.map((c) => rgba(hex(c)));

  const disc = discOffsets(m.viewradius2);
  // Per perspective (-1: everybody): the turn each square was first seen,
  // filled turn by turn as far as some show() has gone. A square an ant
  // has stood on before adds nothing new, which keeps this cheap.
  const memories = new Map();
  let view = -1;
  let over = false;

  function memory(p) {
    let mem = memories.get(p);
    if (!mem) {
      mem = { first: new Int32Array(N).fill(0x7fffffff), stood: new Uint8Array(N), upTo: -1 };
      memories.set(p, mem);
    }
    return mem;
  }

  function markDisc(loc, fn) {
    const r = (loc / cols) | 0;
    const c = loc - r * cols;
    for (let i = 0; i < disc.length; i += 2) {
      let rr = r + disc[i];
      let cc = c + disc[i + 1];
      if (rr < 0) rr += rows;
      else if (rr >= rows) rr -= rows;
      if (cc < 0) cc += cols;
      else if (cc >= cols) cc -= cols;
      fn(rr * cols + cc);
    }
  }

  function remember(mem, p, n) {
    for (let t = mem.upTo + 1; t <= n && t < m.frames.length; t++) {
      const f = m.frames[t];
      for (let i = 0; i < f.ants.length; i++) {
        if (p >= 0 && f.own[i] !== p) continue;
        const loc = f.ants[i];
        if (mem.stood[loc]) continue;
        mem.stood[loc] = 1;
        markDisc(loc, (sq) => {
          if (mem.first[sq] > t) mem.first[sq] = t;
        });
      }
      mem.upTo = t;
    }
  }

  let stamp = 0;
  const seenAt = new Int32Array(N);
  // A replay's full view is known at once: learn it while loading, not in
  // the first show() that jumps far ahead.
  if (replay) remember(memory(-1), -1, m.frames.length - 1);

  // What show() chose, for paint() to draw again at another zoom: the
  // turn, the perspective, and whether the land layer holds the food and
  // the ants (small squares) or not.
  let shown = 0;
  let shownView = -1;
  let layerPixels = null;

  function inSight(sq) {
    return shownView < 0 || seenAt[sq] === stamp;
  }

  // layer paints the land layer of the shown turn: a pixel per square,
  // with the food and the ants too where squares are too small to draw
  // them apart.
  function layer(pixels) {
    const n = shown;
    const f = m.frames[n];
    const p = shownView;
    const first = memory(p).first;
    if (p >= 0) {
      for (let sq = 0; sq < N; sq++) {
        if (first[sq] > n) px[sq] = cDark;
        else if (seenAt[sq] === stamp) px[sq] = water[sq] ? cWater : cSeen;
        else px[sq] = water[sq] ? cWaterFog : cFog;
      }
    } else {
      // The full view shows the whole map, dimmed where no ant has been yet.
      for (let sq = 0; sq < N; sq++) {
        if (first[sq] > n) px[sq] = water[sq] ? cWaterFog : cFog;
        else px[sq] = water[sq] ? cWater : cSeen;
      }
    }
    if (pixels) {
      // A square of a few pixels has no room for a gap: food and ants are
      // pixels of the land layer, thousands of them for the cost of one
      // drawImage.
      for (let i = 0; i < f.food.length; i++) if (inSight(f.food[i])) px[f.food[i]] = cFood;
      for (let i = 0; i < f.ants.length; i++) {
        const o = f.own[i];
        if (o === p || inSight(f.ants[i])) px[f.ants[i]] = cAnts[o % cAnts.length];
      }
    }
    bgCtx.putImageData(img, 0, 0);
    layerPixels = pixels;
  }

  // paint draws the shown turn at the viewport's zoom: the land layer,
  // then (on squares big enough) the food and the ants, the hills and the
  // crosses of the dead, skipping what lies outside the shown part.
  function paint() {
    const n = shown;
    const f = m.frames[n];
    const p = shownView;
    const fog = p >= 0;
    const first = memory(p).first;
    const pixels = viewport.scale() < 6;
    if (pixels !== layerPixels) layer(pixels);
    ctx.setTransform(...viewport.transform());
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(bg, 0, 0, W, H);

    const [c0, r0, c1, r1] = viewport.visible();
    const shownSq = (sq, margin) => {
      const r = (sq / cols) | 0;
      const c = sq - r * cols;
      return c >= c0 - margin && c <= c1 + margin && r >= r0 - margin && r <= r1 + margin;
    };
    const inset = cell >= 4 ? 1 : 0;
    const size = cell - 2 * inset;
    if (!pixels) {
      ctx.fillStyle = FOOD;
      for (let i = 0; i < f.food.length; i++) {
        const sq = f.food[i];
        if (!inSight(sq) || !shownSq(sq, 0)) continue;
        const r = (sq / cols) | 0;
        ctx.fillRect((sq - r * cols) * cell + inset, r * cell + inset, size, size);
      }
    }
    // Hills: a ring around the square in the owner's colour; razed ones
    // grey and crossed.
    const ring = Math.max(1, cell / 3);
    ctx.lineWidth = ring;
    for (const [sq, owner, razed] of f.hills) {
      if ((fog && first[sq] > n) || !shownSq(sq, 1)) continue;
      const r = (sq / cols) | 0;
      const x = (sq - r * cols) * cell;
      const y = r * cell;
      ctx.strokeStyle = razed ? "#777" : colour(owner);
      ctx.strokeRect(x - cell + ring / 2, y - cell + ring / 2, 3 * cell - ring, 3 * cell - ring);
      if (razed) {
        ctx.beginPath();
        ctx.moveTo(x - cell, y - cell);
        ctx.lineTo(x + 2 * cell, y + 2 * cell);
        ctx.moveTo(x + 2 * cell, y - cell);
        ctx.lineTo(x - cell, y + 2 * cell);
        ctx.stroke();
      }
    }
    // Ants, a colour at a time; a player's view hides enemies out of sight.
    for (let o = 0; o < m.players && !pixels; o++) {
      if (!series.ants[o][n]) continue;
      ctx.fillStyle = colour(o);
      for (let i = 0; i < f.ants.length; i++) {
        if (f.own[i] !== o) continue;
        const sq = f.ants[i];
        if ((o !== p && !inSight(sq)) || !shownSq(sq, 0)) continue;
        const r = (sq / cols) | 0;
        ctx.fillRect((sq - r * cols) * cell + inset, r * cell + inset, size, size);
      }
    }
    // The dead of this turn: crosses.
    if (f.dead.length) {
      const lw = Math.max(1, cell / 4);
      for (let o = 0; o < m.players; o++) {
        ctx.beginPath();
        let any = false;
        for (let i = 0; i < f.dead.length; i++) {
          if (f.deadOwn[i] !== o || !inSight(f.dead[i]) || !shownSq(f.dead[i], 1)) continue;
          const sq = f.dead[i];
          const r = (sq / cols) | 0;
          const x = (sq - r * cols) * cell;
          const y = r * cell;
          const e = Math.max(1, cell * 0.9);
          ctx.moveTo(x - e / 2, y - e / 2);
          ctx.lineTo(x + cell + e / 2, y + cell + e / 2);
          ctx.moveTo(x + cell + e / 2, y - e / 2);
          ctx.lineTo(x - e / 2, y + cell + e / 2);
          any = true;
        }
        if (any) {
          // A dark edge keeps the cross apart from live ants of its colour.
          ctx.lineWidth = lw + 2;
          ctx.strokeStyle = "#000";
          ctx.stroke();
          ctx.lineWidth = lw;
          ctx.strokeStyle = colour(o);
          ctx.stroke();
        }
      }
    }
  }

  function show(n) {
    n = Math.max(0, Math.min(m.frames.length - 1, n | 0));
    const f = m.frames[n];
    const p = view;
    const mem = memory(p);
    if (mem.upTo < n) remember(mem, p, n);
    // In a player's view: the squares its ants see now.
    stamp++;
    if (p >= 0) {
      for (let i = 0; i < f.ants.length; i++) {
        if (f.own[i] === p) markDisc(f.ants[i], (sq) => (seenAt[sq] = stamp));
      }
    }
    shown = n;
    shownView = p;
    layerPixels = null;
    paint();

    // The legend and the graphs' marks.
    const last = m.frames.length - 1;
    turnEl.textContent = `turn ${n}` + (replay || over ? ` / ${last}` : "");
    for (let s = 0; s < m.players; s++) {
      const ants = series.ants[s][n];
      const out = f.alive ? !f.alive[s] : ants === 0 && n > 0;
      // The end of a replay tells how each bot ended (crashed, timeout ...).
      const how = n === last && m.status && m.status[s] && m.status[s] !== "survived" ? m.status[s] : out ? "out" : "";
      rowsEl[s].textContent = `${names[s]}: ${f.scores[s] ?? 0} pts, ${ants} ants, ${series.hills[s][n]} hills${how ? " (" + how + ")" : ""}`;
      rowsEl[s].style.fontWeight = s === p ? "700" : "";
    }
    graphs.mark(n);
    root.dataset.ply = String(n);
  }

  // Draw once now: the page has a map at once, and the first show() the
  // page times is not the one that warms the canvas up.
  show(0);

  return {
    push(move) {
      if (replay || !move || move.side !== -1) return;
      const eff = parseJSON(move.effect);
      if (!eff) return;
      const f = liveFrame(eff, m.players);
      m.frames.push(f);
      seriesAdd(series, f);
      graphs.grew();
      // Learn the full view's explored squares as the turns arrive, so
      // that show() never has a backlog of turns to catch up on.
      remember(memory(-1), -1, m.frames.length - 1);
    },
    length: () => m.frames.length - 1,
    show,
    _frame: (n) => m.frames[n], // tests compare the models of a replay and a live feed
    input() {},
    perspective(p) {
      p = Number(p);
      view = Number.isInteger(p) && p >= 0 && p < m.players ? p : -1;
    },
    result() {
      over = true;
      root.dataset.over = "1";
    },
    destroy() {
      viewport.destroy();
      graphs.destroy();
      resize.disconnect();
      memories.clear();
      root.remove();
    },
  };
}

export default { create };
