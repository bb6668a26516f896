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

import (
	"time"

	"arena/game"
)

// Info describes Khet to the arena's registry of games.
func Info() game.Info {
	return game.Info{
		Name: "khet", Title: "Khet", Players: [2]int{2, 2}, Formats: formats(),
		Human: true, TurnTime: 10 * time.Second,
		DefaultBots:    []string{"builtin", "builtin"},
		PlayerSettings: []string{"dir", "env", "memory", "turn_time", "match_time"},
		Help: game.Help{
			Short: "Play Khet (laser chess) games between two bots speaking the Tartu line protocol",
			Long: `Play Khet 2.0 games between two programs speaking the line protocol of the
University of Tartu contest: the bot greets with "play khet NAME", receives
"B <S|R> <state>", answers every "R <S|R> <state>" with a move such as S23C,
and exits after "E <S|R> <state>". Silver moves first. An invalid move or a
line that is not a move loses by E, a move over the per-move limit by T.
Without --bot, arena's own player plays itself.`,
			Example: `  arena match khet --bot ./mybot --bot "python3 -u __init__.py" --games 10
  arena match khet --bot builtin --bot "java Program" --setup dynasty --turn-time 2s --json`,
		},
	}
}
