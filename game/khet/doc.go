// Package khet implements Khet 2.0 (laser chess) as the University of
// Tartu school contest (manguvoistlus.ut.ee, 2012/13) played it: the
// rules, the three standard setups, the contest's state and move
// notation, and its line protocol (protocol.go).
//
// Rules: Khet 2.0 official rules (khet.com, Innovention Toys), with the
// decisions of the arena's spec (specs/khet.md) where the contest was
// silent. Board 10x8, x 0..9 left to right, y 0..7 top to bottom; Silver
// (Sphinx at 9,7) moves first, Red (Sphinx at 0,0) second. A turn moves
// one piece one square in any of 8 directions, turns it a quarter, swaps
// a Scarab with an adjacent Pyramid or Anubis, or turns the Sphinx between
// its two board-facing directions; then the mover's laser fires and
// removes the one piece it hits on a vulnerable face. Hitting a Pharaoh
// ends the game: its owner loses.
//
// Orientations (0 up, 1 right, 2 down, 3 left): Pharaoh, Anubis and Sphinx
// by the face; a Pyramid by its mirror (0 faces up-right, its reflecting
// sides are d and d+1); a Scarab by its right-hand mirror (d and d+2 are
// the same mirror). C turns clockwise (d+1), c counter-clockwise (d-1).
//
// Parameters:
//
//	name        type    default  meaning
//	setup       Setup   classic  classic, imhotep or dynasty
//	max plies   int     400      draw dGM after this many plies (0 = none)
//	repetition  int     3        draw dG3 at this occurrence of a position (0 = never)
//	pharaoh     bool    false    the Pharaoh may be turned in place
//	swap check  bool    both     a Scarab swap checks both pieces' restricted squares
//	                             (SwapMoverOnly: only the Scarab's)
//
// The referee (State) is pure: no I/O, no clocks. Board is the fast part
// the built-in bot searches with: move generation, make and unmake with
// the laser, Zobrist hashes.
package khet

import "arena/game"

// Info describes Khet to the arena's registry of games.
func Info() game.Info {
	return game.Info{Name: "khet", Title: "Khet", Players: [2]int{2, 2}, Formats: formats()}
}
