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

import (
	"time"

	"arena/game"
)

// Info describes Gomoku to the arena's registry of games.
func Info() game.Info {
	return game.Info{
		Name: "gomoku", Title: "Gomoku", Players: [2]int{2, 2}, Formats: formats(),
		Human: true, ToldClock: true, TurnTime: time.Second, MatchTime: 3 * time.Minute,
		DefaultBots:    []string{"builtin", "builtin"},
		PlayerSettings: []string{"dir", "proto", "env", "memory", "turn_time", "match_time", "options"},
		Help: game.Help{
			Short: "Play Gomoku games between two Gomocup brains (pipe or file protocol)",
			Long: `Play Gomoku games between two brains speaking either Gomocup protocol.
A brain named "pbrain-..." speaks the pipe protocol, any other the old file
protocol (PLOCHA.DAT/TAH.DAT), unless --proto says; the brain may be the
program or the file an interpreter runs ("python3 pbrain-x.py",
"java -jar pbrain-x.jar", "wine pbrain-x.exe"). Relative paths in a command
are read against the folder arena starts in.
Without --bot, arena's own brain plays itself.`,
			Example: `  arena match gomoku --bot ./pbrain-a --bot ./pbrain-b --games 10 --turn-time 300ms --match-time 60s
  arena match gomoku --bot builtin --bot "python3 mybrain.py" --proto auto,pipe --rule 1 --size 15`,
		},
	}
}
