package main

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

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bot"
	"arena/game"
	"arena/game/ants"
	"arena/game/ants/mapgen"
)

func antsDriver() driver {
	return driver{
		info:  ants.Info(),
		short: "Play Ants (AI Challenge 2011) games between 2 to 10 bots, as the official engine plays them",
		long: `Play Ants, the game of the Google AI Challenge 2011, between 2 to 10 bots
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
		example: `  arena match ants --map maps/maze_p04_01.map --bot ./MyBot --bot "python3 HunterBot.py" --fill --turns 500
  arena match ants --bot builtin --bot "builtin --sample greedy" --engine_seed 42 --player_seed 42 -S -I -O -E
  arena match ants --map tutorial1.map --map maze.map --rounds 4 --turntime 500 --json`,
		turnTime: time.Second, matchTime: 0,
		// The engine keeps its own time (--turntime, --loadtime).
		notShared:   []string{"ponder", "match-time", "tolerance", "startup-time"},
		defaultBots: []string{"builtin", "builtin"},
		args:        antsArgs,
		flags:       antsFlags,
		bot:         newAntsBotCmd,
		commands:    antsCommands,
	}
}

// antsFlags registers the options of playgame.py under their names.
func antsFlags(fl *pflag.FlagSet) func(runEnv) (runner, error) {
	d := ants.DefaultOptions()
	o := d
	var (
		maps                                []string
		engineSeed, playerSeed              int64
		endWait                             float64
		fill, verbose                       bool
		logStream, logInput, logOut, logErr bool
		logReplay                           bool
	)
	halves := new(int) // how many pair options were given their MIN alone
	foodRate := &antsPair{name: "food_rate", v: d.FoodRate, given: halves}
	foodTurn := &antsPair{name: "food_turn", v: d.FoodTurn, given: halves}
	foodStart := &antsPair{name: "food_start", v: d.FoodStart, given: halves}
	foodVi := &antsPair{name: "food_visible", v: d.FoodVisible, given: halves}
	fl.StringArrayVarP(&maps, "map", "m", nil, "map file in the official .map format (repeat for several maps; default: a generated symmetric map)")
	fl.IntVarP(&o.Turns, "turns", "t", d.Turns, "turn limit")
	fl.IntVar(&o.TurnTime, "turntime", d.TurnTime, "milliseconds per turn (--turn-time gives it as a Go duration)")
	fl.IntVar(&o.LoadTime, "loadtime", d.LoadTime, "milliseconds for turn 0")
	fl.Int64Var(&engineSeed, "engine_seed", 0, "seed of the engine's random numbers (0 = random; game i adds i)")
	fl.Int64Var(&playerSeed, "player_seed", 0, "seed sent to the bots (0 = random)")
	fl.StringVar(&o.Food, "food", d.Food, "food placement: none, random, sections or symmetric")
	fl.StringVar(&o.Attack, "attack", d.Attack, "battle resolution: focus, closest, support or damage")
	fl.BoolVar(&o.Strict, "strict", false, "an invalid order eliminates the bot")
	fl.IntVar(&o.Serial, "serial", 0, "run the bots one at a time (--serial), or N at a time (--serial=N); 0 = all at once")
	fl.Lookup("serial").NoOptDefVal = "1" // playgame.py's --serial takes no value
	fl.Float64Var(&endWait, "end_wait", 0, "seconds bots get to read the end message before they are killed")
	fl.IntVar(&o.ViewRadius2, "viewradius2", d.ViewRadius2, "squared vision radius")
	fl.IntVar(&o.AttackRadius2, "attackradius2", d.AttackRadius2, "squared attack radius")
	fl.IntVar(&o.SpawnRadius2, "spawnradius2", d.SpawnRadius2, "squared food gathering radius")
	fl.Var(foodRate, "food_rate", "food per player per food_turn turns, drawn per game from MIN..MAX")
	fl.Var(foodTurn, "food_turn", "turns for food_rate, drawn from MIN..MAX")
	fl.Var(foodStart, "food_start", "land squares per starting food, drawn from MIN..MAX")
	fl.Var(foodVi, "food_visible", "starting food per player in sight of its hills, drawn from MIN..MAX")
	fl.IntVar(&o.CutoffTurn, "cutoff_turn", d.CutoffTurn, "turns one player (or the food) must dominate to end the game")
	fl.Float64Var(&o.CutoffPercent, "cutoff_percent", d.CutoffPercent, "share of ants and food that is dominance")
	fl.BoolVar(&o.Scenario, "scenario", false, "take the ants and food from the map")
	fl.BoolVar(&fill, "fill", false, "repeat the last bot to fill the map's player count")
	fl.BoolVarP(&logReplay, "log_replay", "R", true, "write ID.replay (always on)")
	fl.BoolVarP(&logStream, "log_stream", "S", false, "write ID.stream, the streaming format")
	fl.BoolVarP(&logInput, "log_input", "I", false, "write ID.bot<i>.input, every byte sent to each bot")
	fl.BoolVarP(&logOut, "log_output", "O", false, "write ID.bot<i>.output, the orders judged for each bot")
	fl.BoolVarP(&logErr, "log_error", "E", false, "write ID.bot<i>.error, each bot's stderr and the engine's notes")
	fl.BoolVarP(&verbose, "verbose", "v", false, "print every turn's ants and scores per player on stderr")
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
	// The shared options that mean nothing here are refused, not listed:
	// the engine's clock is --turntime per turn, bots paused in between.
	notForAnts := []string{"match-time", "tolerance", "startup-time", "ponder"}
	for _, name := range notForAnts {
		if fl.Lookup(name) != nil {
			_ = fl.MarkHidden(name)
		}
	}
	return func(env runEnv) (runner, error) {
		for _, name := range notForAnts {
			if fl.Changed(name) {
				return nil, fmt.Errorf("--%s does not apply to Ants: the official engine gives each turn --turntime and pauses the bots in between", name)
			}
		}
		switch {
		case fl.Changed("turn-time") && fl.Changed("turntime"):
			return nil, fmt.Errorf("--turntime and --turn-time both set the time per turn: give one of them")
		case fl.Changed("turn-time"):
			o.TurnTime = int(env.clock.Turn.Milliseconds())
		}
		if o.TurnTime <= 0 || o.LoadTime <= 0 {
			return nil, fmt.Errorf("--turntime %d, --loadtime %d: must be positive", o.TurnTime, o.LoadTime)
		}
		if o.Turns < 0 {
			return nil, fmt.Errorf("--turns %d: must not be negative", o.Turns)
		}
		for _, r := range []struct {
			pair *antsPair
			dst  *[2]int
		}{{foodRate, &o.FoodRate}, {foodTurn, &o.FoodTurn}, {foodStart, &o.FoodStart}, {foodVi, &o.FoodVisible}} {
			if r.pair.half {
				return nil, fmt.Errorf("--%s %d: want two numbers, MIN MAX", r.pair.name, r.pair.v[0])
			}
			if r.pair.v[0] > r.pair.v[1] || r.pair.v[0] < 0 {
				return nil, fmt.Errorf("--%s %d %d: want MIN MAX with 0 <= MIN <= MAX", r.pair.name, r.pair.v[0], r.pair.v[1])
			}
			*r.dst = r.pair.v
		}
		if o.FoodTurn[0] == 0 {
			return nil, fmt.Errorf("--food_turn: must be at least 1")
		}
		switch o.Food {
		case "none", "random", "sections", "symmetric":
		default:
			return nil, fmt.Errorf("--food %q: want none, random, sections or symmetric", o.Food)
		}
		switch o.Attack {
		case "focus", "closest", "support", "damage":
		default:
			return nil, fmt.Errorf("--attack %q: want focus, closest, support or damage", o.Attack)
		}
		if o.Serial < 0 || endWait < 0 {
			return nil, fmt.Errorf("--serial and --end_wait must not be negative")
		}
		o.EndWait = time.Duration(endWait * float64(time.Second))
		r := &antsRunner{opt: o, env: env, engineSeed: engineSeed, playerSeed: playerSeed, fill: fill, verbose: verbose,
			stream: logStream, input: logInput, output: logOut, errors: logErr}
		for _, path := range maps {
			text, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("--map: %w", err)
			}
			m, err := ants.ParseMap(string(text))
			if err != nil {
				return nil, fmt.Errorf("--map %s: %w", path, err)
			}
			n := len(env.players)
			if m.Players != n && !(fill && n < m.Players) {
				return nil, fmt.Errorf("--map %s: the map is for %d players, got %d bots (--fill repeats the last bot)", path, m.Players, n)
			}
			r.maps = append(r.maps, antsMap{name: path, text: string(text), players: m.Players})
		}
		for _, p := range env.players {
			r.players = append(r.players, ants.Player{Name: p.Name, Command: p.Command, Args: p.Args})
		}
		return r, nil
	}
}

// antsPair is a playgame.py option of two numbers, MIN and MAX, given as
// two words as optparse's nargs=2 takes them (--food_rate 5 11), or as
// MIN,MAX in one. A flag parser hands the option one word: Set takes MIN
// and antsArgs takes MAX from the words left over, in the order the
// options were given.
type antsPair struct {
	name  string
	v     [2]int
	half  bool // MIN given alone: MAX is still to come
	order int  // when it was given alone, counted by *given
	given *int
}

func (p *antsPair) String() string { return fmt.Sprintf("%d %d", p.v[0], p.v[1]) }

// Type is what the help shows after the option's name.
func (p *antsPair) Type() string { return "MIN MAX" }

func (p *antsPair) Set(s string) error {
	if lo, hi, ok := strings.Cut(s, ","); ok {
		a, errA := strconv.Atoi(strings.TrimSpace(lo))
		b, errB := strconv.Atoi(strings.TrimSpace(hi))
		if errA != nil || errB != nil {
			return fmt.Errorf("want two numbers, MIN MAX")
		}
		p.v, p.half = [2]int{a, b}, false
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

// antsArgs takes the words a command line of "arena match ants" or
// "arena tournament ants" leaves after its flags: the MAX of each pair
// option given as two words, in order. Any other word is an error, as for
// every other game.
func antsArgs(cmd *cobra.Command, args []string) error {
	var halves []*antsPair
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if p, ok := f.Value.(*antsPair); ok && p.half {
			halves = append(halves, p)
		}
	})
	slices.SortFunc(halves, func(a, b *antsPair) int { return a.order - b.order })
	for i, p := range halves {
		if i >= len(args) {
			return fmt.Errorf("--%s %d: want two numbers, MIN MAX", p.name, p.v[0])
		}
		hi, err := strconv.Atoi(args[i])
		if err != nil {
			return fmt.Errorf("--%s %d %s: want two numbers, MIN MAX", p.name, p.v[0], args[i])
		}
		p.v[1], p.half = hi, false
	}
	if len(args) > len(halves) {
		return fmt.Errorf("unexpected argument %q for %q", args[len(halves)], cmd.CommandPath())
	}
	return nil
}

type antsMap struct {
	name, text string
	players    int
}

// antsRunner plays Ants games with fixed options.
type antsRunner struct {
	opt                           ants.Options
	env                           runEnv
	maps                          []antsMap
	players                       []ants.Player
	engineSeed, playerSeed        int64
	fill, verbose                 bool
	stream, input, output, errors bool
	mu                            sync.Mutex // serialises verbose lines of concurrent games
}

func (r *antsRunner) Openings() int { return max(len(r.maps), 1) }

// gameMap picks the map of a job: the given maps in turn, or a map
// generated for the number of bots (a new one for each opening).
func (r *antsRunner) gameMap(j job) (antsMap, error) {
	if len(r.maps) > 0 {
		return r.maps[j.Opening%len(r.maps)], nil
	}
	seed := r.env.seed + int64(j.Opening) + 1
	text, err := mapgen.Generate(mapgen.Options{Players: len(r.players), Seed: seed})
	if err != nil {
		return antsMap{}, fmt.Errorf("generate a map: %w", err)
	}
	return antsMap{name: fmt.Sprintf("generated (players %d, seed %d)", len(r.players), seed), text: text, players: len(r.players)}, nil
}

func randomSeed() int64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return time.Now().UnixNano()
	}
	return int64(binary.LittleEndian.Uint64(b[:]))
}

func (r *antsRunner) Play(ctx context.Context, j job) (*game.Record, string, error) {
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
	work := filepath.Join(r.env.work, j.ID)
	defer os.RemoveAll(work)
	mc := ants.MatchConfig{
		Options: opt, MapText: m.text, MapName: m.name, WorkDir: work, MemoryLimit: r.env.memory, Sandbox: r.env.sandbox,
		Stream: r.stream, Input: r.input, Output: r.output, Error: r.errors,
		Listener: j.Listener,
	}
	mc.OnTurn = func(ti ants.TurnInfo) {
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
	g := ants.Game{ID: j.ID, Players: r.players, Seats: seats}
	played, err := ants.PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := ants.WriteFiles(r.env.out, played)
	return played.Record, path, err
}

// turnStatus tells, for the progress bar, each player's ants and score.
func (r *antsRunner) turnStatus(ti ants.TurnInfo, seats []int) string {
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

// antsCommands is "arena ants": the map generator and the conformance
// check against games recorded from the official engine.
func antsCommands() []*cobra.Command {
	root := &cobra.Command{
		Use:   "ants",
		Short: "Ants tools: generate maps, check the referee against recorded official games",
		Args:  cobra.NoArgs,
	}
	root.AddCommand(newAntsMapCmd(), newAntsConformanceCmd())
	return []*cobra.Command{root}
}

func newAntsConformanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "conformance DIR...",
		Short: "Replay games recorded from the official engine and compare every byte",
		Long: `Replay games recorded from the official Python engine through arena's
referee and compare: every byte sent to every bot (bot<i>.input), the replay
(replay.json, as JSON values), the judged orders (bot<i>.output), the
engine's notes in the error logs (bot<i>.error: crashes, timeouts, ignored
and invalid orders; the bots' own stderr is ignored) and the stream
(stream.txt). A folder holds one game (map.map, game.json, bot<i>.moves,
...) as in the repository's testdata/conformance/ants; a folder without game.json is searched
for game folders one level down. Prints PASS NAME or FAIL NAME: <first
difference> per game and fails if any game fails.`,
		Example: `  arena ants conformance testdata/conformance/ants
  arena ants conformance testdata/conformance/ants/v1_tutorial1_hunter_greedy_strict`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var dirs []string
			for _, a := range args {
				if _, err := os.Stat(filepath.Join(a, "game.json")); err == nil {
					dirs = append(dirs, a)
					continue
				}
				entries, err := os.ReadDir(a)
				if err != nil {
					return fmt.Errorf("conformance: %w", err)
				}
				found := false
				for _, e := range entries {
					sub := filepath.Join(a, e.Name())
					if _, err := os.Stat(filepath.Join(sub, "game.json")); e.IsDir() && err == nil {
						dirs = append(dirs, sub)
						found = true
					}
				}
				if !found {
					return fmt.Errorf("conformance: %s holds no recorded game (no game.json)", a)
				}
			}
			failed := 0
			for _, dir := range dirs {
				name := filepath.Base(filepath.Clean(dir))
				diff, err := ants.Conform(cmd.Context(), dir)
				if err != nil {
					diff = err.Error()
				}
				if diff != "" {
					failed++
					fmt.Fprintf(cmd.OutOrStdout(), "FAIL %s: %s\n", name, strings.ReplaceAll(diff, "\n", " "))
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "PASS %s\n", name)
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d games differ from the official engine", failed, len(dirs))
			}
			return nil
		},
	}
}
