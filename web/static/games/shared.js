// Helpers every game view uses: records arrive as JSON in which options
// and effects may be objects or strings (a record file read from disk
// keeps them as the server wrote them), and the board views draw SVG.
// This file is not a game: the shell loads games by name, never this one.

const NS = "http://www.w3.org/2000/svg";

// el makes an SVG element with attributes, appended to parent if given.
export function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// parseJSON reads a JSON text; anything else is returned as it is, and
// broken text gives null (a bad record must not stop the page).
export function parseJSON(v) {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

function object(v) {
  const o = parseJSON(v);
  return o && typeof o === "object" ? o : {};
}

// options is a record header's game options, {} when missing or broken.
export function options(header) {
  return object(header.options);
}

// effectOf is what a move did (game/*: Effect), {} when it has none.
export function effectOf(m) {
  return object(m.effect);
}

// parsePoint reads "x,y"; null for anything else (a record from an older
// or broken bot may hold junk: it is skipped, never thrown on).
export function parsePoint(s) {
  const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(String(s));
  return m ? { x: +m[1], y: +m[2] } : null;
}
