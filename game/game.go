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
	"time"

	"github.com/spf13/pflag"
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

// Info describes a game for the rest of the arena: what the CLI, the
// scheduler and the web page need to know of it without knowing its
// rules.
type Info struct {
	Name    string // command-line name, e.g. "gomoku"
	Title   string // human name, e.g. "Gomoku"
	Players [2]int // minimum and maximum number of players
	// Simultaneous says the players move at once, every turn (Ants):
	// every seat thinks at the same time, a game's length counts turns,
	// and a live view shows every seat to move.
	Simultaneous bool
	// Human says a person can take a seat (in the web page).
	Human bool
	// ToldClock says the game's protocol tells a bot its clock, so that a
	// person may give the bot opposite a time of its own (a bot that is
	// not told would be judged on a clock it never saw).
	ToldClock bool
	// TurnTime and MatchTime are the game's default clocks.
	TurnTime, MatchTime time.Duration
	// Unused names the settings shared by every game's match that mean
	// nothing in this one ("ponder", "match-time", "tolerance",
	// "startup-time"): a game that keeps its own time does not take them.
	Unused []string
	// UnusedWhy says why, in the error for an Unused setting given.
	UnusedWhy string
	// PlayerSettings names the settings of its own a bot may bring (in a
	// bots file) that the game honours: "dir", "proto", "env", "memory",
	// "turn_time", "match_time", "options".
	PlayerSettings []string
	// DefaultBots are the bots that play when none are given ("builtin"
	// is arena's own bot for the game).
	DefaultBots []string
	// Help describes "arena match GAME" for people.
	Help Help
	// Formats are the game's own file formats a record can be written
	// in, besides arena's JSON.
	Formats []Format
}

// Help is a game's description in the CLI's help: one line, the long
// text and examples of use.
type Help struct {
	Short, Long, Example string
}

// Game is the contract every game of the arena implements in its own
// package: what it is, and its options. Values are immutable and safe
// for concurrent use.
type Game interface {
	Info() Info
	// NewOptions returns the game's options at their defaults: a pointer
	// to the game's own options struct.
	NewOptions() Options
}

// Options are one game's options as a typed struct: its zero value is
// not meant to be used, NewOptions gives the defaults. The struct
// encodes to and decodes from JSON (a match written down) and binds its
// fields to command-line flags, so the flags and the JSON are one set of
// options.
type Options interface {
	// Bind registers the options as flags on fs, each flag writing into
	// its field, with the field's current value as the default. Flags
	// shared by every game (--bot, --turn-time, ...) are already on fs.
	Bind(fs *pflag.FlagSet)
	// Validate checks the options once set, from flags or JSON. Its
	// errors name the flag a user gives them by.
	Validate() error
}

// FlagChecker is implemented by Options whose flags depend on one
// another or on the shared flags in a way Validate cannot see from the
// values alone (Ants: --turntime or --turn-time, not both); CheckFlags
// runs after parsing, before Validate.
type FlagChecker interface {
	CheckFlags(fs *pflag.FlagSet) error
}

// ArgsTaker is implemented by Options that take words left after the
// flags (Ants: the MAX of "--food_rate 5 11"); other games take none.
// TakeArgs returns the words it did not take, which are an error.
type ArgsTaker interface {
	TakeArgs(args []string) (rest []string, err error)
}

// FileOptions is implemented by Options that name files the game reads
// (Gomoku's --opening, Ants' --map). Files returns a pointer to the value
// of each such option ("" where none is given), so that a game played on
// another machine can take the files' contents along and point its
// options at the copies there, never at a path of the machine the
// options were written on.
type FileOptions interface {
	Files() []*string
}

// Registry holds the games a program plays, by name. It is built once by
// NewRegistry from an explicit list and never changes: safe for
// concurrent use. G is the contract its users need (match.Game for the
// arena, which plays them).
type Registry[G Game] struct {
	games []G // in the order given
	index map[string]int
}

// NewRegistry makes the registry of games; two games of one name, or a
// game without a name, is an error.
func NewRegistry[G Game](games ...G) (*Registry[G], error) {
	r := &Registry[G]{index: map[string]int{}}
	for _, g := range games {
		name := g.Info().Name
		if name == "" {
			return nil, fmt.Errorf("a game without a name (%T)", g)
		}
		if _, dup := r.index[name]; dup {
			return nil, fmt.Errorf("game %q registered twice", name)
		}
		r.index[name] = len(r.games)
		r.games = append(r.games, g)
	}
	return r, nil
}

// Lookup finds a game by name.
func (r *Registry[G]) Lookup(name string) (G, bool) {
	i, ok := r.index[name]
	if !ok {
		var zero G
		return zero, false
	}
	return r.games[i], true
}

// All lists the games in the order they were given.
func (r *Registry[G]) All() []G {
	return append([]G(nil), r.games...)
}

// Names lists the games' names in alphabetical order.
func (r *Registry[G]) Names() []string {
	names := make([]string, 0, len(r.games))
	for n := range r.index {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Formats maps each game's name to its own file formats.
func (r *Registry[G]) Formats() map[string][]Format {
	m := map[string][]Format{}
	for _, g := range r.games {
		info := g.Info()
		m[info.Name] = info.Formats
	}
	return m
}
