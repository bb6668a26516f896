// Package gomoku implements the rules of Gomoku as Gomocup plays them, the
// Gomocup record and opening formats, and the two Gomocup protocols a brain
// can speak: the old file protocol (file.go) and the Piskvork pipe protocol
// (pipe.go).
//
// Rules: https://gomocup.org and the Piskvork protocol texts
// (plastovicka.github.io/protocl2en.htm).
//
// Parameters:
//
//	name    type  default  meaning
//	width   int   20       columns, 5..32
//	height  int   20       rows, 5..32
//	rule    Rule  0        Gomocup INFO rule code: 0 five or more, 1 exactly five,
//	                       2 continuous, 3 continuous + exactly five, 4 renju,
//	                       8 caro (a five blocked at both ends does not win),
//	                       9 caro + exactly five
//
// The referee (State) is pure: no I/O, no clocks. The first mover plays
// Black, written 'x' in PLOCHA.DAT; the second plays White, 'o'.
package gomoku

import "arena/game"

// Info describes Gomoku to the arena's registry of games.
func Info() game.Info {
	return game.Info{Name: "gomoku", Title: "Gomoku", Players: [2]int{2, 2}, Formats: formats()}
}
