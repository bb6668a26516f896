package points

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"arena/game"
	"arena/match"
)

// Def is Points' contract with the arena (match.Game): its description,
// its options and the runner that plays its games.
type Def struct{}

var _ match.Game = Def{}

// Info describes Points.
func (Def) Info() game.Info { return Info() }

// NewOptions returns Points' options at their defaults.
func (Def) NewOptions() game.Options { return DefaultSettings() }

// Settings are the options of a Points match.
type Settings struct {
	Size    string `json:"size"`    // WIDTHxHEIGHT, or one number
	Opening string `json:"opening"` // empty, cross, cross2..4 or random
	// Increment is added to a bot's clock before each of its moves.
	Increment time.Duration `json:"increment"`
	Surround  string        `json:"surround"` // standard, always or always-enemy
	Grounding bool          `json:"grounding,omitempty"`
	MaxMoves  int           `json:"max_moves,omitempty"`
	// Positions is the number of distinct random positions a tournament
	// cycles through with --opening random.
	Positions int `json:"positions"`
	// Proto is the protocol options per bot: one for all or one per bot.
	Proto []string `json:"proto,omitempty"`
}

// DefaultSettings returns the options of a Points match by default.
func DefaultSettings() *Settings {
	return &Settings{Size: "39x32", Opening: "cross", Increment: 10 * time.Second, Surround: "standard", Positions: 1}
}

// Bind registers the options as the flags of "arena match points".
func (s *Settings) Bind(fl *pflag.FlagSet) {
	fl.StringVar(&s.Size, "size", s.Size, "field size WIDTHxHEIGHT, or one number for a square field (3..64)")
	fl.StringVar(&s.Opening, "opening", s.Opening, "starting dots: empty, cross, cross2, cross3, cross4, or random (four crosses placed from --seed)")
	fl.DurationVar(&s.Increment, "increment", s.Increment, "time added to a bot's clock before each of its moves (Points Battle: 10s)")
	fl.StringVar(&s.Surround, "surround", s.Surround, "empty enclosures: standard (a dot played into a house is taken unless it captures), always (every ring takes its area at once) or always-enemy (the house owner always takes it)")
	fl.BoolVar(&s.Grounding, "grounding", s.Grounding, "end the game when a player could ground (give up its dots not connected to the edge) and still win")
	fl.IntVar(&s.MaxMoves, "max-moves", s.MaxMoves, "end the game after this many moves, scored as it stands (0 = none)")
	fl.IntVar(&s.Positions, "positions", s.Positions, "--opening random: distinct random positions a tournament cycles through, each played with colours swapped (a match draws new crosses for every pair of games)")
	fl.StringArrayVar(&s.Proto, "proto", s.Proto, `protocol per bot: pb (Points Battle), v6 (Points AI Protocol v6) or auto (ask the bot: the default), with Points Battle's options, e.g. "pb,base=1,time_unit=s" (base 0|1, time_unit ms|s|cs); one for all or one per --bot; one value naming several protocols ("v6,pb") gives them to the bots in order`)
}

// config checks the options and returns the field, the enclosure rule
// and the opening they describe.
func (s *Settings) config() (Config, Opening, error) {
	w, h, err := parseFieldSize(s.Size)
	if err != nil {
		return Config{}, "", fmt.Errorf("--size: %w", err)
	}
	sur, err := ParseSurround(strings.ToLower(s.Surround))
	if err != nil {
		return Config{}, "", fmt.Errorf("--surround: %w", err)
	}
	cfg := Config{Width: w, Height: h, Surround: sur, Grounding: s.Grounding, MaxMoves: s.MaxMoves}
	if err := cfg.Validate(); err != nil {
		return Config{}, "", fmt.Errorf("--size/--max-moves: %w", err)
	}
	op, err := ParseOpening(s.Opening)
	if err != nil {
		return Config{}, "", fmt.Errorf("--opening: %w", err)
	}
	if _, err := op.Points(w, h, 1); err != nil {
		return Config{}, "", fmt.Errorf("--opening: %w", err)
	}
	if s.Positions < 1 {
		return Config{}, "", fmt.Errorf("--positions %d: must be at least 1", s.Positions)
	}
	if s.Increment < 0 {
		return Config{}, "", fmt.Errorf("--increment %v: must not be negative", s.Increment)
	}
	return cfg, op, nil
}

// Validate checks the options.
func (s *Settings) Validate() error {
	_, _, err := s.config()
	return err
}

// parseFieldSize reads "WxH" or "N".
func parseFieldSize(s string) (w, h int, err error) {
	a, b, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := w, error(nil)
	if found {
		h, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q: want WIDTHxHEIGHT such as 39x32", s)
	}
	if w < MinSize || h < MinSize || w > MaxSize || h > MaxSize {
		return 0, 0, fmt.Errorf("%q: each side must be %d..%d", s, MinSize, MaxSize)
	}
	return w, h, nil
}

// NewRunner makes the runner of a match or tournament's games.
func (Def) NewRunner(opts game.Options, env match.Env) (match.Runner, error) {
	s, ok := opts.(*Settings)
	if !ok {
		return nil, fmt.Errorf("points: options of type %T", opts)
	}
	cfg, op, err := s.config()
	if err != nil {
		return nil, err
	}
	protos, err := splitProtocols(s.Proto)
	if err != nil {
		return nil, fmt.Errorf("--proto: %w", err)
	}
	if len(protos) > 1 && len(protos) != len(env.Players) {
		return nil, fmt.Errorf("--proto: give one value or one per --bot (%d), got %d", len(env.Players), len(protos))
	}
	clock := env.Clock
	clock.Increment = s.Increment
	r := &runner{out: env.Out, opening: op, seed: env.Seed, positions: s.Positions}
	if r.seed == 0 {
		r.seed = rand.Int64N(1<<31) + 1
	}
	for i, p := range env.Players {
		po, err := playerProtocol(p, match.ProtoFor(protos, i))
		if err != nil {
			return nil, err
		}
		proto, err := ParseProtocolOptions(po)
		if err != nil {
			return nil, fmt.Errorf("--proto: %w", err)
		}
		if p.BotsFile != "" && p.Clock != (match.Clock{}) {
			p.Clock.Increment = s.Increment // time odds keep the game's increment
		}
		switch {
		case p.Builtin && (proto.Kind == "" || proto.Kind == Probe):
			proto.Kind = PointsBattle // arena's own player: no need to ask
		case proto.Kind == "":
			proto.Kind = Probe
		}
		if p.Builtin {
			p.Args = builtinArgs(p.Args, proto, cfg.Surround)
		}
		r.players = append(r.players, Player{Player: p, Protocol: proto})
	}
	r.config = MatchConfig{Config: cfg, Opening: op, Clock: clock, Ponder: env.Ponder, MemoryLimit: env.Memory, WorkDir: env.Work, Sandbox: env.Sandbox}
	return r, nil
}

// splitProtocols turns a --proto value that names several protocols
// ("v6,pb", "v6,pb,base=1") into one value per bot, in order: each name
// starts the next bot's value and the options after it are that bot's.
// Other values are kept as they are.
func splitProtocols(values []string) ([]string, error) {
	if len(values) != 1 {
		return values, nil
	}
	parts := strings.Split(values[0], ",")
	isName := func(part string) bool {
		_, ok := ParseProtocolKind(part)
		return ok
	}
	names := 0
	for _, part := range parts {
		if isName(part) {
			names++
		}
	}
	if names < 2 {
		return values, nil
	}
	if !isName(parts[0]) {
		return nil, fmt.Errorf("%q: options before the first protocol name belong to no bot", values[0])
	}
	var out []string
	for _, part := range parts {
		if isName(part) {
			out = append(out, strings.TrimSpace(part))
		} else {
			out[len(out)-1] += "," + part
		}
	}
	return out, nil
}

// playerProtocol is the protocol options of p: its bots file's proto and
// options (as "key=value" pairs) when it has them, else flag, the --proto
// value for it.
func playerProtocol(p match.Player, flag string) (string, error) {
	if p.Proto == "" && len(p.Options) == 0 {
		return flag, nil
	}
	parts := []string{}
	if p.Proto != "" {
		parts = append(parts, p.Proto)
	}
	for _, kv := range p.Options {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	joined := strings.Join(parts, ",")
	if _, err := ParseProtocolOptions(joined); err != nil {
		return "", fmt.Errorf("--bots %s: bot %q: proto/options: %w", p.BotsFile, p.Name, err)
	}
	return joined, nil
}

// builtinArgs tells arena's own player the protocol options and the
// enclosure rule, which the protocol does not carry, unless the user gave
// them.
func builtinArgs(args []string, proto ProtocolOptions, s Surround) []string {
	given := func(flag string) bool {
		for _, a := range args[3:] {
			if a == flag || strings.HasPrefix(a, flag+"=") {
				return true
			}
		}
		return false
	}
	out := append([]string(nil), args...)
	if !given("--proto") {
		out = append(out, "--proto="+proto.String())
	}
	if !given("--surround") {
		out = append(out, "--surround="+s.String())
	}
	return out
}

// runner plays games of Points with fixed options.
type runner struct {
	config    MatchConfig
	players   []Player
	opening   Opening
	seed      int64
	positions int // distinct random positions (--positions)
	out       string
}

// Openings is the number of random positions for --opening random, else
// one. The position of a game comes from the job's opening index, so a
// match (which numbers its pairs of games) draws new crosses per pair.
func (r *runner) Openings() int {
	if r.opening == RandomCross {
		return r.positions
	}
	return 1
}

func (r *runner) Play(ctx context.Context, j match.Job) (*game.Record, string, error) {
	gs, done := j.Setup(r.config.WorkDir)
	defer done()
	g := Game{ID: j.ID, Red: gs.First, Players: match.Pick(r.players, gs.Order)}
	if r.opening == RandomCross {
		g.Seed = r.seed*1_000_003 + int64(j.Opening)
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
