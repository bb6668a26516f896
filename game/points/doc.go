// Package points implements Points, the dots game (точки, kropki), as
// Points Battle, zagram and playdots play it: the rules with a fast
// incremental field, the starting crosses, the bot protocols Points Battle
// (protocol.go) and Points AI Protocol v6 (v6.go), the referee the match loop drives (referee.go), and the
// records: arena's JSON with every capture and the score after each move,
// and SGF with GM[40] (play.go, sgf.go).
//
// Rules (zagram.org/kropki-rules, the oppai-rs engine): players put dots
// on the intersections in turn, red first, no passing. A closed chain of a
// player's live dots, each next to the following one across a side or a
// corner, that holds at least one live enemy dot captures the area inside
// (the smallest such area; several at once through one dot): enemy dots
// inside are dead and count for the capturer, nobody may play inside,
// dead dots form no chains. The field's edge never encloses. An area
// taken again by the other player frees its prisoners (the first
// capturer's score drops). A closed chain without enemy dots is a house:
// an enemy dot played into it is captured with the whole house, unless
// that dot captures something itself. The game ends when no point is
// free; more captured dots wins, equal is a draw.
//
// Parameters:
//
//	name       type      default   meaning
//	width      int       39        columns, 3..64
//	height     int       32        rows, 3..64
//	surround   Surround  standard  houses: standard; always (every ring takes
//	                               its area at once); always-enemy (the house
//	                               owner takes a dot played into it even when
//	                               that dot captured)
//	grounding  bool      false     end the game when a player could ground
//	                               (hand its dots not 4-connected to the edge
//	                               through its own points to the opponent)
//	                               and still win, as oppai-rs does
//	max moves  int       0         end after this many moves (0 = no cap)
//	opening    Opening   cross     empty, cross, cross2, cross3, cross4,
//	                               random (four crosses from the seed)
//
// Decisions where sources differ: an enclosure is a region of points the
// player does not own (its live dots and captured areas are walls) that
// cannot reach the edge; a dot played by the opponent into such a region
// that holds no live dot of its own is taken with the region (the
// "house"), whether or not the region was a house when it closed — there
// are no house marks to forget. Grounding hands over the ungrounded groups
// of points (live dots, areas and the prisoners in them).
//
// The referee (State, Field) is pure: no I/O, no clocks. Field is fast
// enough for bots' playouts: a dot that cannot close a ring (it does not
// cut the free region around it in two, or the walls it touches belong to
// different components of a union-find) costs a few nanoseconds; a ring
// costs the area it touches. BenchmarkRefereeRandomGames measures random
// games to the end on 39x32; reference_test.go checks Field against a
// slow flood-fill referee on thousands of random games.
package points

import "arena/game"

// Info describes Points to the arena's registry of games.
func Info() game.Info {
	return game.Info{
		Name: "points", Title: "Points (dots)", Players: [2]int{2, 2}, Formats: formats(),
		Human: true, ToldClock: true,
		DefaultBots:    []string{"builtin", "builtin"},
		PlayerSettings: []string{"dir", "proto", "env", "memory", "turn_time", "match_time", "options"},
		Help: game.Help{
			Short: "Play Points (the dots game) between two bots speaking Points Battle or Points AI Protocol v6",
			Long: `Play Points (dots, "точки") between two programs speaking the Points Battle
protocol: the bot prints its name first; it receives "new H W", "increment I" (seconds),
"move X Y" for every dot it has not seen (odd dots red, even blue), "time T"
and "otime T" before every "go", answers "move X Y", and gets "quit" at the
end. Coordinates are 0-based and times in milliseconds unless --proto says
otherwise for a bot. Red (the first bot of a game) moves first; colours
alternate from game to game.

Engines speaking Points AI Protocol v6 (kurnevsky's opai, oppai-rs before
2024) run as they are: arena sends "ID COMMAND ARGS" and reads "= ID ..." or
"? ID ...": list_commands, name, version, "init W H SEED", a "play X Y
COLOUR" for every dot of both sides (the opening crosses too; colour 0 is
red), "gen_move_with_time COLOUR MS" (MS from the clock by the rule arena's
own player budgets by; plain gen_move without a clock) and quit.
--proto v6 or pb says which a bot speaks; without it arena asks: it sends
"1 list_commands" at start, and a bot whose first line is "= 1 list_commands
..." speaks v6, else that line is a Points Battle bot's name.

Clocks: as in Points Battle, --increment (default 10s) is added to a bot's
clock before each of its moves. --match-time is the time on each clock at
the start (default 0, as Points Battle: a bot's start-up is charged to its
clock, so its first move has the increment less the start-up). Time a bot
does not use stays on its clock. With --increment 0 and --match-time 0
there is no clock. --turn-time, if set, also limits every move.
Without --bot, arena's own player plays itself.`,
			Example: `  arena match points --bot ./mybot --bot builtin --games 10
  arena match points --bot "python3 -u bot.py" --bot builtin --size 20x20 --opening random --seed 7 --increment 2s --json
  arena match points --bot old.exe --bot builtin --proto base=1,time_unit=s --proto "" --surround always
  arena match points --bot ./opai --bot builtin --proto v6,pb`,
		},
	}
}
