package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/match"
)

// matchFlags are the flags every game's match command shares.
type matchFlags struct {
	bots      []string
	botsFile  string
	games     int
	turnTime  time.Duration
	matchTime time.Duration
	tolerance time.Duration
	startup   time.Duration
	memory    string
	out       string
	json      bool
	seed      int64
	ponder    bool
	name      string
	debug     bool
	workDir   string
	sandbox   sandboxFlags
}

// register adds the shared flags that apply to d's games to cmd, with
// d's default clocks, leaving out the game's Unused settings and those named in
// omit (a tournament counts games per pairing, not --games): a flag that
// does nothing is neither listed in the help nor accepted. Left-out flags
// keep their defaults.
func (f *matchFlags) register(cmd *cobra.Command, d driver, omit ...string) {
	fl := pflag.NewFlagSet(d.info.Name, pflag.ContinueOnError)
	fl.StringArrayVar(&f.bots, "bot", nil, `a bot: "CMD" or "NAME=CMD" (repeat per player; "builtin" is arena's own bot)`)
	fl.StringVar(&f.botsFile, "bots", "", botsFlag)
	fl.IntVarP(&f.games, "games", "n", 2, "number of games (colours alternate)")
	fl.DurationVar(&f.turnTime, "turn-time", d.info.TurnTime, "time limit per move (0 = none)")
	fl.DurationVar(&f.matchTime, "match-time", d.info.MatchTime, "time limit per player for a whole game (0 = none)")
	fl.DurationVar(&f.tolerance, "tolerance", time.Second, "grace after a limit before a move counts as late")
	fl.DurationVar(&f.startup, "startup-time", 30*time.Second, "time limit for a bot to start (counts against its match time)")
	fl.StringVar(&f.memory, "memory", "0", "memory limit per bot, e.g. 350MB or 1GiB (0 = none)")
	fl.StringVar(&f.out, "out", "arena-out", "folder for the game records")
	fl.BoolVar(&f.json, "json", false, "print one JSON object per finished game on stdout (people's output goes to stderr)")
	fl.Int64Var(&f.seed, "seed", 0, "seed for random choices such as the order of openings (0 = none)")
	fl.BoolVar(&f.ponder, "ponder", false, "let bots think while the opponent is on move (otherwise they are paused)")
	fl.StringVar(&f.name, "name", "", "name of this match, the prefix of its game IDs (default: game and time; a name already used in --out gets -2, -3 ...)")
	fl.BoolVar(&f.debug, "debug", false, "write every line to and from each bot, with times, to OUT/ID-PLAYER.log")
	fl.StringVar(&f.workDir, "work-dir", "", "where the bots' working folders go (default: /dev/shm when it is a memory file system, else OUT)")
	f.sandbox.register(fl)
	fl.VisitAll(func(flag *pflag.Flag) {
		if !slices.Contains(d.info.Unused, flag.Name) && !slices.Contains(omit, flag.Name) {
			cmd.Flags().AddFlag(flag)
		}
	})
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return notSharedError(d, err) })
}

// notSharedError says why a shared flag that d's game leaves out
// (game.Info.Unused) was refused, where err is the parser's "unknown
// flag" for it.
func notSharedError(d driver, err error) error {
	for _, name := range d.info.Unused {
		if err.Error() == "unknown flag: --"+name {
			game, _, _ := strings.Cut(d.info.Title, " (") // "Ants", not "Ants (AI Challenge 2011)"
			return fmt.Errorf("--%s does not apply to %s: %s", name, game, d.info.UnusedWhy)
		}
	}
	return err
}

func (f *matchFlags) clock() (match.Clock, error) {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--turn-time", f.turnTime}, {"--match-time", f.matchTime}, {"--tolerance", f.tolerance}, {"--startup-time", f.startup}} {
		if d.v < 0 {
			return match.Clock{}, fmt.Errorf("%s %v: must not be negative", d.name, d.v)
		}
	}
	if f.games < 1 {
		return match.Clock{}, fmt.Errorf("--games %d: must be at least 1", f.games)
	}
	return match.Clock{Turn: f.turnTime, Match: f.matchTime, Tolerance: f.tolerance, Startup: f.startup}, nil
}

func (f *matchFlags) matchName(game string) string {
	if f.name != "" {
		return f.name
	}
	return game + "-" + time.Now().Format("20060102-150405")
}

// parseSize reads a byte size: a number with an optional unit (B, K/KB,
// KiB, M/MB, MiB, G/GB, GiB; K, M and G count in powers of 1024 as
// Gomocup's limits do).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	units := []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a number with an optional unit such as 350MB", s)
	}
	return int64(v * float64(mult)), nil
}
