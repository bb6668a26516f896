// The Ants map's zoom and pan: which part of the map the canvas shows,
// and the gestures that change it. The mouse wheel zooms around the
// cursor (the square under it stays under it), a drag pans, the +, − and
// fit buttons zoom around the middle or show the whole map again; on a
// touch screen one finger pans and two pinch.
//
// The state is a zoom factor (1: the whole map, up to a few squares
// across) and the top-left corner of the shown part in squares, kept
// inside the map. ants.js draws through transform() and skips what
// visible() leaves out; a change asks it to draw again once per animation
// frame, however many pointer events arrive in between.
//
// Hooks for tests: the canvas carries data-zoom, data-view-x and
// data-view-y (the top-left corner in squares, columns and rows), the
// buttons are .ants-zoom button[data-zoom=in|out|fit].

// Each button press and each wheel notch (100 pixels of deltaY) zooms by
// this factor.
const STEP = 1.5;
// At the deepest zoom the map's shorter side still shows this many squares.
const FEWEST_SQUARES = 8;

// createViewport manages the zoom of canvas (a map of cols x rows squares
// drawn cell canvas pixels each at zoom 1) and calls redraw() after each
// change.
export function createViewport(canvas, cols, rows, cell, redraw) {
  const maxZoom = Math.max(1, Math.min(cols, rows) / FEWEST_SQUARES);
  let zoom = 1;
  let x = 0; // top-left corner, in squares
  let y = 0;
  let frame = 0;

  function clamp() {
    zoom = Math.min(maxZoom, Math.max(1, zoom));
    x = Math.min(cols - cols / zoom, Math.max(0, x));
    y = Math.min(rows - rows / zoom, Math.max(0, y));
  }

  function changed() {
    clamp();
    canvas.dataset.zoom = String(Math.round(zoom * 1000) / 1000);
    canvas.dataset.viewX = String(Math.round(x * 1000) / 1000);
    canvas.dataset.viewY = String(Math.round(y * 1000) / 1000);
    canvas.classList.toggle("zoomed", zoom > 1);
    // The whole map leaves a vertical swipe to the page (scrolling past
    // the map on a phone); zoomed in, every touch moves the map.
    canvas.style.touchAction = zoom > 1 ? "none" : "pan-y";
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        redraw();
      });
    }
  }

  // at turns a point of the page (clientX, clientY) into a fraction of
  // the canvas's width and height.
  function at(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    return [r.width ? (clientX - r.left) / r.width : 0.5, r.height ? (clientY - r.top) / r.height : 0.5];
  }

  // zoomAt multiplies the zoom by factor keeping the square at the
  // fractions (fx, fy) of the canvas where it is.
  function zoomAt(factor, fx, fy) {
    const sx = x + (fx * cols) / zoom;
    const sy = y + (fy * rows) / zoom;
    zoom = Math.min(maxZoom, Math.max(1, zoom * factor));
    x = sx - (fx * cols) / zoom;
    y = sy - (fy * rows) / zoom;
    changed();
  }

  // panBy moves the shown part by a distance in page pixels (a drag).
  function panBy(dx, dy) {
    const r = canvas.getBoundingClientRect();
    if (!r.width || !r.height) return;
    x -= (dx / r.width) * (cols / zoom);
    y -= (dy / r.height) * (rows / zoom);
    changed();
  }

  function onWheel(e) {
    // Zooming out of the whole map is nothing to do: let the page scroll.
    if (e.deltaY > 0 && zoom <= 1) return;
    e.preventDefault();
    const lines = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 100 : 1;
    const [fx, fy] = at(e.clientX, e.clientY);
    zoomAt(Math.pow(STEP, (-e.deltaY * lines) / 100), fx, fy);
  }

  // Pointers down on the canvas: one drags, two pinch.
  const pointers = new Map();
  let pinch = null; // {dist, mx, my} of the last two-pointer event

  function twoPointers() {
    const [a, b] = [...pointers.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  function onDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    pinch = pointers.size === 2 ? twoPointers() : null;
    canvas.classList.toggle("dragging", pointers.size === 1);
  }

  function onMove(e) {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (pointers.size === 1) {
      if (dx || dy) panBy(dx, dy);
    } else if (pointers.size === 2 && pinch) {
      const now = twoPointers();
      const [fx, fy] = at(now.mx, now.my);
      if (pinch.dist > 0 && now.dist > 0) zoomAt(now.dist / pinch.dist, fx, fy);
      panBy(now.mx - pinch.mx, now.my - pinch.my);
      pinch = now;
    }
  }

  function onUp(e) {
    pointers.delete(e.pointerId);
    pinch = pointers.size === 2 ? twoPointers() : null;
    canvas.classList.toggle("dragging", pointers.size === 1);
  }

  canvas.addEventListener("wheel", onWheel, { passive: false });
  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onUp);

  // The buttons zoom around the middle of what is shown.
  const buttons = document.createElement("div");
  buttons.className = "ants-zoom";
  for (const [what, label, title] of [
    ["in", "+", "zoom in (or the mouse wheel; drag to pan)"],
    ["out", "−", "zoom out"],
    ["fit", "⤢", "the whole map"],
  ]) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.zoom = what;
    b.title = title;
    b.setAttribute("aria-label", title);
    b.textContent = label;
    buttons.appendChild(b);
  }
  buttons.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-zoom]");
    if (!b) return;
    if (b.dataset.zoom === "in") zoomAt(STEP, 0.5, 0.5);
    else if (b.dataset.zoom === "out") zoomAt(1 / STEP, 0.5, 0.5);
    else {
      zoom = 1;
      changed();
    }
  });
  changed();

  return {
    buttons,
    // transform is the canvas transform that draws the map, in its zoom-1
    // canvas pixels, at the current zoom.
    transform() {
      const z = zoom;
      return [z, 0, 0, z, -x * cell * z, -y * cell * z];
    },
    // scale is the canvas pixels a square takes now.
    scale: () => cell * zoom,
    // visible is the range of squares on the canvas, one square of
    // margin included: [firstCol, firstRow, lastCol, lastRow].
    visible() {
      return [Math.floor(x) - 1, Math.floor(y) - 1, Math.ceil(x + cols / zoom), Math.ceil(y + rows / zoom)];
    },
    destroy() {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      canvas.removeEventListener("wheel", onWheel);
    },
  };
}
