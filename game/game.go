// Package game holds the contracts every game of the arena shares: the
// result of a game with the reason it ended, the verdicts a failing bot
// earns, the record written for every game, and the registry that maps a
// game's name to what the rest of the arena needs to know about it.
//
// Each game lives in its own package below this one (game/gomoku, ...);
// its referee is pure — no I/O, no clocks — so bots, tests, fuzzers, the
// manager and the web page all share it.
package game

import (
	"fmt"
	"sort"
)

// Reason says why a game ended. The names are part of the JSON output.
type Reason string

// Reasons shared by every game. Games may add their own (gomoku: "five",
// "foul", "score").
const (
	ReasonDraw     Reason = "draw"
	ReasonTimeout  Reason = "timeout"  // a bot exceeded its turn or match time
	ReasonCrash    Reason = "crash"    // a bot exited, was killed by a signal or closed its output
	ReasonIllegal  Reason = "illegal"  // a bot answered a move the rules refuse
	ReasonProtocol Reason = "protocol" // a bot answered something that is not a move
	ReasonMemory   Reason = "memory"   // a bot exceeded its memory limit
	ReasonResign   Reason = "resign"   // a person gave the game up
)

// Fault is the verdict on one side that failed: the reason and a detail
// such as the exit status or the offending line.
type Fault struct {
	Reason Reason
	Detail string
}

func (f Fault) Error() string {
	if f.Detail == "" {
		return string(f.Reason)
	}
	return string(f.Reason) + ": " + f.Detail
}

// Result is the end of a game in terms of sides (0 moves first).
type Result struct {
	// Winner is the winning side, or -1 for a draw.
	Winner int
	Reason Reason
	Detail string
	// Scores per side, for games that keep a score; nil otherwise.
	Scores []int
}

// Draw reports whether nobody won.
func (r Result) Draw() bool { return r.Winner < 0 }

// Info describes a game for the rest of the arena: the registry maps
// names to it.
type Info struct {
	Name    string // command-line name, e.g. "gomoku"
	Title   string // human name, e.g. "Gomoku"
	Players [2]int // minimum and maximum number of players
	// Formats are the game's own file formats a record can be written
	// in, besides arena's JSON.
	Formats []Format
}

// Registry maps game names to their Info. The zero value is empty and
// ready to use; it is not safe for concurrent registration.
type Registry struct {
	games map[string]Info
}

// Register adds a game; a second game of the same name is an error.
func (r *Registry) Register(g Info) error {
	if r.games == nil {
		r.games = map[string]Info{}
	}
	if _, dup := r.games[g.Name]; dup {
		return fmt.Errorf("game %q registered twice", g.Name)
	}
	r.games[g.Name] = g
	return nil
}

// Lookup finds a game by name.
func (r *Registry) Lookup(name string) (Info, bool) {
	g, ok := r.games[name]
	return g, ok
}

// Names lists the registered games in alphabetical order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.games))
	for n := range r.games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
