package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bots/pointsbot"
	"arena/game"
	"arena/game/points"
	"arena/match"
)

func pointsDriver() driver {
	return driver{
		info:  points.Info(),
		short: "Play Points (the dots game) between two bots speaking the Points Battle protocol",
		long: `Play Points (dots, "точки") between two programs speaking the Points Battle
protocol: the bot prints its name first; it receives "new H W", "increment I" (seconds),
"move X Y" for every dot it has not seen (odd dots red, even blue), "time T"
and "otime T" before every "go", answers "move X Y", and gets "quit" at the
end. Coordinates are 0-based and times in milliseconds unless --proto says
otherwise for a bot. Red (the first bot of a game) moves first; colours
alternate from game to game.

Clocks: as in Points Battle, --increment (default 10s) is added to a bot's
clock before each of its moves. --match-time is the time on each clock at
the start (default 0, as Points Battle: a bot's start-up is charged to its
clock, so its first move has the increment less the start-up). Time a bot
does not use stays on its clock. With --increment 0 and --match-time 0
there is no clock. --turn-time, if set, also limits every move.
Without --bot, arena's own player plays itself.`,
		example: `  arena match points --bot ./mybot --bot builtin --games 10
  arena match points --bot "python3 -u bot.py" --bot builtin --size 20x20 --opening random --seed 7 --increment 2s --json
  arena match points --bot old.exe --bot builtin --proto base=1,time_unit=s --proto "" --surround always`,
		turnTime: 0, matchTime: 0,
		defaultBots: []string{"builtin", "builtin"},
		flags:       pointsFlags,
		bot:         newPointsBotCmd,
		commands:    pointsCommands,
		human:       true,
		toldClock:   true,
		botFields:   []string{fieldDir, fieldProto, fieldEnv, fieldMemory, fieldTurnTime, fieldMatchTime, fieldOptions},
	}
}

func pointsCommands() []*cobra.Command {
	root := &cobra.Command{
		Use:   "points",
		Short: "Points tools: replay a game record move by move",
		Args:  cobra.NoArgs,
	}
	root.AddCommand(newPointsReplayCmd())
	return []*cobra.Command{root}
}

func newPointsReplayCmd() *cobra.Command {
	var ply int
	var all bool
	cmd := &cobra.Command{
		Use:   "replay RECORD.json",
		Short: "Re-play a game record through the referee and draw the field",
		Long: `Re-play a Points game record (the JSON arena writes) move by move through
the referee, checking that every move does what the record says (captures,
areas, score), and draw the field: after the last move, after move --ply, or
after every move with --all. In the drawing '.' is a free point, 'x' and 'o'
live red and blue dots, 'X' and 'O' dots inside the other colour's area, '+'
and '-' empty points of red and blue areas.`,
		Example: `  arena points replay arena-out/points-20260101-120000-001.json --ply 40`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := game.ReadRecord(args[0])
			if err != nil {
				return err
			}
			if ply < 0 || ply > len(rec.Moves) {
				return fmt.Errorf("--ply %d: the record has %d moves", ply, len(rec.Moves))
			}
			w := cmd.OutOrStdout()
			draw := func(n int, s *points.State) {
				fmt.Fprintf(w, "after move %d: red %d, blue %d\n%s\n", n, s.Score(points.Red), s.Score(points.Blue), s.Field())
			}
			final, err := points.Replay(rec, func(n int, s *points.State, _ points.Effect) {
				if all || n == ply {
					draw(n, s)
				}
			})
			if err != nil {
				return err
			}
			if !all && ply == 0 {
				draw(len(rec.Moves), final)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&ply, "ply", 0, "draw the field after this move (0 = the last)")
	cmd.Flags().BoolVar(&all, "all", false, "draw the field after every move")
	return cmd
}

// pointsFlags registers the options of Points.
func pointsFlags(fl *pflag.FlagSet) func(runEnv) (runner, error) {
	var (
		size, opening, surround string
		increment               time.Duration
		grounding               bool
		maxMoves, positions     int
		protos                  []string
	)
	fl.StringVar(&size, "size", "39x32", "field size WIDTHxHEIGHT, or one number for a square field (3..64)")
	fl.StringVar(&opening, "opening", "cross", "starting dots: empty, cross, cross2, cross3, cross4, or random (four crosses placed from --seed)")
	fl.DurationVar(&increment, "increment", 10*time.Second, "time added to a bot's clock before each of its moves (Points Battle: 10s)")
	fl.StringVar(&surround, "surround", "standard", "empty enclosures: standard (a dot played into a house is taken unless it captures), always (every ring takes its area at once) or always-enemy (the house owner always takes it)")
	fl.BoolVar(&grounding, "grounding", false, "end the game when a player could ground (give up its dots not connected to the edge) and still win")
	fl.IntVar(&maxMoves, "max-moves", 0, "end the game after this many moves, scored as it stands (0 = none)")
	fl.IntVar(&positions, "positions", 1, "--opening random: distinct random positions a tournament cycles through, each played with colours swapped (a match draws new crosses for every pair of games)")
	fl.StringArrayVar(&protos, "proto", nil, `protocol options per bot, e.g. "base=1,time_unit=s" (base 0|1, time_unit ms|s|cs); one for all or one per --bot`)
	return func(env runEnv) (runner, error) {
		w, h, err := parseFieldSize(size)
		if err != nil {
			return nil, fmt.Errorf("--size: %w", err)
		}
		s, err := points.ParseSurround(strings.ToLower(surround))
		if err != nil {
			return nil, fmt.Errorf("--surround: %w", err)
		}
		cfg := points.Config{Width: w, Height: h, Surround: s, Grounding: grounding, MaxMoves: maxMoves}
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("--size/--max-moves: %w", err)
		}
		op, err := points.ParseOpening(opening)
		if err != nil {
			return nil, fmt.Errorf("--opening: %w", err)
		}
		if _, err := op.Points(w, h, 1); err != nil {
			return nil, fmt.Errorf("--opening: %w", err)
		}
		if positions < 1 {
			return nil, fmt.Errorf("--positions %d: must be at least 1", positions)
		}
		if increment < 0 {
			return nil, fmt.Errorf("--increment %v: must not be negative", increment)
		}
		if len(protos) > 1 && len(protos) != len(env.players) {
			return nil, fmt.Errorf("--proto: give one value or one per --bot (%d), got %d", len(env.players), len(protos))
		}
		clock := env.clock
		clock.Increment = increment
		r := &pointsRunner{out: env.out, opening: op, seed: env.seed, positions: positions}
		if r.seed == 0 {
			r.seed = rand.Int64N(1<<31) + 1
		}
		for i, p := range env.players {
			po := ""
			if len(protos) == 1 {
				po = protos[0]
			} else if len(protos) > 1 {
				po = protos[i]
			}
			po, err := pointsProtocol(p, po)
			if err != nil {
				return nil, err
			}
			proto, err := points.ParseProtocolOptions(po)
			if err != nil {
				return nil, fmt.Errorf("--proto: %w", err)
			}
			if p.BotsFile != "" && p.Clock != (match.Clock{}) {
				p.Clock.Increment = increment // time odds keep the game's increment
			}
			if p.Builtin {
				p.Args = builtinPointsArgs(p.Args, proto, s)
			}
			r.players = append(r.players, points.Player{Player: p.Player, Protocol: proto})
		}
		r.config = points.MatchConfig{Config: cfg, Opening: op, Clock: clock, Ponder: env.ponder, MemoryLimit: env.memory, WorkDir: env.work, Sandbox: env.sandbox}
		return r, nil
	}
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
	if w < points.MinSize || h < points.MinSize || w > points.MaxSize || h > points.MaxSize {
		return 0, 0, fmt.Errorf("%q: each side must be %d..%d", s, points.MinSize, points.MaxSize)
	}
	return w, h, nil
}

// builtinPointsArgs tells arena's own player the protocol options and the
// enclosure rule, which the protocol does not carry, unless the user gave
// them.
func builtinPointsArgs(args []string, proto points.ProtocolOptions, s points.Surround) []string {
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

// pointsRunner plays games of Points with fixed options.
type pointsRunner struct {
	config    points.MatchConfig
	players   []points.Player
	opening   points.Opening
	seed      int64
	positions int // distinct random positions (--positions)
	out       string
}

// Openings is the number of random positions for --opening random, else
// one. The position of a game comes from the job's opening index, so a
// match (which numbers its pairs of games) draws new crosses per pair.
func (r *pointsRunner) Openings() int {
	if r.opening == points.RandomCross {
		return r.positions
	}
	return 1
}

func (r *pointsRunner) Play(ctx context.Context, j job) (*game.Record, string, error) {
	gs, done := j.setup(r.config.WorkDir)
	defer done()
	g := points.Game{ID: j.ID, Red: gs.first, Players: pick(r.players, gs.order)}
	if r.opening == points.RandomCross {
		g.Seed = r.seed*1_000_003 + int64(j.Opening)
	}
	mc := r.config
	mc.WorkDir, mc.OnMove, mc.Transcripts, mc.Listener = gs.workDir, gs.onMove, gs.transcripts, gs.listener
	rec, err := points.PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := points.WriteFiles(r.out, rec)
	return rec, path, err
}

func newPointsBotCmd() *cobra.Command {
	var (
		opts            pointsbot.Options
		proto, surround string
		seed            uint64
	)
	cmd := &cobra.Command{
		Use:   "points",
		Short: "arena's Points player: the Points Battle protocol on stdin/stdout",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Protocol, err = points.ParseProtocolOptions(proto); err != nil {
				return fmt.Errorf("--proto: %w", err)
			}
			if opts.Surround, err = points.ParseSurround(strings.ToLower(surround)); err != nil {
				return fmt.Errorf("--surround: %w", err)
			}
			if opts.Playouts < 0 {
				return fmt.Errorf("--playouts %d: must not be negative", opts.Playouts)
			}
			opts.Seed = seed
			if seed == 0 {
				opts.Seed = rand.Uint64()
			}
			return pointsbot.RunPipe(cmd.Context(), os.Stdin, cmd.OutOrStdout(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Name, "name", "arena-points", "name line")
	fl.StringVar(&proto, "proto", "", `protocol options: "base=0|1,time_unit=ms|s|cs" (default 0-based, ms)`)
	fl.StringVar(&surround, "surround", "standard", "the game's empty-enclosure rule: standard, always or always-enemy")
	fl.Uint64Var(&seed, "seed", 0, "random seed of the search (0 = random)")
	fl.IntVar(&opts.Playouts, "playouts", 0, "fixed number of playouts per move (0 = as the clock allows)")
	return cmd
}
