package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"arena/game"
	"arena/rating"
	"arena/tournament"
)

// sprtFlags are the options of "arena sprt GAME".
type sprtFlags struct {
	elo0, elo1, alpha, beta float64
	maxGames, concurrency   int
}

// newSprtCmd is "arena sprt [GAME]". Without a game name it tests Gomoku
// bots, so "arena sprt --bot A=CMD --bot B=CMD --elo0 0 --elo1 5" works as
// written; "arena sprt khet ..." and the like pick another game.
func newSprtCmd() *cobra.Command {
	var cmd *cobra.Command
	for _, d := range drivers() {
		if d.info.Name == "gomoku" {
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
	build = d.flags(cmd.Flags())
	fl := cmd.Flags()
	fl.Lookup("name").Usage = "name of this SPRT, the prefix of its game IDs (default: sprt, game and time; a name already used in --out gets -2, -3 ...)"
	fl.Float64Var(&sf.elo0, "elo0", 0, "H0: A is this much stronger than B (logistic Elo)")
	fl.Float64Var(&sf.elo1, "elo1", 5, "H1: A is this much stronger than B (logistic Elo)")
	fl.Float64Var(&sf.alpha, "alpha", 0.05, "chance of accepting H1 when H0 holds")
	fl.Float64Var(&sf.beta, "beta", 0.05, "chance of accepting H0 when H1 holds")
	fl.IntVar(&sf.maxGames, "max-games", 0, "stop undecided after this many games (0 = no limit)")
	fl.IntVar(&sf.concurrency, "concurrency", 0, "games at once (default: one thinking bot per core)")
	return cmd
}

// sprtPlan schedules game pairs until the SPRT decides. It is a
// tournament.Plan: Run calls Pending and report from one goroutine.
type sprtPlan struct {
	name           string
	openings       int
	maxPairs       int // 0 = none
	window         int // games to offer at once
	elo0, elo1     float64
	lower, upper   float64
	next           int             // lowest pair with a game still to play
	half           map[int]float64 // A's score in the first finished game of a pair
	penta          rating.Pentanomial
	score          rating.Score
	llr            float64
	verdict        string
	games, pairsOK int
}

func (p *sprtPlan) game(pair, k int) tournament.Game {
	seats := []int{0, 1}
	if k == 1 {
		seats = []int{1, 0}
	}
	return tournament.Game{
		ID:    tournament.GameID(p.name, 1, 1, pair, k),
		Round: 1, Pairing: 1, Slot: pair, Opening: pair % p.openings, Index: k, Seats: seats,
	}
}

func (p *sprtPlan) Pending(results map[string]tournament.Outcome) ([]tournament.Game, bool) {
	if p.verdict != "" {
		return nil, true
	}
	for p.maxPairs == 0 || p.next < p.maxPairs {
		_, a := results[p.game(p.next, 0).ID]
		_, b := results[p.game(p.next, 1).ID]
		if !a || !b {
			break
		}
		p.next++
	}
	var out []tournament.Game
	for i := p.next; len(out) < p.window && (p.maxPairs == 0 || i < p.maxPairs); i++ {
		for k := 0; k < 2; k++ {
			if g := p.game(i, k); !has(results, g.ID) {
				out = append(out, g)
			}
		}
	}
	if len(out) == 0 {
		p.verdict = "inconclusive"
		return nil, true
	}
	return out, false
}

func has(m map[string]tournament.Outcome, id string) bool {
	_, ok := m[id]
	return ok
}

// add counts a finished game; it reports whether it completed a pair.
func (p *sprtPlan) add(g tournament.Game, o tournament.Outcome) bool {
	a := 0.5
	switch o.Winner {
	case 0:
		a = 1
		p.score.Wins++
	case 1:
		a = 0
		p.score.Losses++
	default:
		p.score.Draws++
	}
	p.games++
	first, ok := p.half[g.Slot]
	if !ok {
		p.half[g.Slot] = a
		return false
	}
	delete(p.half, g.Slot)
	p.penta.Add(first, a)
	p.pairsOK++
	p.llr = p.penta.LLR(p.elo0, p.elo1)
	switch {
	case p.verdict != "":
	case p.llr >= p.upper:
		p.verdict = "H1"
	case p.llr <= p.lower:
		p.verdict = "H0"
	}
	return true
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
	if len(env.players) != 2 {
		return fmt.Errorf("--bot/--bots: an SPRT compares exactly 2 bots (A and B), got %d", len(env.players))
	}
	cores := runtime.NumCPU()
	auto, thinkers := defaultConcurrency(cores, 2, false, env.ponder)
	conc := sf.concurrency
	if conc == 0 {
		conc = auto
	} else if conc > auto {
		fmt.Fprintf(stderr, "warning: --concurrency %d lets up to %d bots think at once on %d cores; expect time losses\n",
			conc, conc*thinkers, cores)
	}
	lower, upper := rating.SPRTBounds(sf.alpha, sf.beta)
	base := f.name
	if base == "" {
		base = "sprt-" + d.info.Name + "-" + time.Now().Format("20060102-150405")
	}
	name, err := claimRunName(env.out, base, time.Now())
	if err != nil {
		return err
	}
	if f.name != "" && name != f.name {
		fmt.Fprintf(stderr, "%s already holds a run %s: this one is %s\n", env.out, f.name, name)
	}
	plan := &sprtPlan{
		name: name, openings: r.Openings(), maxPairs: (sf.maxGames + 1) / 2, window: 2 * conc,
		elo0: sf.elo0, elo1: sf.elo1, lower: lower, upper: upper, half: map[int]float64{},
	}
	a, b := env.players[0].Name, env.players[1].Name
	fmt.Fprintf(stderr, "SPRT %s vs %s: H0 elo %g, H1 elo %g, alpha %g, beta %g, LLR bounds [%.2f, %.2f], %d games at once\n",
		a, b, sf.elo0, sf.elo1, sf.alpha, sf.beta, lower, upper, conc)

	var mu sync.Mutex
	recs := map[string]playedGame{}
	play := func(ctx context.Context, g tournament.Game) (tournament.Outcome, error) {
		rec, path, err := r.Play(ctx, job{ID: g.ID, Seats: g.Seats, Opening: g.Opening, Seed: sprtSeed(env.seed, g)})
		if err != nil {
			return tournament.Outcome{}, err
		}
		mu.Lock()
		recs[g.ID] = playedGame{rec: rec, path: path}
		mu.Unlock()
		if rec.Winner == nil {
			return tournament.Draw, nil
		}
		order, _ := participants(g.Seats)
		return tournament.Outcome{Winner: order[*rec.Winner]}, nil
	}
	report := func(g tournament.Game, o tournament.Outcome) error {
		mu.Lock()
		pg := recs[g.ID]
		delete(recs, g.ID)
		mu.Unlock()
		if f.json {
			if err := emitGame(cmd.OutOrStdout(), pg.rec, pg.path); err != nil {
				return err
			}
		}
		if plan.add(g, o) {
			printLLR(stderr, plan)
		}
		return nil
	}
	err = tournament.Run(cmd.Context(), plan, map[string]tournament.Outcome{}, conc, play, report)
	res := sprtResult{
		Type: "sprt", LLR: plan.llr, Lower: lower, Upper: upper, Pentanomial: plan.penta, Verdict: plan.verdict,
		Games: plan.games, Pairs: plan.pairsOK, Wins: plan.score.Wins, Draws: plan.score.Draws, Losses: plan.score.Losses,
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
	printLLR(&summary, plan)
	summary.WriteString(verdict)
	if werr := game.WriteFileAtomic(filepath.Join(env.out, name+"-summary.txt"), []byte(summary.String())); werr != nil && err == nil {
		err = werr
	}
	if f.json {
		if jerr := writeJSONLine(cmd.OutOrStdout(), res); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

func sprtSeed(seed int64, g tournament.Game) int64 {
	if seed == 0 {
		return 0
	}
	return seed + int64(g.Slot)*2 + int64(g.Index)
}

func printLLR(w io.Writer, p *sprtPlan) {
	elo, margin := p.score.Elo()
	e := "?"
	if !math.IsNaN(elo) && !math.IsInf(elo, 0) {
		e = fmt.Sprintf("%+.1f", elo)
		if !math.IsNaN(margin) && !math.IsInf(margin, 0) {
			e += fmt.Sprintf(" ± %.1f", margin)
		}
	}
	fmt.Fprintf(w, "pairs %d, games %d: W %d D %d L %d, pentanomial %v, Elo %s, LLR %.2f [%.2f, %.2f]\n",
		p.pairsOK, p.games, p.score.Wins, p.score.Draws, p.score.Losses, [5]int(p.penta), e, p.llr, p.lower, p.upper)
}
