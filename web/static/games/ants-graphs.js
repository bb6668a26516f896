// The Ants graphs, as the official visualizer had them: each player's
// ants, hills and score over the turns, a line per player in its colour,
// the shown turn marked by a vertical line. A click (or a drag) on a
// graph goes to that turn.
//
// The series grow: a replay gives every turn at once, a live game one
// turn at a time. Drawing them is deferred to the next animation frame
// so that a burst of turns draws once, and show() only moves the marks.
//
// Hooks for tests: each graph is svg.ants-graph[data-metric=ants|hills|
// score] with data-min and data-max (the values at the bottom and the top
// of its 0..100 viewBox height, PAD units inside) and a polyline per
// player, polyline[data-seat=S], with one point per turn: x = 1000 *
// turn / last turn, y = PAD + (max - value) / (max - min) * (100 - 2 PAD)
// (each line is then shifted by a transform of a unit or two, so that
// equal values stay apart).

import { el } from "./shared.js";

export const METRICS = ["ants", "hills", "score"];
const WIDTH = 1000;
const HEIGHT = 100;
const PAD = 4;

// createGraphs draws series (per metric, per seat, a value per turn) into
// a new element; colour(seat) is a player's colour, seek(turn) goes to a
// turn.
export function createGraphs(series, colour, seek) {
  const root = document.createElement("div");
  root.className = "ants-graphs";
  const graphs = METRICS.map((metric) => {
    const box = document.createElement("div");
    box.className = "ants-graph-box";
    const label = document.createElement("span");
    label.className = "ants-graph-label";
    const svg = el("svg", {
      class: "ants-graph",
      "data-metric": metric,
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": metric + " per player over the turns; click to go to a turn",
    });
    // Players level with each other (hills, scores) would hide all lines
    // but the last: each is shifted a little, by less than its width.
    const n = series[metric].length;
    const lines = series[metric].map((_, seat) =>
      el(
        "polyline",
        {
          "data-seat": seat,
          fill: "none",
          stroke: colour(seat),
          "stroke-width": 1.5,
          "vector-effect": "non-scaling-stroke",
          transform: `translate(0 ${((seat - (n - 1) / 2) * 1.6).toFixed(2)})`,
        },
        svg,
      ),
    );
    const mark = el("line", { class: "ants-graph-mark", x1: 0, x2: 0, y1: 0, y2: HEIGHT, stroke: "currentColor", "stroke-width": 1, opacity: 0.6, "vector-effect": "non-scaling-stroke" }, svg);
    box.append(svg, label);
    root.appendChild(box);
    return { metric, svg, lines, mark, label };
  });

  let turns = 0; // points drawn per line
  let frame = 0;
  let shown = 0;

  function draw() {
    frame = 0;
    turns = series.ants[0] ? series.ants[0].length : 0;
    const last = Math.max(1, turns - 1);
    for (const g of graphs) {
      let lo = 0;
      let hi = 1;
      for (const s of series[g.metric]) {
        for (let t = 0; t < s.length; t++) {
          if (s[t] < lo) lo = s[t];
          if (s[t] > hi) hi = s[t];
        }
      }
      const k = (HEIGHT - 2 * PAD) / (hi - lo);
      g.lines.forEach((line, seat) => {
        const s = series[g.metric][seat];
        const pts = new Array(s.length);
        for (let t = 0; t < s.length; t++) pts[t] = ((WIDTH * t) / last).toFixed(2) + "," + (PAD + (hi - s[t]) * k).toFixed(2);
        line.setAttribute("points", pts.join(" "));
      });
      g.svg.dataset.min = String(lo);
      g.svg.dataset.max = String(hi);
      g.label.textContent = g.metric + (lo < 0 ? ` ${lo}..${hi}` : ` (max ${hi})`);
    }
    mark(shown);
  }

  function mark(n) {
    shown = n;
    const x = ((WIDTH * n) / Math.max(1, turns - 1)).toFixed(2);
    for (const g of graphs) {
      g.mark.setAttribute("x1", x);
      g.mark.setAttribute("x2", x);
    }
  }

  // A press on a graph, and a drag while pressed, go to the turn under
  // the pointer.
  function turnAt(svg, clientX) {
    const r = svg.getBoundingClientRect();
    const f = r.width ? Math.min(1, Math.max(0, (clientX - r.left) / r.width)) : 0;
    return Math.round(f * Math.max(0, turns - 1));
  }
  let pressed = null;
  root.addEventListener("pointerdown", (e) => {
    const svg = e.target.closest("svg.ants-graph");
    if (!svg || (e.pointerType === "mouse" && e.button !== 0)) return;
    pressed = svg;
    svg.setPointerCapture(e.pointerId);
    seek(turnAt(svg, e.clientX));
  });
  root.addEventListener("pointermove", (e) => {
    if (pressed) seek(turnAt(pressed, e.clientX));
  });
  const release = () => (pressed = null);
  root.addEventListener("pointerup", release);
  root.addEventListener("pointercancel", release);

  draw();
  return {
    root,
    // grew says the series have new turns: draw them in the next frame.
    grew() {
      if (!frame) frame = requestAnimationFrame(draw);
    },
    mark,
    destroy() {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
