package match

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"arena/bot"
	"arena/game"
	"arena/sandbox"
)

// Spec is one game written down: everything needed to play it, as a
// JSON value that can be stored or sent to another machine and played
// there by Play. It holds no paths of this machine besides the players'
// commands (and a game's option naming a file, such as Gomoku's
// openings): where records and working folders go is the player's
// business (Local).
//
// A Spec has two parts. The match: the game, its options, the players,
// the clock and the match seed, which every game of a match or
// tournament shares. The game: its ID, the seating, the opening and its
// own seed.
type Spec struct {
	ID   string `json:"id"`
	Game string `json:"game"`
	// Options are the game's own options, the JSON of the struct its
	// NewOptions returns; absent fields keep their defaults.
	Options json.RawMessage `json:"options,omitempty"`
	// Players are every player of the match or tournament the game
	// belongs to (a game's options may name them by index, as --proto
	// does); Seats picks the ones who play.
	Players []Player `json:"players"`
	// Seats maps seat to an index into Players; seat 0 moves first.
	Seats []int `json:"seats"`
	// Opening is the index of the starting position (openings, maps,
	// random positions), taken modulo the runner's Openings().
	Opening int   `json:"opening,omitempty"`
	Clock   Clock `json:"clock"`
	Memory  int64 `json:"memory,omitempty"` // bytes per bot, 0 = none
	Ponder  bool  `json:"ponder,omitempty"`
	// Seed is the match's seed (the order of openings, random
	// positions, generated maps); 0: none, the runner chooses.
	Seed int64 `json:"seed,omitempty"`
	// GameSeed is this game's own seed (Ants' engine seed); 0: none.
	GameSeed int64 `json:"game_seed,omitempty"`
}

// Local is where this machine plays a spec and who follows it: nothing
// of it is part of the game.
type Local struct {
	Out  string // absolute folder for the records, created
	Work string // scratch folder for the bots' working folders, created
	// Sandbox puts every bot in its layers (nil: off): this machine's.
	Sandbox *sandbox.Sandbox
	// OnMove, Transcripts and Listener are as in Job.
	OnMove      func(ply int, status string)
	Transcripts func(player int) *bot.Transcript
	Listener    game.Listener
}

// Games finds a game by name: a game.Registry of match.Game.
type Games interface {
	Lookup(name string) (Game, bool)
}

// ReadSpec decodes a spec written as JSON, refusing fields it does not
// know (a misspelt field would silently change the game).
func ReadSpec(data []byte) (Spec, error) {
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("read spec: %w", err)
	}
	if s.Game == "" || s.ID == "" {
		return Spec{}, errors.New("read spec: no game or no id")
	}
	return s, nil
}

// Options decodes the spec's options into the game's options struct,
// over its defaults, and validates them.
func (s Spec) options(g Game) (game.Options, error) {
	opts := g.NewOptions()
	if len(s.Options) > 0 {
		dec := json.NewDecoder(bytes.NewReader(s.Options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(opts); err != nil {
			return nil, fmt.Errorf("spec %s: %s options: %w", s.ID, s.Game, err)
		}
	}
	if err := opts.Validate(); err != nil {
		return nil, err // it names the option
	}
	return opts, nil
}

// env is the match part of the spec, played under local's folders.
func (s Spec) env(local Local) Env {
	return Env{Players: s.Players, Clock: s.Clock, Memory: s.Memory, Ponder: s.Ponder, Seed: s.Seed, Out: local.Out, Work: local.Work,
		Sandbox: local.Sandbox}
}

// job is the game part of the spec, followed by local's hooks.
func (s Spec) job(local Local) Job {
	return Job{ID: s.ID, Seats: s.Seats, Opening: s.Opening, Seed: s.GameSeed,
		OnMove: local.OnMove, Transcripts: local.Transcripts, Listener: local.Listener}
}

// Play plays a spec to its end for every game, two-player and N-player
// alike: it looks the game up, reads its options, builds the game's
// runner and plays the one game, writing its files into local.Out. It
// returns the record and the path of its JSON record; an error means the
// game could not be played (unknown game, bad options, cancelled), never
// a player's fault, which is the record's result.
//
// The game's runner decides how its game is played: Gomoku, Khet and
// Points go through Run, the one loop of alternating and simultaneous
// turns; Ants keeps its own loop (game/ants.PlayGame), because its
// referee is the official engine's turn, byte for byte: all orders of a
// turn are read at once under one deadline, with the engine's own
// timeouts, pausing and logs, which Run's per-seat requests and clocks
// do not express. It is behind this same function all the same.
func Play(ctx context.Context, games Games, spec Spec, local Local) (*game.Record, string, error) {
	g, ok := games.Lookup(spec.Game)
	if !ok {
		return nil, "", fmt.Errorf("spec %s: unknown game %q", spec.ID, spec.Game)
	}
	r, err := newRunner(g, spec, local)
	if err != nil {
		return nil, "", err
	}
	return r.Play(ctx, spec.job(local))
}

func newRunner(g Game, spec Spec, local Local) (Runner, error) {
	opts, err := spec.options(g)
	if err != nil {
		return nil, err
	}
	return g.NewRunner(opts, spec.env(local)) // its errors name the option
}

// Runners plays the specs of one match or tournament as Play does, but
// builds each game's runner once for all specs that share their match
// part (game, options, players, clock, seeds of the match), as a match's
// games share their openings, the persistent folder and the random
// positions drawn when the seed is 0. Safe for concurrent use.
type Runners struct {
	games Games
	local Local // folders and sandbox only
	mu    sync.Mutex
	byKey map[string]Runner
}

// NewRunners plays specs of the games in place: under its folders, in
// its sandbox (its hooks are each game's own).
func NewRunners(games Games, place Local) *Runners {
	place = Local{Out: place.Out, Work: place.Work, Sandbox: place.Sandbox}
	return &Runners{games: games, local: place, byKey: map[string]Runner{}}
}

// Play plays one spec; local's hooks follow it (its folders are the
// Runners').
func (rs *Runners) Play(ctx context.Context, spec Spec, local Local) (*game.Record, string, error) {
	local.Out, local.Work, local.Sandbox = rs.local.Out, rs.local.Work, rs.local.Sandbox
	r, err := rs.runner(spec)
	if err != nil {
		return nil, "", err
	}
	return r.Play(ctx, spec.job(local))
}

// Openings is the number of starting positions the spec's match cycles
// through.
func (rs *Runners) Openings(spec Spec) (int, error) {
	r, err := rs.runner(spec)
	if err != nil {
		return 0, err
	}
	return r.Openings(), nil
}

// runner returns the runner of the spec's match, built at its first use.
func (rs *Runners) runner(spec Spec) (Runner, error) {
	key, err := matchKey(spec)
	if err != nil {
		return nil, err
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.byKey[key]; ok {
		return r, nil
	}
	g, ok := rs.games.Lookup(spec.Game)
	if !ok {
		return nil, fmt.Errorf("spec %s: unknown game %q", spec.ID, spec.Game)
	}
	r, err := newRunner(g, spec, rs.local)
	if err != nil {
		return nil, err
	}
	rs.byKey[key] = r
	return r, nil
}

// matchKey identifies the match part of a spec. People's seats are
// this process's own: a spec seating one is a match of its own.
func matchKey(spec Spec) (string, error) {
	for _, p := range spec.Players {
		if p.Human != nil {
			return fmt.Sprintf("%p", p.Human), nil
		}
	}
	m := spec
	m.ID, m.Seats, m.Opening, m.GameSeed = "", nil, 0, 0
	data, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("spec %s: %w", spec.ID, err)
	}
	return string(data), nil
}
