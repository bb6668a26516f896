// Nim view: the pile of stones left, one dot a stone, and the moves as
// numbers taken. The arena's test game (internal/nim): adding a game's
// view is adding a file like this one.

import { el, options } from "./shared.js";

function create(root, header) {
  const opts = options(header);
  const stones = Math.max(0, Number(opts.stones) || 0);
  const board = document.createElement("div");
  board.className = "board";
  board.dataset.game = "nim";
  board.dataset.ply = "0";
  board.dataset.over = "0";
  const svg = el("svg", { viewBox: `0 0 ${Math.max(1, stones) * 24 + 8} 40`, class: "nim-svg", role: "img", "aria-label": "Nim pile" }, board);
  svg.style.cssText = "display:block;width:100%;max-width:640px";
  const dots = [];
  for (let i = 0; i < stones; i++) dots.push(el("circle", { cx: 16 + i * 24, cy: 20, r: 9, fill: "#5a4321" }, svg));
  const left = document.createElement("p");
  left.className = "nim-left";
  board.appendChild(left);
  root.appendChild(board);

  const moves = [];
  function show(n) {
    let gone = 0;
    for (let i = 0; i < n && i < moves.length; i++) gone += moves[i];
    dots.forEach((d, i) => d.setAttribute("opacity", i < stones - gone ? "1" : "0.15"));
    left.textContent = stones - gone + " left";
    board.dataset.ply = String(n);
  }
  show(0);
  return {
    push(m) {
      moves.push(Math.max(0, Number(m.move) || 0));
    },
    length: () => moves.length,
    moveText(ply) {
      return moves[ply - 1] === undefined ? null : { label: "takes " + moves[ply - 1] };
    },
    show,
    result(record) {
      board.dataset.over = record ? "1" : "0";
    },
    destroy() {
      board.remove();
    },
  };
}

export default { create };
