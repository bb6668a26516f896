package khet

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"arena/game"
	"arena/match"
)

// Def is Khet's contract with the arena (match.Game): its description,
// its options and the runner that plays its games.
type Def struct{}

var _ match.Game = Def{}

// Info describes Khet.
func (Def) Info() game.Info { return Info() }

// NewOptions returns Khet's options at their defaults.
func (Def) NewOptions() game.Options { return DefaultSettings() }

// Settings are the options of a Khet match: the setup and the rule
// choices the contest left open.
type Settings struct {
	Setup           string `json:"setup"` // classic, imhotep or dynasty
	MaxPlies        int    `json:"max_plies"`
	Repetition      int    `json:"repetition"`
	PharaohRotation bool   `json:"pharaoh_rotation,omitempty"`
	SwapCheck       string `json:"swap_check"` // both or scarab
	// Opening is a file of openings (see ParseOpenings); each is played
	// twice, colours swapped.
	Opening string `json:"opening,omitempty"`
}

// DefaultSettings returns the options of a Khet match by default.
func DefaultSettings() *Settings {
	return &Settings{Setup: "classic", MaxPlies: DefaultMaxPlies, Repetition: DefaultRepetition, SwapCheck: "both"}
}

// Bind registers the options as the flags of "arena match khet".
func (s *Settings) Bind(fl *pflag.FlagSet) {
	fl.StringVar(&s.Setup, "setup", s.Setup, "starting position: classic, imhotep or dynasty")
	fl.IntVar(&s.MaxPlies, "max-plies", s.MaxPlies, "draw (dGM) after this many plies (0 = no limit)")
	fl.IntVar(&s.Repetition, "repetition", s.Repetition, "draw (dG3) when a position occurs this many times (0 = never)")
	fl.BoolVar(&s.PharaohRotation, "pharaoh-rotation", s.PharaohRotation, "allow turning the Pharaoh in place (the Khet FAQ forbids it)")
	fl.StringVar(&s.SwapCheck, "swap-check", s.SwapCheck, "restricted squares in a Scarab swap: both pieces, or scarab only")
	fl.StringVar(&s.Opening, "opening", s.Opening, "file of openings, one a line, moves in the protocol's notation (S23C R21C ...) played from the setup (each opening is played twice, colours swapped)")
}

// Files is the option that names a file to read: --opening.
func (s *Settings) Files() []*string { return []*string{&s.Opening} }

// Config returns the game parameters the options describe.
func (s *Settings) Config() (Config, error) {
	setup, err := ParseSetup(s.Setup)
	if err != nil {
		return Config{}, fmt.Errorf("--setup: %w", err)
	}
	cfg := Config{Setup: setup, MaxPlies: s.MaxPlies, Repetition: s.Repetition, Rules: Rules{PharaohRotation: s.PharaohRotation}}
	switch strings.ToLower(s.SwapCheck) {
	case "both":
	case "scarab":
		cfg.Rules.SwapMoverOnly = true
	default:
		return Config{}, fmt.Errorf("--swap-check %q: want both or scarab", s.SwapCheck)
	}
	if s.MaxPlies < 0 {
		return Config{}, fmt.Errorf("--max-plies %d: must not be negative", s.MaxPlies)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("--repetition: %w", err)
	}
	return cfg, nil
}

// Validate checks the options.
func (s *Settings) Validate() error {
	_, err := s.Config()
	return err
}

// NewRunner makes the runner of a match or tournament's games.
func (Def) NewRunner(opts game.Options, env match.Env) (match.Runner, error) {
	s, ok := opts.(*Settings)
	if !ok {
		return nil, fmt.Errorf("khet: options of type %T", opts)
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	r := &runner{out: env.Out}
	if s.Opening != "" {
		r.openings, err = game.ReadOpenings(s.Opening, env.Seed, func(fh io.Reader) ([][]Move, error) {
			return ParseOpenings(fh, cfg)
		})
		if err != nil {
			return nil, err
		}
	}
	for _, p := range env.Players {
		if p.Builtin {
			turn := env.Clock.Turn
			if p.Clock != (match.Clock{}) {
				turn = p.Clock.Turn // time odds
			}
			p.Args = builtinArgs(p.Args, turn, cfg)
		}
		r.players = append(r.players, p)
	}
	r.config = MatchConfig{Config: cfg, Clock: env.Clock, Ponder: env.Ponder, MemoryLimit: env.Memory, WorkDir: env.Work, Sandbox: env.Sandbox}
	return r, nil
}

// builtinArgs tells arena's own player the per-move limit and the rules,
// which the protocol does not, unless the user gave them.
func builtinArgs(args []string, turn time.Duration, cfg Config) []string {
	given := func(flag string) bool {
		for _, a := range args[3:] {
			if a == flag || strings.HasPrefix(a, flag+"=") {
				return true
			}
		}
		return false
	}
	out := append([]string(nil), args...)
	if !given("--turn-time") && turn > 0 {
		out = append(out, "--turn-time="+turn.String())
	}
	if !given("--max-plies") {
		out = append(out, "--max-plies="+strconv.Itoa(cfg.MaxPlies))
	}
	if cfg.Rules.PharaohRotation && !given("--pharaoh-rotation") {
		out = append(out, "--pharaoh-rotation")
	}
	if cfg.Rules.SwapMoverOnly && !given("--swap-check") {
		out = append(out, "--swap-check=scarab")
	}
	return out
}

// runner plays Khet games with fixed options.
type runner struct {
	config   MatchConfig
	players  []Player
	openings [][]Move
	out      string
}

func (r *runner) Openings() int { return max(len(r.openings), 1) }

func (r *runner) Play(ctx context.Context, j match.Job) (*game.Record, string, error) {
	gs, done := j.Setup(r.config.WorkDir)
	defer done()
	g := Game{ID: j.ID, Silver: gs.First, Players: match.Pick(r.players, gs.Order)}
	if len(r.openings) > 0 {
		g.Opening = r.openings[j.Opening%len(r.openings)]
	}
	mc := r.config
	mc.WorkDir, mc.OnMove, mc.Transcripts, mc.Listener = gs.WorkDir, gs.OnMove, gs.Transcripts, gs.Listener
	rec, err := PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := WriteFiles(r.out, rec)
	return rec, path, err
}
