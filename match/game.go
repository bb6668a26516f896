package match

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"arena/bot"
	"arena/game"
	"arena/sandbox"
)

// Game is the whole contract of a game in the arena: game.Game (what it
// is, its options) and the part that plays it, which needs this
// package's players and clocks. Each game package provides one
// (gomoku.Def, ...).
type Game interface {
	game.Game
	// NewRunner checks opts (the game's own, from NewOptions, set and
	// validated) against env and returns the runner that plays the
	// match's or tournament's games.
	NewRunner(opts game.Options, env Env) (Runner, error)
}

// Env is what is the same for every game of a match or tournament,
// besides the game's own options: the players, the clock and the
// folders.
type Env struct {
	// Players are all bots (or people) of the match or tournament; a
	// job picks which of them play one game.
	Players []Player
	Clock   Clock
	Memory  int64 // bytes per bot, 0 = none
	Ponder  bool
	Seed    int64
	Out     string // absolute folder for records, created
	Work    string // scratch folder for bots' working folders, created, removed at the end
	Debug   bool
	// Sandbox puts every bot in its layers (nil: --sandbox off). It is
	// this machine's, not the match's: a spec does not carry it.
	Sandbox *sandbox.Sandbox
}

// A Runner plays single games of one game with options fixed when it
// was made. Runners are safe for concurrent use: a tournament plays
// several games at once.
type Runner interface {
	// Openings is how many distinct starting positions (openings, maps,
	// setups) the runner cycles through; at least 1.
	Openings() int
	// Play plays one game to its end, writes its files into Env.Out
	// and returns its record and the path of its JSON record. An error
	// means the game could not be played or saved (never a bot's
	// fault: that is a result).
	Play(ctx context.Context, job Job) (*game.Record, string, error)
}

// Job is one game to play.
type Job struct {
	ID string
	// Seats maps seat to player index (into Env.Players). For
	// two-player games seat 0 moves first.
	Seats []int
	// Opening is the index of the starting position, taken modulo
	// Openings().
	Opening int
	// Seed makes the game's random choices (Ants' engine seed, random
	// crosses ...) repeatable; 0 lets the runner choose.
	Seed int64
	// OnMove, if set, is called after every move or turn with its
	// number and, where the game has one, a short account of the
	// position ("a 12 ants 3 points, b ...") for progress bars.
	OnMove func(ply int, status string)
	// Transcripts, if set, gives each player's debug transcript.
	Transcripts func(player int) *bot.Transcript
	// Listener, if set, follows the game live (the web page).
	Listener game.Listener
}

// Participants turns a job's seating into the players of one game's
// record: order lists the seated players by their index in the match or
// tournament (the order of a record's Players), and seats maps each seat
// to a position in order (a record's Seats).
func Participants(jobSeats []int) (order, seats []int) {
	order = append([]int(nil), jobSeats...)
	slices.Sort(order)
	seats = make([]int, len(jobSeats))
	for s, pi := range jobSeats {
		seats[s] = slices.Index(order, pi)
	}
	return order, seats
}

// GameSetup is what a runner of a game played through Run takes from a
// job: who plays and where, and the per-game hooks of its match
// configuration.
type GameSetup struct {
	Order []int // the seated players by their index, as the record lists them
	First int   // the position in Order of the player who moves first
	// WorkDir is the game's own working folder: a tournament plays
	// several games of one bot at once.
	WorkDir     string
	OnMove      func(MoveEvent)
	Transcripts func(gameID string, player int) *bot.Transcript
	Listener    game.Listener // the job's, nil: nobody follows the game live
}

// Setup prepares a game of the job under workRoot; done removes its
// working folder.
func (j Job) Setup(workRoot string) (g GameSetup, done func()) {
	order, seats := Participants(j.Seats)
	g = GameSetup{Order: order, First: seats[0], WorkDir: filepath.Join(workRoot, j.ID), Listener: j.Listener}
	if j.OnMove != nil {
		g.OnMove = func(ev MoveEvent) { j.OnMove(ev.Ply, "") }
	}
	if j.Transcripts != nil {
		g.Transcripts = func(_ string, pi int) *bot.Transcript { return j.Transcripts(order[pi]) }
	}
	return g, func() { os.RemoveAll(g.WorkDir) }
}

// Pick returns the elements of all at the given indexes.
func Pick[T any](all []T, indexes []int) []T {
	out := make([]T, len(indexes))
	for i, k := range indexes {
		out[i] = all[k]
	}
	return out
}

// ProtoFor is the protocol setting of player i of n from a flag given
// once for all or once per player (--proto): "" when not given.
func ProtoFor(values []string, i int) string {
	switch {
	case len(values) == 1:
		return values[0]
	case len(values) > 1 && i < len(values):
		return values[i]
	}
	return ""
}
