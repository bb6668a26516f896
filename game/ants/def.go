package ants

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/game/ants/mapgen"
	"arena/match"
)

// Def is Ants' contract with the arena (match.Game): its description,
// its options and the runner that plays its games.
type Def struct{}

var _ match.Game = Def{}

var _ game.FileOptions = (*Settings)(nil)

// Info describes Ants.
func (Def) Info() game.Info { return Info() }

// NewOptions returns Ants' options at their defaults.
func (Def) NewOptions() game.Options { return DefaultSettings() }

// Settings are the options of an Ants match: playgame.py's, under its
// names, and the maps.
type Settings struct {
	Engine Options `json:"engine"` // the engine's options; its seeds are set per game
	// Maps are map files in the official .map format, used in turn;
	// none: a symmetric map generated for the number of bots.
	Maps       []string `json:"maps,omitempty"`
	EngineSeed int64    `json:"engine_seed,omitempty"` // 0: random; game i adds i
	PlayerSeed int64    `json:"player_seed,omitempty"` // 0: random
	EndWait    float64  `json:"end_wait,omitempty"`    // seconds
	Fill       bool     `json:"fill,omitempty"`        // repeat the last bot to fill the map's player count
	Verbose    bool     `json:"verbose,omitempty"`
	LogStream  bool     `json:"log_stream,omitempty"`
	LogInput   bool     `json:"log_input,omitempty"`
	LogOutput  bool     `json:"log_output,omitempty"`
	LogError   bool     `json:"log_error,omitempty"`
	LogReplay  bool     `json:"log_replay"` // always on

	// pairs are the flags of two numbers bound by Bind, for TakeArgs and
	// Validate; given counts the ones given their MIN alone.
	pairs []*pair
	given int
}

// DefaultSettings returns playgame.py's defaults.
func DefaultSettings() *Settings {
	return &Settings{Engine: DefaultOptions(), LogReplay: true}
}

// notForAnts are the shared options that mean nothing here: the engine's
// clock is --turntime per turn, bots paused in between.
var notForAnts = []string{"match-time", "tolerance", "startup-time", "ponder"}

// Bind registers the options of playgame.py under their names.
func (s *Settings) Bind(fl *pflag.FlagSet) {
	o := &s.Engine
	newPair := func(name string, v *[2]int) *pair {
		p := &pair{name: name, v: v, given: &s.given}
		s.pairs = append(s.pairs, p)
		return p
	}
	fl.StringArrayVarP(&s.Maps, "map", "m", s.Maps, "map file in the official .map format (repeat for several maps; default: a generated symmetric map)")
	fl.IntVarP(&o.Turns, "turns", "t", o.Turns, "turn limit")
	fl.IntVar(&o.TurnTime, "turntime", o.TurnTime, "milliseconds per turn (--turn-time gives it as a Go duration)")
	fl.IntVar(&o.LoadTime, "loadtime", o.LoadTime, "milliseconds for turn 0")
	fl.Int64Var(&s.EngineSeed, "engine_seed", s.EngineSeed, "seed of the engine's random numbers (0 = random; game i adds i)")
	fl.Int64Var(&s.PlayerSeed, "player_seed", s.PlayerSeed, "seed sent to the bots (0 = random)")
	fl.StringVar(&o.Food, "food", o.Food, "food placement: none, random, sections or symmetric")
	fl.StringVar(&o.Attack, "attack", o.Attack, "battle resolution: focus, closest, support or damage")
	fl.BoolVar(&o.Strict, "strict", o.Strict, "an invalid order eliminates the bot")
	fl.IntVar(&o.Serial, "serial", o.Serial, "run the bots one at a time (--serial), or N at a time (--serial=N); 0 = all at once")
	fl.Lookup("serial").NoOptDefVal = "1" // playgame.py's --serial takes no value
	fl.Float64Var(&s.EndWait, "end_wait", s.EndWait, "seconds bots get to read the end message before they are killed")
	fl.IntVar(&o.ViewRadius2, "viewradius2", o.ViewRadius2, "squared vision radius")
	fl.IntVar(&o.AttackRadius2, "attackradius2", o.AttackRadius2, "squared attack radius")
	fl.IntVar(&o.SpawnRadius2, "spawnradius2", o.SpawnRadius2, "squared food gathering radius")
	fl.Var(newPair("food_rate", &o.FoodRate), "food_rate", "food per player per food_turn turns, drawn per game from MIN..MAX")
	fl.Var(newPair("food_turn", &o.FoodTurn), "food_turn", "turns for food_rate, drawn from MIN..MAX")
	fl.Var(newPair("food_start", &o.FoodStart), "food_start", "land squares per starting food, drawn from MIN..MAX")
	fl.Var(newPair("food_visible", &o.FoodVisible), "food_visible", "starting food per player in sight of its hills, drawn from MIN..MAX")
	fl.IntVar(&o.CutoffTurn, "cutoff_turn", o.CutoffTurn, "turns one player (or the food) must dominate to end the game")
	fl.Float64Var(&o.CutoffPercent, "cutoff_percent", o.CutoffPercent, "share of ants and food that is dominance")
	fl.BoolVar(&o.Scenario, "scenario", o.Scenario, "take the ants and food from the map")
	fl.BoolVar(&s.Fill, "fill", s.Fill, "repeat the last bot to fill the map's player count")
	fl.BoolVarP(&s.LogReplay, "log_replay", "R", s.LogReplay, "write ID.replay (always on)")
	fl.BoolVarP(&s.LogStream, "log_stream", "S", s.LogStream, "write ID.stream, the streaming format")
	fl.BoolVarP(&s.LogInput, "log_input", "I", s.LogInput, "write ID.bot<i>.input, every byte sent to each bot")
	fl.BoolVarP(&s.LogOutput, "log_output", "O", s.LogOutput, "write ID.bot<i>.output, the orders judged for each bot")
	fl.BoolVarP(&s.LogError, "log_error", "E", s.LogError, "write ID.bot<i>.error, each bot's stderr and the engine's notes")
	fl.BoolVarP(&s.Verbose, "verbose", "v", s.Verbose, "print every turn's ants and scores per player on stderr")
	// --rounds is playgame.py's name for --games in "arena match ants"; a
	// tournament hides --games and has a --rounds of its own.
	prev := fl.GetNormalizeFunc()
	games := fl.Lookup("games")
	fl.SetNormalizeFunc(func(f *pflag.FlagSet, name string) pflag.NormalizedName {
		switch {
		case name == "rounds" && games != nil && !games.Hidden:
			name = "games"
		case name == "map_file": // playgame.py's long name
			name = "map"
		}
		return prev(f, name)
	})
	for _, name := range notForAnts {
		if fl.Lookup(name) != nil {
			_ = fl.MarkHidden(name)
		}
	}
}

// Files are the options that name files to read: each --map.
func (s *Settings) Files() []*string {
	files := make([]*string, len(s.Maps))
	for i := range s.Maps {
		files[i] = &s.Maps[i]
	}
	return files
}

// CheckFlags refuses the shared options that mean nothing to Ants and
// takes --turn-time, the shared clock flag, as --turntime.
func (s *Settings) CheckFlags(fl *pflag.FlagSet) error {
	for _, name := range notForAnts {
		if fl.Lookup(name) != nil && fl.Changed(name) {
			return fmt.Errorf("--%s does not apply to Ants: the official engine gives each turn --turntime and pauses the bots in between", name)
		}
	}
	turnTime := fl.Lookup("turn-time") != nil && fl.Changed("turn-time")
	switch {
	case turnTime && fl.Changed("turntime"):
		return fmt.Errorf("--turntime and --turn-time both set the time per turn: give one of them")
	case turnTime:
		d, err := fl.GetDuration("turn-time")
		if err != nil {
			return fmt.Errorf("--turn-time: %w", err)
		}
		s.Engine.TurnTime = int(d.Milliseconds())
	}
	return nil
}

// Validate checks the options as playgame.py would.
func (s *Settings) Validate() error {
	o := s.Engine
	if o.TurnTime <= 0 || o.LoadTime <= 0 {
		return fmt.Errorf("--turntime %d, --loadtime %d: must be positive", o.TurnTime, o.LoadTime)
	}
	if o.Turns < 0 {
		return fmt.Errorf("--turns %d: must not be negative", o.Turns)
	}
	for _, p := range s.pairs {
		if p.half {
			return fmt.Errorf("--%s %d: want two numbers, MIN MAX", p.name, p.v[0])
		}
	}
	for _, r := range []struct {
		name string
		v    [2]int
	}{{"food_rate", o.FoodRate}, {"food_turn", o.FoodTurn}, {"food_start", o.FoodStart}, {"food_visible", o.FoodVisible}} {
		if r.v[0] > r.v[1] || r.v[0] < 0 {
			return fmt.Errorf("--%s %d %d: want MIN MAX with 0 <= MIN <= MAX", r.name, r.v[0], r.v[1])
		}
	}
	if o.FoodTurn[0] == 0 {
		return fmt.Errorf("--food_turn: must be at least 1")
	}
	switch o.Food {
	case "none", "random", "sections", "symmetric":
	default:
		return fmt.Errorf("--food %q: want none, random, sections or symmetric", o.Food)
	}
	switch o.Attack {
	case "focus", "closest", "support", "damage":
	default:
		return fmt.Errorf("--attack %q: want focus, closest, support or damage", o.Attack)
	}
	if o.Serial < 0 || s.EndWait < 0 {
		return fmt.Errorf("--serial and --end_wait must not be negative")
	}
	return nil
}

// pair is a playgame.py option of two numbers, MIN and MAX, given as two
// words as optparse's nargs=2 takes them (--food_rate 5 11), or as
// MIN,MAX in one. A flag parser hands the option one word: Set takes MIN
// and TakeArgs takes MAX from the words left over, in the order the
// options were given.
type pair struct {
	name  string
	v     *[2]int
	half  bool // MIN given alone: MAX is still to come
	order int  // when it was given alone, counted by *given
	given *int
}

func (p *pair) String() string { return fmt.Sprintf("%d %d", p.v[0], p.v[1]) }

// Type is what the help shows after the option's name.
func (p *pair) Type() string { return "MIN MAX" }

func (p *pair) Set(s string) error {
	if lo, hi, ok := strings.Cut(s, ","); ok {
		a, errA := strconv.Atoi(strings.TrimSpace(lo))
		b, errB := strconv.Atoi(strings.TrimSpace(hi))
		if errA != nil || errB != nil {
			return fmt.Errorf("want two numbers, MIN MAX")
		}
		*p.v, p.half = [2]int{a, b}, false
		return nil
	}
	a, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("want two numbers, MIN MAX")
	}
	*p.given++
	p.v[0], p.half, p.order = a, true, *p.given
	return nil
}

// TakeArgs takes the words a command line leaves after its flags: the MAX
// of each pair option given as two words, in order. It returns the words
// it did not take.
func (s *Settings) TakeArgs(args []string) ([]string, error) {
	var halves []*pair
	for _, p := range s.pairs {
		if p.half {
			halves = append(halves, p)
		}
	}
	slices.SortFunc(halves, func(a, b *pair) int { return a.order - b.order })
	for i, p := range halves {
		if i >= len(args) {
			return nil, fmt.Errorf("--%s %d: want two numbers, MIN MAX", p.name, p.v[0])
		}
		hi, err := strconv.Atoi(args[i])
		if err != nil {
			return nil, fmt.Errorf("--%s %d %s: want two numbers, MIN MAX", p.name, p.v[0], args[i])
		}
		p.v[1], p.half = hi, false
	}
	return args[len(halves):], nil
}

// NewRunner makes the runner of a match or tournament's games.
func (Def) NewRunner(opts game.Options, env match.Env) (match.Runner, error) {
	s, ok := opts.(*Settings)
	if !ok {
		return nil, fmt.Errorf("ants: options of type %T", opts)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	o := s.Engine
	o.EndWait = time.Duration(s.EndWait * float64(time.Second))
	r := &runner{opt: o, env: env, engineSeed: s.EngineSeed, playerSeed: s.PlayerSeed, fill: s.Fill, verbose: s.Verbose,
		stream: s.LogStream, input: s.LogInput, output: s.LogOutput, errors: s.LogError, foodCache: NewFoodCache()}
	for _, path := range s.Maps {
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--map: %w", err)
		}
		m, err := ParseMap(string(text))
		if err != nil {
			return nil, fmt.Errorf("--map %s: %w", path, err)
		}
		n := len(env.Players)
		if m.Players != n && !(s.Fill && n < m.Players) {
			return nil, fmt.Errorf("--map %s: the map is for %d players, got %d bots (--fill repeats the last bot)", path, m.Players, n)
		}
		r.maps = append(r.maps, gameMap{name: path, text: string(text), players: m.Players})
	}
	r.players = env.Players
	return r, nil
}

type gameMap struct {
	name, text string
	players    int
}

// runner plays Ants games with fixed options.
type runner struct {
	opt                           Options
	env                           match.Env
	maps                          []gameMap
	players                       []Player
	engineSeed, playerSeed        int64
	fill, verbose                 bool
	stream, input, output, errors bool
	mu                            sync.Mutex // serialises verbose lines of concurrent games
	foodCache                     *FoodCache // the maps' symmetric food sets, for all the games
}

func (r *runner) Openings() int { return max(len(r.maps), 1) }

// gameMap picks the map of a job: the given maps in turn, or a map
// generated for the number of bots (a new one for each opening).
func (r *runner) gameMap(j match.Job) (gameMap, error) {
	if len(r.maps) > 0 {
		return r.maps[j.Opening%len(r.maps)], nil
	}
	seed := r.env.Seed + int64(j.Opening) + 1
	text, err := mapgen.Generate(mapgen.Options{Players: len(r.players), Seed: seed})
	if err != nil {
		return gameMap{}, fmt.Errorf("generate a map: %w", err)
	}
	return gameMap{name: fmt.Sprintf("generated (players %d, seed %d)", len(r.players), seed), text: text, players: len(r.players)}, nil
}

func randomSeed() int64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return time.Now().UnixNano()
	}
	return int64(binary.LittleEndian.Uint64(b[:]))
}

func (r *runner) Play(ctx context.Context, j match.Job) (*game.Record, string, error) {
	m, err := r.gameMap(j)
	if err != nil {
		return nil, "", err
	}
	seats := append([]int(nil), j.Seats...)
	for len(seats) < m.players {
		seats = append(seats, seats[len(seats)-1])
	}
	opt := r.opt
	switch {
	case r.engineSeed != 0:
		opt.EngineSeed = r.engineSeed + int64(j.Opening)*int64(len(j.Seats)) + int64(seatRotation(j.Seats))
	case j.Seed != 0:
		opt.EngineSeed = j.Seed
	default:
		opt.EngineSeed = randomSeed()
	}
	opt.PlayerSeed = r.playerSeed
	if opt.PlayerSeed == 0 {
		opt.PlayerSeed = randomSeed()
	}
	work := filepath.Join(r.env.Work, j.ID)
	defer os.RemoveAll(work)
	mc := MatchConfig{
		Options: opt, MapText: m.text, MapName: m.name, WorkDir: work, MemoryLimit: r.env.Memory, Sandbox: r.env.Sandbox,
		Stream: r.stream, Input: r.input, Output: r.output, Error: r.errors,
		Listener: j.Listener, FoodCache: r.foodCache,
	}
	mc.OnTurn = func(ti TurnInfo) {
		if j.OnMove != nil {
			j.OnMove(ti.Turn, r.turnStatus(ti, seats))
		}
		if r.verbose {
			r.mu.Lock()
			fmt.Fprintf(os.Stderr, "%s turn %4d ants %v scores %v\n", j.ID, ti.Turn, ti.Ants, ti.Scores)
			r.mu.Unlock()
		}
	}
	if j.Transcripts != nil {
		mc.Transcripts = func(pi int) *bot.Transcript { return j.Transcripts(pi) }
	}
	g := Game{ID: j.ID, Players: r.players, Seats: seats}
	played, err := PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := WriteFiles(r.env.Out, played)
	return played.Record, path, err
}

// turnStatus tells, for the progress bar, each player's ants and score.
func (r *runner) turnStatus(ti TurnInfo, seats []int) string {
	parts := make([]string, len(seats))
	for seat, pi := range seats {
		parts[seat] = fmt.Sprintf("%s %d ants %d pts", r.players[pi].Name, ti.Ants[seat], ti.Scores[seat])
		if !ti.Alive[seat] {
			parts[seat] += " (out)"
		}
	}
	return strings.Join(parts, ", ")
}

// seatRotation is how far a job's seating is rotated from the --bot order.
func seatRotation(seats []int) int {
	if len(seats) == 0 {
		return 0
	}
	return seats[0]
}
