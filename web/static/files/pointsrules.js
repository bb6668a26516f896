// The rules of Points (game/points) for opening files that carry only the
// dots (SGF): which areas each dot captures and the score after it, in
// the effects arena's own records carry, so that the Points view draws
// them alike. A port of game/points' reference referee (a whole-field
// flood fill per dot: slow, plain, and enough for one file): an enclosure
// of colour c is a 4-connected region of points c does not own that
// cannot reach the edge; a dot closing one around a live enemy dot (or
// around anything, with surround "always") takes what it encloses; an
// enemy dot played into an enclosure is taken with it unless it captured
// something itself ("always-enemy": even then).

const RED = 1;
const BLUE = 2;
const NAMES = { [RED]: "red", [BLUE]: "blue" };
const DIRS = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

// Field is a position: dot[i] is the colour of the dot on point i (0:
// none), own[i] the colour owning it (its live dot's, or the capturer's).
export class Field {
  constructor(width, height, surround = "standard") {
    if (!["standard", "always", "always-enemy"].includes(surround)) throw new Error(`surround ${JSON.stringify(surround)}: want standard, always or always-enemy`);
    this.w = width;
    this.h = height;
    this.surround = surround;
    this.dot = new Uint8Array(width * height);
    this.own = new Uint8Array(width * height);
    this.score = [0, 0, 0];
  }

  // check says why colour c may not put a dot on (x, y), or "".
  check(x, y) {
    if (!(x >= 0 && y >= 0 && x < this.w && y < this.h)) return `${x},${y} is off the ${this.w}x${this.h} field`;
    const i = y * this.w + x;
    if (this.dot[i]) return `${x},${y} already holds a dot`;
    if (this.own[i]) return `${x},${y} is inside a captured area`;
    return "";
  }

  // put plays a dot of colour c (1 red, 2 blue) and returns the effect
  // of the move as game/points records it: {captures: [{by, dots, area}],
  // score: [red, blue]}. The point must pass check.
  put(x, y, c) {
    const o = 3 - c;
    const i0 = y * this.w + x;
    this.dot[i0] = c;
    this.own[i0] = c;
    const captures = [];
    let took = false;
    for (const [dx, dy] of DIRS) {
      const nx = x + dx;
      const ny = y + dy;
      if (!this.on(nx, ny) || this.own[ny * this.w + nx] === c) continue;
      const { reg, edge } = this.region(nx, ny, c);
      if (edge) continue;
      if (this.surround === "always" || this.hasLive(reg, o)) {
        const cap = this.take(c, this.inside(reg));
        if (cap) captures.push(cap);
        took = true;
      }
    }
    if (!took || this.surround === "always-enemy") {
      const { reg, edge } = this.region(x, y, o);
      if (!edge) {
        const cap = this.take(o, this.inside(reg));
        if (cap) captures.push(cap);
      }
    }
    const eff = { score: [this.score[RED], this.score[BLUE]] };
    if (captures.length) eff.captures = captures;
    return eff;
  }

  on(x, y) {
    return x >= 0 && y >= 0 && x < this.w && y < this.h;
  }

  // region returns the 4-connected points not owned by c around (x, y)
  // and whether they reach the edge.
  region(x, y, c) {
    const seen = new Uint8Array(this.w * this.h);
    const reg = [y * this.w + x];
    seen[reg[0]] = 1;
    let edge = false;
    for (let k = 0; k < reg.length; k++) {
      const px = reg[k] % this.w;
      const py = (reg[k] / this.w) | 0;
      for (const [dx, dy] of DIRS) {
        const qx = px + dx;
        const qy = py + dy;
        if (!this.on(qx, qy)) {
          edge = true;
          continue;
        }
        const q = qy * this.w + qx;
        if (this.own[q] !== c && !seen[q]) {
          seen[q] = 1;
          reg.push(q);
        }
      }
    }
    return { reg, edge };
  }

  // inside returns the region with everything it encloses: the points
  // that cannot reach the edge without crossing it or its neighbours.
  inside(reg) {
    const W = this.w;
    const H = this.h;
    const wall = new Uint8Array(W * H);
    for (const i of reg) {
      wall[i] = 1;
      const x = i % W;
      const y = (i / W) | 0;
      for (const [dx, dy] of DIRS) if (this.on(x + dx, y + dy)) wall[(y + dy) * W + x + dx] = 1;
    }
    const out = new Uint8Array(W * H);
    const stack = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        if ((x === 0 || y === 0 || x === W - 1 || y === H - 1) && !wall[i]) {
          out[i] = 1;
          stack.push(i);
        }
      }
    }
    while (stack.length) {
      const i = stack.pop();
      const x = i % W;
      const y = (i / W) | 0;
      for (const [dx, dy] of DIRS) {
        if (!this.on(x + dx, y + dy)) continue;
        const q = (y + dy) * W + x + dx;
        if (!wall[q] && !out[q]) {
          out[q] = 1;
          stack.push(q);
        }
      }
    }
    const inside = [];
    for (let i = 0; i < W * H; i++) if (!out[i]) inside.push(i);
    return inside;
  }

  hasLive(reg, c) {
    return reg.some((i) => this.dot[i] === c && this.own[i] === c);
  }

  // take gives the points to c; it returns the capture (the points that
  // changed owner), or null when none did.
  take(c, pts) {
    const o = 3 - c;
    const area = [];
    let dots = 0;
    let freed = 0;
    for (const i of pts) {
      const d = this.dot[i];
      const ow = this.own[i];
      if (ow === c) continue;
      if (d === o && ow === o) {
        this.score[c]++;
        dots++;
      }
      if (d === c && ow === o) {
        this.score[o]--;
        freed++;
      }
      this.own[i] = c;
      area.push(`${i % this.w},${(i / this.w) | 0}`);
    }
    if (!area.length) return null;
    const cap = { by: NAMES[c], dots, area };
    if (freed) cap.freed = freed;
    return cap;
  }
}
