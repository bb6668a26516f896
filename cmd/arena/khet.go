package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/bots/khetbot"
	"arena/game"
	"arena/game/khet"
	"arena/match"
)

func khetDriver() driver {
	return driver{
		info:  khet.Info(),
		short: "Play Khet (laser chess) games between two bots speaking the Tartu line protocol",
		long: `Play Khet 2.0 games between two programs speaking the line protocol of the
University of Tartu contest: the bot greets with "play khet NAME", receives
"B <S|R> <state>", answers every "R <S|R> <state>" with a move such as S23C,
and exits after "E <S|R> <state>". Silver moves first. An invalid move or a
line that is not a move loses by E, a move over the per-move limit by T.
Without --bot, arena's own player plays itself.`,
		example: `  arena match khet --bot ./mybot --bot "python3 -u __init__.py" --games 10
  arena match khet --bot builtin --bot "java Program" --setup dynasty --turn-time 2s --json`,
		turnTime: 10 * time.Second, matchTime: 0,
		defaultBots: []string{"builtin", "builtin"},
		flags:       khetFlags,
		bot:         newKhetBotCmd,
		human:       true,
		botFields:   []string{fieldDir, fieldEnv, fieldMemory, fieldTurnTime, fieldMatchTime},
	}
}

// khetFlags registers Khet's options: the setup and the rule choices the
// contest left open.
func khetFlags(fl *pflag.FlagSet) func(runEnv) (runner, error) {
	var (
		setup      string
		maxPlies   int
		repetition int
		pharaoh    bool
		swapCheck  string
	)
	fl.StringVar(&setup, "setup", "classic", "starting position: classic, imhotep or dynasty")
	fl.IntVar(&maxPlies, "max-plies", khet.DefaultMaxPlies, "draw (dGM) after this many plies (0 = no limit)")
	fl.IntVar(&repetition, "repetition", khet.DefaultRepetition, "draw (dG3) when a position occurs this many times (0 = never)")
	fl.BoolVar(&pharaoh, "pharaoh-rotation", false, "allow turning the Pharaoh in place (the Khet FAQ forbids it)")
	fl.StringVar(&swapCheck, "swap-check", "both", "restricted squares in a Scarab swap: both pieces, or scarab only")
	return func(env runEnv) (runner, error) {
		s, err := khet.ParseSetup(setup)
		if err != nil {
			return nil, fmt.Errorf("--setup: %w", err)
		}
		cfg := khet.Config{Setup: s, MaxPlies: maxPlies, Repetition: repetition, Rules: khet.Rules{PharaohRotation: pharaoh}}
		switch strings.ToLower(swapCheck) {
		case "both":
		case "scarab":
			cfg.Rules.SwapMoverOnly = true
		default:
			return nil, fmt.Errorf("--swap-check %q: want both or scarab", swapCheck)
		}
		if maxPlies < 0 {
			return nil, fmt.Errorf("--max-plies %d: must not be negative", maxPlies)
		}
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("--repetition: %w", err)
		}
		r := &khetRunner{out: env.out}
		for _, p := range env.players {
			if p.Builtin {
				turn := env.clock.Turn
				if p.Clock != (match.Clock{}) {
					turn = p.Clock.Turn // time odds
				}
				p.Args = builtinKhetArgs(p.Args, turn, cfg)
			}
			r.players = append(r.players, p.Player)
		}
		r.config = khet.MatchConfig{Config: cfg, Clock: env.clock, Ponder: env.ponder, MemoryLimit: env.memory, WorkDir: env.work}
		return r, nil
	}
}

// builtinKhetArgs tells arena's own player the per-move limit and the
// rules, which the protocol does not, unless the user gave them.
func builtinKhetArgs(args []string, turn time.Duration, cfg khet.Config) []string {
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

// khetRunner plays Khet games with fixed options.
type khetRunner struct {
	config  khet.MatchConfig
	players []khet.Player
	out     string
}

func (r *khetRunner) Openings() int { return 1 }

func (r *khetRunner) Play(ctx context.Context, j job) (*game.Record, string, error) {
	gs, done := j.setup(r.config.WorkDir)
	defer done()
	g := khet.Game{ID: j.ID, Silver: gs.first, Players: pick(r.players, gs.order)}
	mc := r.config
	mc.WorkDir, mc.OnMove, mc.Transcripts, mc.Listener = gs.workDir, gs.onMove, gs.transcripts, gs.listener
	rec, err := khet.PlayGame(ctx, mc, g)
	if err != nil {
		return nil, "", err
	}
	path, err := khet.WriteFiles(r.out, rec)
	return rec, path, err
}

func newKhetBotCmd() *cobra.Command {
	var (
		opts      khetbot.Options
		pharaoh   bool
		swapCheck string
		quiet     bool
	)
	cmd := &cobra.Command{
		Use:   "khet",
		Short: "arena's Khet player: the Tartu line protocol on stdin/stdout, status lines on stderr",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Rules.PharaohRotation = pharaoh
			switch strings.ToLower(swapCheck) {
			case "both":
			case "scarab":
				opts.Rules.SwapMoverOnly = true
			default:
				return fmt.Errorf("--swap-check %q: want both or scarab", swapCheck)
			}
			if opts.TurnTime < 0 {
				return fmt.Errorf("--turn-time %v: must not be negative", opts.TurnTime)
			}
			if !quiet {
				opts.Status = cmd.ErrOrStderr()
			}
			return khetbot.Run(cmd.Context(), os.Stdin, cmd.OutOrStdout(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Name, "name", "arena-khet", "name sent in the greeting")
	fl.DurationVar(&opts.TurnTime, "turn-time", 10*time.Second, "the match's per-move limit; the bot thinks until at most 85 % of it (keeping 60 ms to 1.5 s), and after half of that starts a deeper iteration only if it expects to finish it")
	fl.IntVar(&opts.Depth, "depth", 0, "search depth limit (0 = none)")
	fl.Int64Var(&opts.Nodes, "nodes", 0, "node limit per move (0 = none)")
	fl.IntVar(&opts.TTMB, "hash", 32, "transposition table size in MB")
	fl.IntVar(&opts.MaxPlies, "max-plies", khet.DefaultMaxPlies, "the game's ply limit (a draw)")
	fl.BoolVar(&pharaoh, "pharaoh-rotation", false, "the Pharaoh may be turned in place")
	fl.StringVar(&swapCheck, "swap-check", "both", "restricted squares in a Scarab swap: both or scarab")
	fl.BoolVar(&quiet, "quiet", false, "no status lines on stderr")
	return cmd
}
