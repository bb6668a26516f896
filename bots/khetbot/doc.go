// Package khetbot is arena's own Khet player ("arena bot khet"): it
// speaks the Tartu line protocol (game/khet) and searches with alpha-beta
// (principal variation search), iterative deepening, a Zobrist
// transposition table and move ordering (table move, laser captures,
// killers, history), over an evaluation that knows what each laser hits
// now and how close each beam passes to the enemy Pharaoh. It thinks well
// inside the per-move limit and reports depth and nodes per second on
// stderr after every move. Its moves come from the referee's own move
// generator, so it never plays an illegal move.
package khetbot
