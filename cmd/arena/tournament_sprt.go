package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arena/engine"
	"arena/game"
	"arena/rating"
)

// sprtFlags are the options of "arena sprt GAME".
type sprtFlags struct {
	elo0, elo1, alpha, beta float64
	maxGames, concurrency   int
	dispatch                dispatchFlags // where the games are played
}

// newSprtCmd is "arena sprt [GAME]". Without a game name it tests Gomoku
// bots, so "arena sprt --bot A=CMD --bot B=CMD --elo0 0 --elo1 5" works as
// written; "arena sprt khet ..." and the like pick another game.
func newSprtCmd() *cobra.Command {
	var cmd *cobra.Command
	for _, d := range drivers() {
		if d.info.Name == sprtDefault {
			cmd = newSprtGameCmd(d)
		}
	}
	cmd.Use = "sprt [GAME]"
	cmd.Short = "A/B test two bots on paired openings until the pentanomial SPRT decides, as fishtest does"
	cmd.Example = `  arena sprt --bot new=./pbrain-new --bot old=./pbrain-old --elo0 0 --elo1 5 --opening openings.txt
  arena sprt khet --bot new="./khet-new" --bot old="./khet-old" --elo0 0 --elo1 10 --turn-time 1s`
	for _, d := range drivers() {
		if d.info.Players[0] == 2 {
			cmd.AddCommand(newSprtGameCmd(d))
		}
	}
	return cmd
}

func newSprtGameCmd(d driver) *cobra.Command {
	var f matchFlags
	var sf sprtFlags
	var build func(env runEnv) (runner, error)
	cmd := &cobra.Command{
		Use:   d.info.Name,
		Short: fmt.Sprintf("SPRT of two %s bots: is A at least elo1 stronger than B, or at most elo0?", d.info.Title),
		Long: `Plays pairs of games on the same opening with colours swapped, counts the
pairs by A's score (the pentanomial: 0, 0.5, 1, 1.5 or 2 points) and after
every pair prints the log-likelihood ratio of H1 (A is elo1 stronger) against
H0 (elo0), in fishtest's logistic-Elo GSPRT. It stops when the LLR leaves
[log(beta/(1-alpha)), log((1-beta)/alpha)]: H1 accepted above, H0 below.`,
		Example: `  arena sprt gomoku --bot new=./pbrain-new --bot old=./pbrain-old --elo0 0 --elo1 5 --opening openings.txt`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSPRT(cmd, d, &f, &sf, build)
		},
	}
	f.register(cmd, d, "games") // the SPRT decides how many games
	build = d.flags(cmd.Flags()).build
	fl := cmd.Flags()
	fl.Lookup("name").Usage = "name of this SPRT, the prefix of its game IDs (default: sprt, game and time; a name already used in --out gets -2, -3 ...)"
	fl.Float64Var(&sf.elo0, "elo0", 0, "H0: A is this much stronger than B (logistic Elo)")
	fl.Float64Var(&sf.elo1, "elo1", 5, "H1: A is this much stronger than B (logistic Elo)")
	fl.Float64Var(&sf.alpha, "alpha", 0.05, "chance of accepting H1 when H0 holds")
	fl.Float64Var(&sf.beta, "beta", 0.05, "chance of accepting H0 when H1 holds")
	fl.IntVar(&sf.maxGames, "max-games", 0, "stop undecided after this many games (0 = no limit)")
	fl.IntVar(&sf.concurrency, "concurrency", 0, "games at once (default: one thinking bot per core)")
	sf.dispatch.register(fl)
	return cmd
}

// sprtResult is the last JSON line of "arena sprt --json".
type sprtResult struct {
	Type        string             `json:"type"` // "sprt"
	LLR         float64            `json:"llr"`
	Lower       float64            `json:"lower"`
	Upper       float64            `json:"upper"`
	Pentanomial rating.Pentanomial `json:"pentanomial"`
	Verdict     string             `json:"verdict"`
	Games       int                `json:"games"`
	Pairs       int                `json:"pairs"`
	Wins        int                `json:"wins"`
	Draws       int                `json:"draws"`
	Losses      int                `json:"losses"`
	Elo0        float64            `json:"elo0"`
	Elo1        float64            `json:"elo1"`
	Alpha       float64            `json:"alpha"`
	Beta        float64            `json:"beta"`
}

func runSPRT(cmd *cobra.Command, d driver, f *matchFlags, sf *sprtFlags, build func(runEnv) (runner, error)) error {
	stderr := cmd.ErrOrStderr()
	if err := checkName(f.name); err != nil {
		return err
	}
	switch {
	case !(sf.alpha > 0 && sf.alpha < 1):
		return fmt.Errorf("--alpha %g: must be between 0 and 1", sf.alpha)
	case !(sf.beta > 0 && sf.beta < 1):
		return fmt.Errorf("--beta %g: must be between 0 and 1", sf.beta)
	case !(sf.elo1 > sf.elo0):
		return fmt.Errorf("--elo1 %g: must be above --elo0 %g", sf.elo1, sf.elo0)
	case sf.maxGames < 0:
		return fmt.Errorf("--max-games %d: must not be negative", sf.maxGames)
	case sf.concurrency < 0:
		return fmt.Errorf("--concurrency %d: must not be negative", sf.concurrency)
	case f.botsFile == "" && len(f.bots) != 2:
		return fmt.Errorf("--bot: an SPRT compares exactly 2 bots (A and B), got %d", len(f.bots))
	}
	env, r, cleanup, err := f.runner(d, build)
	if err != nil {
		return err
	}
	defer cleanup()
	if len(env.Players) != 2 {
		return fmt.Errorf("--bot/--bots: an SPRT compares exactly 2 bots (A and B), got %d", len(env.Players))
	}
	cores := runtime.NumCPU()
	auto, thinkers := defaultConcurrency(cores, 2, false, env.Ponder)
	if sf.dispatch.enabled() {
		auto = dispatchedGames // the workers' slots decide
	}
	conc := sf.concurrency
	if conc == 0 {
		conc = auto
	} else if conc > auto {
		fmt.Fprintf(stderr, "warning: --concurrency %d lets up to %d bots think at once on %d cores; expect time losses\n",
			conc, conc*thinkers, cores)
	}
	if !sf.dispatch.enabled() {
		keepReady(env.Sandbox, conc, 2)
	}
	base := f.name
	if base == "" {
		base = "sprt-" + d.info.Name + "-" + time.Now().Format("20060102-150405")
	}
	name, err := claimRunName(env.Out, base, time.Now())
	if err != nil {
		return err
	}
	if f.name != "" && name != f.name {
		fmt.Fprintf(stderr, "%s already holds a run %s: this one is %s\n", env.Out, f.name, name)
	}
	sr, ok := r.(specRunner)
	if !ok {
		return fmt.Errorf("sprt: a runner of type %T", r)
	}
	disp, err := sf.dispatch.start(cmd.Context(), env.Out, stderr)
	if err != nil {
		return err
	}
	defer disp.stop()
	run, closeRunner, err := disp.runner(cmd.Context(), sr.run, env.Out, name, true)
	if err != nil {
		return err
	}
	defer closeRunner()
	lower, upper := rating.SPRTBounds(sf.alpha, sf.beta)
	a, b := env.Players[0].Name, env.Players[1].Name
	fmt.Fprintf(stderr, "SPRT %s vs %s: H0 elo %g, H1 elo %g, alpha %g, beta %g, LLR bounds [%.2f, %.2f], %d games at once\n",
		a, b, sf.elo0, sf.elo1, sf.alpha, sf.beta, lower, upper, conc)
	test := &engine.SPRT{
		Name: name, Match: sr.tmpl, Runner: run, Elo0: sf.elo0, Elo1: sf.elo1, Alpha: sf.alpha, Beta: sf.beta,
		MaxGames: sf.maxGames, Concurrency: conc,
		Stored: func(rec *game.Record, path string) error {
			if f.json {
				return emitGame(cmd.OutOrStdout(), rec, path)
			}
			return nil
		},
		Pair: func(st engine.SPRTState) { printLLR(stderr, st) },
	}
	state, err := test.Run(cmd.Context())
	res := sprtResult{
		Type: "sprt", LLR: state.LLR, Lower: lower, Upper: upper, Pentanomial: state.Pentanomial, Verdict: state.Verdict,
		Games: state.Games, Pairs: state.Pairs, Wins: state.Score.Wins, Draws: state.Score.Draws, Losses: state.Score.Losses,
		Elo0: sf.elo0, Elo1: sf.elo1, Alpha: sf.alpha, Beta: sf.beta,
	}
	if err != nil {
		res.Verdict = "interrupted"
	}
	var verdict string
	switch res.Verdict {
	case "H1":
		verdict = fmt.Sprintf("H1 accepted: %s is at least %g Elo stronger than %s (LLR %.2f >= %.2f)\n", a, sf.elo1, b, res.LLR, upper)
	case "H0":
		verdict = fmt.Sprintf("H0 accepted: %s is not %g Elo stronger than %s (LLR %.2f <= %.2f)\n", a, sf.elo1, b, res.LLR, lower)
	default:
		verdict = fmt.Sprintf("%s after %d games: LLR %.2f within [%.2f, %.2f]\n", res.Verdict, res.Games, res.LLR, lower, upper)
	}
	fmt.Fprint(stderr, verdict)
	// The summary file, which claimed the run's name, keeps the last
	// counts and the verdict.
	var summary strings.Builder
	printLLR(&summary, state)
	summary.WriteString(verdict)
	if werr := game.WriteFileAtomic(filepath.Join(env.Out, name+"-summary.txt"), []byte(summary.String())); werr != nil && err == nil {
		err = werr
	}
	if f.json {
		if jerr := writeJSONLine(cmd.OutOrStdout(), res); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

func printLLR(w io.Writer, p engine.SPRTState) {
	elo, margin := p.Score.Elo()
	e := "?"
	if !math.IsNaN(elo) && !math.IsInf(elo, 0) {
		e = fmt.Sprintf("%+.1f", elo)
		if !math.IsNaN(margin) && !math.IsInf(margin, 0) {
			e += fmt.Sprintf(" ± %.1f", margin)
		}
	}
	fmt.Fprintf(w, "pairs %d, games %d: W %d D %d L %d, pentanomial %v, Elo %s, LLR %.2f [%.2f, %.2f]\n",
		p.Pairs, p.Games, p.Score.Wins, p.Score.Draws, p.Score.Losses, [5]int(p.Pentanomial), e, p.LLR, p.Lower, p.Upper)
}
