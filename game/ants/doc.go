// Package ants is a referee for Ants, the game of the Google AI Challenge
// 2011, that plays exactly as the official Python engine does
// (aichallenge/aichallenge: ants/ants.py, worker/engine.py,
// ants/playgame.py): given the same map, options, seeds and orders it sends
// every bot the same bytes and writes the same replay.
//
// Rules: http://ants.aichallenge.org/specification.php; where the written
// rules and the engine's code disagree the code wins. A turn resolves as: move (all ants at once, any
// ants sharing a square die), focus attack, raze hills, spawn, gather
// food, place food; the game ends by extermination, lone survivor, the
// 85 % cutoffs, rank stabilization or the turn limit.
//
// Parameters (playgame.py names and defaults):
//
//	name            type     default    meaning
//	turns           int      1000       turn limit
//	loadtime        int      3000       ms for turn 0
//	turntime        int      1000       ms per turn
//	viewradius2     int      77         squared vision radius
//	attackradius2   int      5          squared attack radius
//	spawnradius2    int      1          squared gathering radius
//	engine_seed     int      random     seeds the engine's Mersenne Twister
//	player_seed     int      random     sent to the bots
//	food_rate       2 ints   5 11       food per player per food_turn turns (drawn)
//	food_turn       2 ints   19 37
//	food_start      2 ints   75 175     one starting food per food_start land squares
//	food_visible    2 ints   3 5        starting food per player in sight of its hills
//	food            string   symmetric  none, random, sections, symmetric
//	attack          string   focus      focus, closest, support, damage
//	cutoff_turn     int      150        turns a dominance must last to end the game
//	cutoff_percent  float    0.85       share of all ants and food that is dominance
//	scenario        bool     false      take ants and food from the map
//	strict          bool     false      an invalid order eliminates the bot
//	serial          int      0          time the bots this many at a time
//	end_wait        seconds  0          time bots get to read "end"
//
// State (state.go, food.go, vision.go, orders.go) is the pure rules;
// Engine (engine.go) is run_game's loop; protocol.go speaks to real
// processes; replay.go writes the rev-3 replay; conformance.go replays
// games recorded from the official engine and reports the first
// difference. The random numbers come from package pyrandom, an exact
// emulation of CPython 3's random module. A runner of many games hands
// them one FoodCache (food.go), so that each map's symmetric food sets
// are worked out once.
package ants

import (
	"time"

	"arena/game"
)

// Info describes Ants to the arena's registry of games.
func Info() game.Info {
	return game.Info{Name: "ants", Title: "Ants (AI Challenge 2011)", Players: [2]int{2, 10}, Simultaneous: true,
		// The replay needs the engine's state: it is the file the game wrote.
		Formats:  []game.Format{{Name: "replay", Ext: ".replay", ContentType: "application/json", Title: "replay (official visualizer)"}},
		TurnTime: time.Second,
		// The engine keeps its own time (--turntime, --loadtime).
		Unused:      []string{"ponder", "match-time", "tolerance", "startup-time"},
		UnusedWhy:   "the official engine gives each turn --turntime and pauses the bots in between",
		DefaultBots: []string{"builtin", "builtin"},
		Help: game.Help{
			Short: "Play Ants (AI Challenge 2011) games between 2 to 10 bots, as the official engine plays them",
			Long: `Play Ants, the game of the Google AI Challenge 2011, between 2 to 10 bots
speaking the official bot protocol. The referee plays exactly as the official
Python engine (playgame.py): same rules, same options under the same names
and defaults, and for the same map, seeds and orders the same bytes to every
bot and the same replay. Each game writes ID.replay (rev-3 JSON, loadable by
the official visualizer) and the arena record ID.json into --out; -S, -I, -O
and -E add the stream and the per-bot input, output and error logs. The
replay names each bot as playgame.py does: after the last word of its
command that is an existing path ("python3 HunterBot.py" is HunterBot.py).
Without --map a symmetric map for the number of bots is generated.
Time is the engine's: --turntime per turn (or --turn-time as a Go
duration, not both) and --loadtime for turn 0, wall clock, bots paused
between turns. The options take playgame.py's forms: --food_rate 5 11 as
two words, --serial without a value. A bot that crashes or times out is
out of the game but its ants stay on the board, as in the official engine.`,
			Example: `  arena match ants --map maps/maze_p04_01.map --bot ./MyBot --bot "python3 HunterBot.py" --fill --turns 500
  arena match ants --bot builtin --bot "builtin --sample greedy" --engine_seed 42 --player_seed 42 -S -I -O -E
  arena match ants --map tutorial1.map --map maze.map --rounds 4 --turntime 500 --json`,
		},
	}
}
