package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arena/bots/antsbot"
	"arena/bots/gomokubot"
	"arena/bots/khetbot"
	"arena/bots/pointsbot"
	"arena/game/ants"
	"arena/game/gomoku"
	"arena/game/khet"
	"arena/game/points"
)

// This file and gametools.go are the only ones of the CLI that name a
// game: the list of games arena plays, each with arena's own bot for it
// ("arena bot GAME") and its tools ("arena ants ..."). Everything else
// takes a game from the registry. A game's built-in bot is paired with
// it here rather than in the game's package because the bot uses the
// game's rules (bots/gomokubot imports game/gomoku): the game cannot
// import its bot.

// gameEntries lists every game arena plays, in the order the help lists
// them, with its bot and tool commands.
func gameEntries() []driver {
	return []driver{
		{Game: gomoku.Def{}, bot: newGomokuBotCmd},
		{Game: khet.Def{}, bot: newKhetBotCmd},
		{Game: ants.Def{}, bot: newAntsBotCmd, commands: antsCommands},
		{Game: points.Def{}, bot: newPointsBotCmd, commands: pointsCommands},
	}
}

// sprtDefault is the game "arena sprt" tests when given none.
const sprtDefault = "gomoku"

func newGomokuBotCmd() *cobra.Command {
	var file bool
	cmd := &cobra.Command{
		Use:   "gomoku",
		Short: "arena's Gomoku brain: the pipe protocol on stdin/stdout, or with --file one move of the file protocol",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := gomokubot.Options{Name: "arena-gomoku"}
			if !file {
				if _, err := os.Stat("PLOCHA.DAT"); err == nil {
					file = true
				}
			}
			if file {
				return gomokubot.RunFile(cmd.Context(), ".", opts)
			}
			return gomokubot.RunPipe(cmd.Context(), os.Stdin, os.Stdout, opts)
		},
	}
	cmd.Flags().BoolVar(&file, "file", false, "speak the old file protocol in the current folder (also chosen when PLOCHA.DAT is there)")
	return cmd
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
	fl.DurationVar(&opts.TurnTime, "turn-time", 10*time.Second, "the match's per-move limit; the bot thinks until 85 % of it (keeping 60 ms to 1.5 s) unless it finds a forced result")
	fl.IntVar(&opts.Depth, "depth", 0, "search depth limit (0 = none)")
	fl.Int64Var(&opts.Nodes, "nodes", 0, "node limit per move (0 = none)")
	fl.IntVar(&opts.TTMB, "hash", 32, "transposition table size in MB")
	fl.IntVar(&opts.MaxPlies, "max-plies", khet.DefaultMaxPlies, "the game's ply limit (a draw)")
	fl.BoolVar(&pharaoh, "pharaoh-rotation", false, "the Pharaoh may be turned in place")
	fl.StringVar(&swapCheck, "swap-check", "both", "restricted squares in a Scarab swap: both or scarab")
	fl.BoolVar(&quiet, "quiet", false, "no status lines on stderr")
	return cmd
}

func newPointsBotCmd() *cobra.Command {
	var (
		opts            pointsbot.Options
		proto, surround string
		seed            uint64
		quiet           bool
	)
	cmd := &cobra.Command{
		Use:   "points",
		Short: "arena's Points player: the Points Battle protocol (or, with --proto v6, Points AI Protocol v6) on stdin/stdout",
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
			if opts.Threads < 1 || opts.Threads > 256 {
				return fmt.Errorf("--threads %d: want 1 to 256", opts.Threads)
			}
			if opts.Playouts > 0 && !cmd.Flags().Changed("threads") {
				// A seed and a playout budget fix the game; the
				// machine's cores must not.
				opts.Threads = 1
			}
			opts.Seed = seed
			if seed == 0 {
				opts.Seed = rand.Uint64()
			}
			if !quiet {
				opts.Status = cmd.ErrOrStderr()
			}
			return pointsbot.RunPipe(cmd.Context(), os.Stdin, cmd.OutOrStdout(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Name, "name", "arena-points", "name line")
	fl.StringVar(&proto, "proto", "", `protocol: pb (Points Battle, the default) with its options "base=0|1,time_unit=ms|s|cs" (default 0-based, ms), or v6 (Points AI Protocol v6, for v6 GUIs and managers)`)
	fl.StringVar(&surround, "surround", "standard", "the game's empty-enclosure rule: standard, always or always-enemy")
	fl.Uint64Var(&seed, "seed", 0, "random seed of the search (0 = random)")
	fl.IntVar(&opts.Playouts, "playouts", 0, "fixed number of playouts per move (0 = as the clock allows)")
	fl.IntVar(&opts.Threads, "threads", runtime.GOMAXPROCS(0), "search trees grown side by side on a move, one a core (default: the cores the bot may use, or 1 with --playouts, so that --seed fixes the game on any machine)")
	fl.BoolVar(&quiet, "quiet", false, "no status line per move (Points Battle: status text before the move; v6: stderr)")
	return cmd
}

// newAntsBotCmd is "arena bot ants": arena's own Ants player speaking the
// AI Challenge bot protocol on stdin/stdout.
func newAntsBotCmd() *cobra.Command {
	var sample string
	var seed int64
	var quiet bool
	cmd := &cobra.Command{
		Use:   "ants",
		Short: "arena's Ants bot: the AI Challenge bot protocol on stdin/stdout",
		Long: `arena's Ants bot speaks the AI Challenge 2011 bot protocol on stdin/stdout:
it reads the turn-0 settings, answers "go", then plays every turn with
"o ROW COL DIR" orders and "go" until the engine sends "end". Before each
answer it writes a status line on stderr (off with --quiet): the time
used of the half turntime it allows itself, the ants, and what the combat
search did (battles, evaluations and evaluations per second).
With --sample it plays one of the simple opponents instead: random, hold,
lefty, greedy and hunter, in the style of the engine's Python sample bots,
or phalanx, which fights in groups.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bot := antsbot.New()
			if !quiet {
				bot.Status = cmd.ErrOrStderr()
			}
			var pl antsbot.Player = bot
			if sample != "" {
				var err error
				if pl, err = antsbot.NewSample(sample, seed); err != nil {
					return err
				}
			}
			return antsbot.Run(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), pl)
		},
	}
	cmd.Flags().StringVar(&sample, "sample", "", "play a sample strategy instead: random, hold, lefty, greedy, hunter or phalanx")
	cmd.Flags().Int64Var(&seed, "seed", 0, "random seed of a sample strategy (default: the engine's player_seed)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no status line on stderr after every turn")
	return cmd
}
