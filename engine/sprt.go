package engine

import (
	"context"
	"sync"

	"arena/game"
	"arena/match"
	"arena/rating"
	"arena/tournament"
)

// SPRT plays pairs of games between two players (Match.Players A and
// B) on the same opening with colours swapped until the pentanomial
// sequential probability ratio test decides whether A is at least Elo1
// stronger than B (H1) or at most Elo0 (H0), as fishtest does.
type SPRT struct {
	Name        string
	Match       match.Spec // the match part; two players, A first
	Runner      Runner
	Elo0, Elo1  float64
	Alpha, Beta float64
	MaxGames    int // stop undecided after this many (0 = no limit)
	Concurrency int // games at once, at least 1
	// Stored is told every finished game; Pair is told the test's state
	// after every completed pair. Both are optional.
	Stored func(rec *game.Record, path string) error
	Pair   func(s SPRTState)
}

// SPRTState is where an SPRT stands.
type SPRTState struct {
	LLR, Lower, Upper float64
	Pentanomial       rating.Pentanomial
	Score             rating.Score
	// Verdict is "H1", "H0", "inconclusive" (no games left) or "" (still
	// running, or interrupted).
	Verdict      string
	Games, Pairs int
}

// Run plays the test to its verdict (or MaxGames, or the end of ctx).
func (s *SPRT) Run(ctx context.Context) (SPRTState, error) {
	lower, upper := rating.SPRTBounds(s.Alpha, s.Beta)
	openings, err := s.Runner.Openings(s.Match)
	if err != nil {
		return SPRTState{Lower: lower, Upper: upper}, err
	}
	conc := max(s.Concurrency, 1)
	plan := &sprtPlan{
		name: s.Name, openings: openings, maxPairs: (s.MaxGames + 1) / 2, window: 2 * conc,
		elo0: s.Elo0, elo1: s.Elo1, lower: lower, upper: upper, half: map[int]float64{},
	}
	type played struct {
		rec  *game.Record
		path string
	}
	var mu sync.Mutex
	recs := map[string]played{}
	play := func(ctx context.Context, g tournament.Game) (tournament.Outcome, error) {
		spec := s.Match
		spec.ID, spec.Seats, spec.Opening, spec.GameSeed = g.ID, g.Seats, g.Opening, sprtSeed(s.Match.Seed, g)
		rec, path, err := s.Runner.Run(ctx, spec, match.Local{})
		if err != nil {
			return tournament.Outcome{}, err
		}
		mu.Lock()
		recs[g.ID] = played{rec: rec, path: path}
		mu.Unlock()
		if rec.Winner == nil {
			return tournament.Draw, nil
		}
		order, _ := match.Participants(g.Seats)
		return tournament.Outcome{Winner: order[*rec.Winner]}, nil
	}
	report := func(g tournament.Game, o tournament.Outcome) error {
		mu.Lock()
		pg := recs[g.ID]
		delete(recs, g.ID)
		mu.Unlock()
		if s.Stored != nil {
			if err := s.Stored(pg.rec, pg.path); err != nil {
				return err
			}
		}
		if plan.add(g, o) && s.Pair != nil {
			s.Pair(plan.state())
		}
		return nil
	}
	err = tournament.Run(ctx, plan, map[string]tournament.Outcome{}, conc, play, report)
	return plan.state(), err
}

// sprtSeed is the seed of a game of the test: the match seed, moved on
// per pair and colour; 0 without one.
func sprtSeed(seed int64, g tournament.Game) int64 {
	if seed == 0 {
		return 0
	}
	return seed + int64(g.Slot)*2 + int64(g.Index)
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

func (p *sprtPlan) state() SPRTState {
	return SPRTState{LLR: p.llr, Lower: p.lower, Upper: p.upper, Pentanomial: p.penta, Score: p.score,
		Verdict: p.verdict, Games: p.games, Pairs: p.pairsOK}
}
